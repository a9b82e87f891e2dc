//go:build cgo

package exterr_test

import (
	"errors"
	"os"
	"os/exec"
	"runtime"
	"syscall"
	"testing"
	"unsafe"
)

// The kernel records descriptions only for processes that called
// prctl(PR_SET_ERR_DESC_ENABLED, 1, 0, 0, 0) (docs/contract.md section
// 1.2). libexterr makes that call from a constructor when it is loaded,
// which for a cgo program is before the Go runtime starts, so every
// program using this package has descriptions on every thread.
//
// The host's kernel fails the call with EINVAL and leaves no trace, so
// this test binary is run again as a child under a seccomp filter that
// kills the process on exactly that call: the child dying of SIGSYS shows
// that loading it made the call. The same filter for arg2 == 2 must let
// it run, which shows the filter kills that one call and nothing else.
func TestLoadEnablesDescriptions(t *testing.T) {
	arch, ok := map[string]uint32{
		"amd64": 0xC000003E, // AUDIT_ARCH_X86_64
		"arm64": 0xC00000B7, // AUDIT_ARCH_AARCH64
	}[runtime.GOARCH]
	if !ok {
		t.Skipf("no seccomp filter written for %s", runtime.GOARCH)
	}
	if got := runUnderFilter(t, arch, 2); got != 0 {
		t.Fatalf("filter for prctl(PR_SET_ERR_DESC_ENABLED, 2, ...): child killed by %v; want it to run", got)
	}
	if got := runUnderFilter(t, arch, 1); got != syscall.SIGSYS {
		t.Errorf("child %s, want killed by SIGSYS: loading libexterr did not call "+
			"prctl(PR_SET_ERR_DESC_ENABLED, 1, 0, 0, 0)", ended(got))
	}
}

func ended(sig syscall.Signal) string {
	if sig == 0 {
		return "exited 0"
	}
	return "killed by " + sig.String()
}

// runUnderFilter runs this test binary, running no test, with a filter
// that kills it on prctl(PR_SET_ERR_DESC_ENABLED, arg2, 0, 0, 0), and
// returns the signal that ended it, or 0 when it exited 0.
func runUnderFilter(t *testing.T, arch uint32, arg2 uint32) syscall.Signal {
	// The filter goes on this thread alone, which the fork copies: the
	// thread is locked for good and ends with the test's goroutine, so
	// no other goroutine ever runs under the filter.
	ch := make(chan error, 1)
	var sig syscall.Signal
	go func() {
		runtime.LockOSThread()
		if err := installFilter(arch, arg2); err != nil {
			ch <- err
			return
		}
		// The kill is expected: no core file for it. (The limit is
		// the process's; the child inherits it.)
		var core syscall.Rlimit
		if err := syscall.Getrlimit(syscall.RLIMIT_CORE, &core); err != nil {
			ch <- err
			return
		}
		noCore := syscall.Rlimit{Cur: 0, Max: core.Max}
		if err := syscall.Setrlimit(syscall.RLIMIT_CORE, &noCore); err != nil {
			ch <- err
			return
		}
		err := exec.Command(os.Args[0], "-test.run=^$").Run()
		if rerr := syscall.Setrlimit(syscall.RLIMIT_CORE, &core); rerr != nil {
			t.Errorf("restoring RLIMIT_CORE: %v", rerr)
		}
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
				sig = ws.Signal()
				err = nil
			}
		}
		ch <- err
	}()
	if err := <-ch; err != nil {
		if errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.EACCES) {
			t.Skipf("no seccomp filter here: %v", err)
		}
		t.Fatal(err)
	}
	return sig
}

// installFilter puts on the calling thread a seccomp filter that kills
// the process on prctl(PR_SET_ERR_DESC_ENABLED, arg2, 0, 0, 0).
func installFilter(arch uint32, arg2 uint32) error {
	const (
		prSetNoNewPrivs   = 38
		prSetSeccomp      = 22
		seccompModeFilter = 2
		retKillProcess    = 0x80000000
		retAllow          = 0x7fff0000
		ldWAbs            = syscall.BPF_LD | syscall.BPF_W | syscall.BPF_ABS
		jeqK              = syscall.BPF_JMP | syscall.BPF_JEQ | syscall.BPF_K
		retK              = syscall.BPF_RET | syscall.BPF_K
	)
	// Offsets in struct seccomp_data (little-endian: an argument's low
	// half first) and the value each 32-bit word must have.
	words := [][2]uint32{
		{4, arch},
		{0, uint32(syscall.SYS_PRCTL)},
		{16, 0x45525245}, // PR_SET_ERR_DESC_ENABLED, an int
		{24, arg2}, {28, 0},
		{32, 0}, {36, 0},
		{40, 0}, {44, 0},
		{48, 0}, {52, 0},
	}
	var prog []syscall.SockFilter
	for i, w := range words {
		// The first word that differs jumps past the rest and the kill.
		prog = append(prog,
			syscall.SockFilter{Code: ldWAbs, K: w[0]},
			syscall.SockFilter{Code: jeqK, Jf: uint8(2*(len(words)-i) - 1), K: w[1]})
	}
	prog = append(prog,
		syscall.SockFilter{Code: retK, K: retKillProcess},
		syscall.SockFilter{Code: retK, K: retAllow})
	fprog := syscall.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}

	if _, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, prSetNoNewPrivs, 1, 0); e != 0 {
		return e
	}
	_, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, prSetSeccomp, seccompModeFilter,
		uintptr(unsafe.Pointer(&fprog)))
	runtime.KeepAlive(prog)
	if e != 0 {
		return e
	}
	return nil
}

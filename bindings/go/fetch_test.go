//go:build cgo

package exterr_test

import (
	"errors"
	"runtime"
	"syscall"
	"testing"
	"unsafe"

	"exterr.dev/go/exterr"
)

// kernelHasExterr asks the kernel directly, without libexterr, so the
// test does not trust the code it tests: unknown prctl options fail with
// EINVAL, and PR_GET_ERR_DESC otherwise answers a size or ENODATA.
func kernelHasExterr() bool {
	const prGetErrDesc = 0x45525244
	_, _, errno := syscall.RawSyscall6(syscall.SYS_PRCTL, prGetErrDesc, 0, 0, 0, 0, 0)
	return errno != syscall.EINVAL
}

func TestFetch(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()

	e, err := exterr.Fetch()
	if !kernelHasExterr() {
		if e != nil || !errors.Is(err, exterr.ErrUnsupported) {
			t.Fatalf("Fetch() = %v, %v; want ErrUnsupported", e, err)
		}
		if !errors.Is(err, errors.ErrUnsupported) {
			t.Error("not errors.ErrUnsupported")
		}
		return
	}
	if err != nil {
		t.Fatalf("Fetch() = %v", err)
	}
	// The first fetch emptied the slot; nothing can be pending now.
	if e, err := exterr.Fetch(); e != nil || err != nil {
		t.Errorf("second Fetch() = %v, %v; want nil, nil", e, err)
	}
}

func TestSupported(t *testing.T) {
	if got, want := exterr.Supported(), kernelHasExterr(); got != want {
		t.Errorf("Supported() = %v, the kernel says %v", got, want)
	}
}

// Supported must leave a pending description for Fetch. Only a kernel
// with exterr can show that; cmd/exterr-guest-test checks it in the
// patched test VM.
func TestSupportedKeepsDescription(t *testing.T) {
	if !kernelHasExterr() {
		t.Skip("this kernel has no exterr")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()

	// A perf_event_attr (136 bytes) whose size field says 1:
	// perf_copy_attr() rejects it with E2BIG before any permission
	// check, and the patched kernel describes that.
	attr := make([]uint32, 136/4)
	attr[1] = 1
	_, _, errno := syscall.Syscall6(syscall.SYS_PERF_EVENT_OPEN,
		uintptr(unsafe.Pointer(&attr[0])), 0, ^uintptr(0), ^uintptr(0), 0, 0)
	if errno != syscall.E2BIG {
		t.Skipf("perf_event_open failed with %v, not E2BIG", errno)
	}
	if !exterr.Supported() {
		t.Fatal("Supported() = false")
	}
	desc, err := exterr.Fetch()
	if err != nil || desc == nil {
		t.Fatalf("Fetch() after Supported() = %v, %v; want the description", desc, err)
	}
	if desc.Errno != syscall.E2BIG {
		t.Errorf("description of %v: %v", desc.Errno, desc)
	}
}

// Package exterr reads the Linux kernel's extended description of a failed
// system call.
//
// A kernel carrying the exterr series keeps, per thread, a JSON description
// of the last error a subsystem reported (which attribute of a
// perf_event_attr was wrong, and why) and hands it out through
// prctl(PR_GET_ERR_DESC). This package is a thin cgo binding of libexterr,
// the C library that fetches, parses and formats those descriptions, so
// that every language binding agrees byte for byte with the C one
// (docs/contract.md in the exterr repository is the contract).
//
// Most programs only need [Do]:
//
//	err := exterr.Do(func() error {
//		_, _, errno := syscall.Syscall6(syscall.SYS_PERF_EVENT_OPEN, ...)
//		if errno != 0 {
//			return errno
//		}
//		return nil
//	})
//	var desc *exterr.Error
//	if errors.As(err, &desc) {
//		log.Print(desc) // Invalid argument: sigtrap requires ... [perf attr_field=sigtrap] (...)
//	}
//
// Do's result is the function's own error as far as existing code can
// tell: the same Error() text, and the same answers from errors.Is and
// errors.As (syscall.ENOENT, fs.ErrNotExist, *os.PathError, ...), with or
// without a description. Only errors.As to an [*Error] is new.
//
// [Parse] turns JSON obtained elsewhere (a log, a test case) into an
// [*Error]; [Fetch] is the primitive [Do] is built on; [Supported] says
// whether the kernel hands out descriptions at all, without taking one.
//
// # Ids, values and notes
//
// Since libexterr 1.1 a description may carry a stable id ([Error.ID]),
// the runtime values behind it ([Error.Values], [Error.Value]: integers
// from -2^63 to 2^64-1, held exactly by [Value]) and a [Severity]. A note
// is a description of a call that succeeded ([SeverityInfo] or
// [SeverityWarning], Errno 0); only [FetchNotes] takes one, so [Fetch]
// and [Do] behave as before.
//
// # Threads
//
// The kernel records descriptions only for processes that enabled them
// with prctl(PR_SET_ERR_DESC_ENABLED, 1, 0, 0, 0). Linking this package
// does that: libexterr calls it from a constructor when it is loaded,
// before the Go runtime starts, for every thread of the process, its
// children and the programs it executes (older kernels fail it with
// EINVAL, which is ignored). Code that calls prctl(PR_GET_ERR_DESC)
// itself without this package must enable descriptions first.
//
// Descriptions belong to a kernel thread, while goroutines move between
// threads freely. A description is only meaningful when it is fetched on
// the thread whose system call failed, which is why [Do] locks the calling
// goroutine to its thread around both the call and the fetch, and why
// [Fetch] on its own is only useful after runtime.LockOSThread.
//
// # Building
//
// The package links libexterr through pkg-config (the package "exterr"),
// so PKG_CONFIG_PATH must find exterr.pc and, for a shared libexterr,
// LD_LIBRARY_PATH (or the system linker path) must find libexterr.so at
// run time. README.md in this directory shows a fully static build.
//
// Built without cgo (CGO_ENABLED=0) the package still compiles but has no
// libexterr: [Fetch], [FetchNotes] and [Parse] fail with [ErrNoCgo], which errors.Is
// matches against [ErrUnsupported]; [Supported] is false; and [Do]
// returns its function's error unchanged, as on a kernel without exterr.
package exterr

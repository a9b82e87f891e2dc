package exterr

import (
	"errors"
	"runtime"
	"syscall"
)

// fetch is Fetch, replaceable by tests: the host kernel has no exterr, and
// Do's matching rules deserve tests anyway.
var fetch = Fetch

// Do calls fn with the calling goroutine locked to its OS thread and, if
// fn's error wraps a [syscall.Errno], fetches that thread's description.
// When the description is about the same errno, Do returns it as an
// [*Error], whose [Error.Cause] is fn's error and which keeps fn's error
// reachable through errors.Is and errors.As. In every other case (no
// error, no errno in it, a kernel without exterr, nothing pending, a
// different errno, a failed fetch) Do returns fn's error unchanged.
//
// Before calling fn, Do discards any description already pending on the
// thread, so a description it returns was recorded while fn ran rather
// than left over from an earlier failure. That discards descriptions the
// caller had not fetched yet.
//
// Things to keep in mind:
//
//   - Only system calls fn makes on the calling goroutine count. Work fn
//     hands to other goroutines runs on other threads, whose descriptions
//     Do never sees.
//   - The errno fn reports need not come from the last system call fn
//     made. os.File methods retry EINTR and EAGAIN (the latter via the
//     network poller) and may make further calls before returning an
//     error; a raw syscall.Syscall or golang.org/x/sys/unix call right
//     before returning is the reliable pattern.
//   - The Go runtime makes system calls of its own on the thread (memory
//     management, futexes, signal handling). Only subsystems that report
//     through exterr record descriptions, and Do checks the errno, but
//     the description can still, rarely, come from a call fn did not
//     make; compare [Error.Syscall] with the call's number to be sure.
//   - The fetch runs on the same thread because cgo calls run on the
//     calling goroutine's thread, which the lock keeps fixed.
//   - Nested locks are fine: Do unlocks only its own
//     runtime.LockOSThread, so a caller that locked the thread itself
//     stays locked.
func Do(fn func() error) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()

	if _, err := fetch(); errors.Is(err, ErrUnsupported) {
		// Nothing to fetch afterwards either; spare the second prctl.
		return fn()
	}

	err := fn()
	var errno syscall.Errno
	if !errors.As(err, &errno) || errno == 0 {
		return err
	}
	desc, ferr := fetch()
	if ferr != nil || desc == nil || desc.Errno != errno {
		return err
	}
	desc.cause = err
	return desc
}

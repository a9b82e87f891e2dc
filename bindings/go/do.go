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
//
// When the description is about the same errno, Do returns fn's error
// wrapped so that errors.As(err, &desc) with desc an [*Error] finds the
// description. In every other case (no error, no errno in it, a kernel
// without exterr, a build without cgo, nothing pending, a different
// errno, a failed fetch) Do returns fn's error itself, the same value.
//
// The wrapping is invisible to code written for fn's error:
//
//   - Error() is fn's error's text, unchanged, so logs, golden test
//     output and string matching are the same on every kernel. The
//     kernel's line is desc.Error() (and desc.Message and desc.Fields).
//   - errors.Is and errors.As see exactly fn's error's chain, since the
//     wrapper's Unwrap returns fn's error and the only concrete type it
//     matches itself is *Error: errors.Is(err, syscall.ENOENT), fs.ErrNotExist,
//     os.ErrPermission, errors.As(err, &pathErr) for an *os.PathError or
//     *os.SyscallError hold exactly when they hold for fn's error.
//   - errors.Unwrap(err) returns fn's error.
//
// What does see the wrapper is what predates errors.Is: comparing with ==
// (err == syscall.EINVAL), type assertions and switches on err itself
// (err.(*os.PathError)), and os.IsNotExist, os.IsPermission, os.IsExist
// and os.IsTimeout, which look only at the os package's own types. Code
// that must behave the same with and without a description uses
// errors.Is and errors.As.
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
	return &described{err: err, desc: desc}
}

// described is what Do returns when the kernel described fn's failure.
// It is a separate type rather than *Error itself so that an *Error's
// Error() can stay the kernel's line (the contract's, the same in every
// binding) while Do's result keeps fn's text.
type described struct {
	err  error  // what fn returned
	desc *Error // what the kernel said about it
}

// Error returns fn's error's text: the description is extra information
// a program asks for with errors.As, not a change to what it printed or
// matched before.
func (d *described) Error() string { return d.err.Error() }

// Unwrap returns fn's error, so errors.Is and errors.As walk exactly its
// chain.
func (d *described) Unwrap() error { return d.err }

// As sets *target to the description when target is an **Error. It
// matches no other type, so errors.As for anything else goes on into fn's
// error as if d were not there.
func (d *described) As(target any) bool {
	p, ok := target.(**Error)
	if ok {
		*p = d.desc
	}
	return ok
}

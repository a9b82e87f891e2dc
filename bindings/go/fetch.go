package exterr

import (
	"errors"
	"fmt"
)

// ErrUnsupported is returned by [Fetch] and [FetchNotes] when the running
// kernel has no prctl(PR_GET_ERR_DESC). errors.Is also matches it against
// the standard library's errors.ErrUnsupported.
var ErrUnsupported = fmt.Errorf("exterr: kernel has no PR_GET_ERR_DESC: %w",
	errors.ErrUnsupported)

// ErrNoCgo is returned by [Fetch], [FetchNotes] and [Parse] in a program
// built without cgo (CGO_ENABLED=0), where libexterr is not linked. It is
// defined in every build so that code mentioning it compiles either way;
// with cgo nothing returns it.
//
// errors.Is matches it against [ErrUnsupported] and errors.ErrUnsupported
// as well: without libexterr no description can be had, which is what
// code checking for ErrUnsupported wants to know, and [Do] then returns
// the function's error unchanged as it does on a kernel without exterr.
// Its text names the real reason, so a log does not blame the kernel.
var ErrNoCgo error = noCgoError{}

type noCgoError struct{}

func (noCgoError) Error() string {
	return "exterr: built without cgo: libexterr is not linked"
}

// Is matches the two "cannot be done here" sentinels; ErrNoCgo itself
// matches by equality.
func (noCgoError) Is(target error) bool {
	return target == ErrUnsupported || target == errors.ErrUnsupported
}

// Fetch takes the calling thread's pending description out of the kernel
// and parses it. It returns nil, nil when nothing is pending and
// [ErrUnsupported] on a kernel without exterr.
//
// Fetching consumes the description. Because descriptions belong to a
// kernel thread, call Fetch only from a goroutine locked with
// runtime.LockOSThread since the failing call, or use [Do], which does
// that for you. A description is that of the thread's last failed call:
// later successful calls keep it, a later failing call ends it, so it is
// never an older failure's ([Error.Syscall] says which call). To ask
// whether the kernel has exterr at all, use [Supported], which leaves a
// pending description alone.
//
// A description the kernel hands out but that does not parse (a kernel
// bug) yields a [*ParseError]; libexterr does not report its position or
// keep its text, and the kernel has already dropped it. Other failures
// (EAGAIN when the description kept growing, ENOMEM, EFAULT) come back as
// an *os.SyscallError; the description then stays pending.
//
// In a program built without cgo Fetch always fails with [ErrNoCgo],
// which errors.Is also matches against ErrUnsupported.
func Fetch() (*Error, error) {
	return fetchDesc(false)
}

// FetchNotes is [Fetch] that also takes a note: a description of a call
// that succeeded, such as a driver saying it replaced a format the caller
// asked for. A note's [Error.Severity] is [SeverityInfo] or
// [SeverityWarning] and its Errno 0; a failed call's description comes
// back as from Fetch. It is libexterr's exterr_fetch_ex() with
// EXTERR_FETCH_NOTES (prctl(PR_GET_ERR_DESC) with PR_ERR_DESC_NOTES).
//
// The kernel hands notes only to readers that ask for them: Fetch and [Do]
// never see one (Fetch returns nil, nil while a note is pending, and
// leaves it there), and a note follows the rules of a description
// otherwise, so a later failing call ends it. The thread rules, the results (nil,
// nil when nothing is pending; [ErrUnsupported]; a [*ParseError]; an
// *os.SyscallError) and the failure without cgo ([ErrNoCgo]) are Fetch's.
// On a kernel that has exterr but not notes, libexterr asks without the
// flag, so FetchNotes then works as Fetch.
//
// Call it, on a goroutine locked with runtime.LockOSThread, right after
// the successful call the note is wanted for:
//
//	runtime.LockOSThread()
//	defer runtime.UnlockOSThread()
//	if err := ioctl(...); err == nil {
//		if note, _ := exterr.FetchNotes(); note != nil && note.Severity != exterr.SeverityError {
//			log.Print(note) // note: pixelformat not supported, replaced by YUYV [...]
//		}
//	}
func FetchNotes() (*Error, error) {
	return fetchDesc(true)
}

// Supported reports whether the running kernel hands out descriptions
// (prctl(PR_GET_ERR_DESC)), through libexterr's exterr_supported(). It
// takes nothing: a description pending on the calling thread stays
// there for a later [Fetch] or [Do], so Supported may be called at any
// time, even between a failing call and its Fetch.
//
// In a program built without cgo Supported returns false: nothing could
// fetch a description even on a kernel that has them.
func Supported() bool {
	return supported()
}

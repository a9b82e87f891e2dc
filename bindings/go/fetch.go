package exterr

// #include <exterr.h>
import "C"

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// ErrUnsupported is returned by [Fetch] when the running kernel has no
// prctl(PR_GET_ERR_DESC). errors.Is also matches it against the standard
// library's errors.ErrUnsupported.
var ErrUnsupported = fmt.Errorf("exterr: kernel has no PR_GET_ERR_DESC: %w",
	errors.ErrUnsupported)

// Fetch takes the calling thread's pending description out of the kernel
// and parses it. It returns nil, nil when nothing is pending and
// [ErrUnsupported] on a kernel without exterr.
//
// Fetching consumes the description. Because descriptions belong to a
// kernel thread, call Fetch only from a goroutine locked with
// runtime.LockOSThread since the failing call, or use [Do], which does
// that for you. A description outlives later successful calls, so compare
// [Error.Syscall] with the call you made if staleness matters.
//
// A description the kernel hands out but that does not parse (a kernel
// bug) yields a [*ParseError]; libexterr does not report its position or
// keep its text, and the kernel has already dropped it. Other failures
// (EAGAIN when the description kept growing, ENOMEM, EFAULT) come back as
// an *os.SyscallError; the description then stays pending.
func Fetch() (*Error, error) {
	var c *C.struct_exterr
	ret := C.exterr_fetch(&c)
	if ret == 0 {
		defer C.exterr_free(c)
		return newError(c), nil
	}
	switch errno := syscall.Errno(-ret); errno {
	case syscall.ENODATA:
		return nil, nil
	case syscall.EOPNOTSUPP:
		return nil, ErrUnsupported
	case syscall.EBADMSG, syscall.EPROTO, syscall.E2BIG:
		return nil, &ParseError{
			Class:  errorClass(ret),
			Reason: "the kernel's description did not parse",
			Errno:  errno,
			Offset: -1,
		}
	default:
		return nil, os.NewSyscallError("prctl(PR_GET_ERR_DESC)", errno)
	}
}

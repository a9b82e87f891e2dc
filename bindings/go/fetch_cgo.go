//go:build cgo

package exterr

/*
#include <exterr.h>

// exterr_supported() and exterr_fetch_ex() arrived in 1.1 (symbol version
// EXTERR_1.1). Say so, rather than leave an older header to fail with
// cgo's "could not determine kind of name".
#if EXTERR_VERSION_NUMBER < 0x010100
#error "the Go binding needs libexterr 1.1 or later (exterr_supported, exterr_fetch_ex)"
#endif
*/
import "C"

import (
	"os"
	"syscall"
)

// fetchDesc is exterr_fetch(), or with notes exterr_fetch_ex() with
// EXTERR_FETCH_NOTES; both report failures alike.
func fetchDesc(notes bool) (*Error, error) {
	var c *C.struct_exterr
	var ret C.int
	if notes {
		ret = C.exterr_fetch_ex(&c, C.EXTERR_FETCH_NOTES)
	} else {
		ret = C.exterr_fetch(&c)
	}
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

func supported() bool {
	// The library asks with the size-only form of the prctl, which leaves
	// a pending description where it is.
	return C.exterr_supported() == 1
}

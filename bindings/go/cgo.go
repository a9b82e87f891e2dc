//go:build cgo

package exterr

// This is the only file with the #cgo line: directives apply to the whole
// package, and one place to change them keeps static and shared builds in
// step.

/*
#cgo pkg-config: exterr
#include <exterr.h>
*/
import "C"

import (
	"syscall"
	"unsafe"
)

// newError copies a library-owned struct exterr into Go memory. The caller
// still owns c and frees it: nothing in the result points into C memory,
// so an *Error can outlive the call and be used from any goroutine.
func newError(c *C.struct_exterr) *Error {
	e := &Error{
		Errno:   syscall.Errno(c.error),
		Message: C.GoString(c.message),
		Module:  C.GoString(c.module),
		File:    C.GoString(c.file),
		Line:    int(c.line),
		Syscall: int(c.syscall),
		// json_len is at most EXTERR_MAX_JSON, so the int conversion is safe.
		JSON: C.GoStringN(c.json, C.int(c.json_len)),
	}
	if c.nr_fields > 0 {
		cfields := unsafe.Slice(c.fields, int(c.nr_fields))
		e.Fields = make([]Field, len(cfields))
		for i, f := range cfields {
			// The contract forbids \u0000, so NUL-terminated values
			// lose nothing.
			e.Fields[i] = Field{
				Name:  C.GoString(f.name),
				Type:  C.GoString(C.exterr_field_type_name(f._type)),
				Value: C.GoString(f.value),
			}
		}
	}
	e.line = format(c)
	return e
}

// format asks the library for the human line now, while c is alive, so
// that Error() never has to go back to C.
func format(c *C.struct_exterr) string {
	n := C.exterr_format(c, nil, 0)
	if n < 0 {
		return ""
	}
	buf := make([]byte, int(n)+1)
	C.exterr_format(c, (*C.char)(unsafe.Pointer(&buf[0])), C.size_t(len(buf)))
	return string(buf[:n])
}

// errorClass names a negative errno of exterr_parse() the way the
// conformance suite does.
func errorClass(ret C.int) string {
	return C.GoString(C.exterr_error_class(ret))
}

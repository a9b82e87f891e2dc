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
	newErrorV2(e, c)
	e.line = format(c)
	return e
}

// The Severity constants are libexterr's enum exterr_severity; these fail
// to compile if the header ever disagrees.
var (
	_ [SeverityError - C.EXTERR_SEVERITY_ERROR]struct{}
	_ [C.EXTERR_SEVERITY_ERROR - SeverityError]struct{}
	_ [SeverityInfo - C.EXTERR_SEVERITY_INFO]struct{}
	_ [C.EXTERR_SEVERITY_INFO - SeverityInfo]struct{}
	_ [SeverityWarning - C.EXTERR_SEVERITY_WARNING]struct{}
	_ [C.EXTERR_SEVERITY_WARNING - SeverityWarning]struct{}
)

// has is EXTERR_HAS(c, member) for a member at offset with size: the
// libexterr linked at run time may be older than the header, with a
// smaller struct exterr that ends before the members added since 1.0.
func has(c *C.struct_exterr, offset, size uintptr) bool {
	return offset+size <= uintptr(c.size)
}

// newErrorV2 copies the members libexterr 1.1 added (id, severity,
// values) into e, each only when c has it.
func newErrorV2(e *Error, c *C.struct_exterr) {
	if has(c, unsafe.Offsetof(c.id), unsafe.Sizeof(c.id)) && c.id != nil {
		e.ID = C.GoString(c.id)
		e.hasID = true
	}
	if has(c, unsafe.Offsetof(c.severity), unsafe.Sizeof(c.severity)) {
		e.Severity = Severity(c.severity)
	}
	if has(c, unsafe.Offsetof(c.nr_values), unsafe.Sizeof(c.nr_values)) &&
		has(c, unsafe.Offsetof(c.values), unsafe.Sizeof(c.values)) &&
		c.nr_values > 0 && c.values != nil {
		cvalues := unsafe.Slice(c.values, int(c.nr_values))
		e.Values = make([]Value, len(cvalues))
		for i, v := range cvalues {
			e.Values[i] = Value{Name: C.GoString(v.name)}
			if v.negative != 0 {
				e.Values[i].neg = true
				e.Values[i].bits = uint64(v.value)
			} else {
				e.Values[i].bits = uint64(v.uvalue)
			}
		}
	}
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

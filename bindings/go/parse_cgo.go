//go:build cgo

package exterr

// #include <exterr.h>
import "C"

import (
	"syscall"
	"unsafe"
)

// MaxJSON is spelled out in parse.go so that it exists without cgo; this
// fails to compile if the header ever disagrees.
var _ [MaxJSON - C.EXTERR_MAX_JSON]struct{}
var _ [C.EXTERR_MAX_JSON - MaxJSON]struct{}

func parse(data []byte) (*Error, error) {
	return parseAs(data, "")
}

// parseAs is parse with the struct exterr cut short, for the tests, as an
// older libexterr would return it: ending after the member called last
// ("json_len" for 1.0, "id", "severity" or "nr_values"), or as it is when
// last is "".
func parseAs(data []byte, last string) (*Error, error) {
	var c *C.struct_exterr
	var perr C.struct_exterr_parse_error
	perr.size = C.size_t(unsafe.Sizeof(perr))

	// A nil pointer with length 0 is what the library expects for empty
	// input; &data[0] would panic.
	var p *C.char
	if len(data) > 0 {
		// cgo pins data for the duration of the call; the library
		// copies what it keeps.
		p = (*C.char)(unsafe.Pointer(&data[0]))
	}
	ret := C.exterr_parse_ex(p, C.size_t(len(data)), &c, &perr)
	if ret != 0 {
		return nil, newParseError(ret, &perr)
	}
	defer C.exterr_free(c)
	switch last {
	case "":
	case "json_len":
		c.size = C.size_t(unsafe.Offsetof(c.id))
	case "id":
		c.size = C.size_t(unsafe.Offsetof(c.id) + unsafe.Sizeof(c.id))
	case "severity":
		c.size = C.size_t(unsafe.Offsetof(c.severity) + unsafe.Sizeof(c.severity))
	case "nr_values":
		c.size = C.size_t(unsafe.Offsetof(c.nr_values) + unsafe.Sizeof(c.nr_values))
	default:
		panic("exterr: parseAs: no member " + last)
	}
	return newError(c), nil
}

func newParseError(ret C.int, perr *C.struct_exterr_parse_error) *ParseError {
	e := &ParseError{
		Class:  errorClass(ret),
		Reason: C.GoString(&perr.reason[0]),
		Errno:  syscall.Errno(-ret),
		Offset: -1,
	}
	// The library reports line 0 for failures that have no place in the
	// text (oversized input, out of memory), where its position means
	// nothing; -1 says so without a second field.
	if perr.line > 0 {
		e.Offset = int(perr.position)
		e.Line = int(perr.line)
		e.Column = int(perr.column)
	}
	return e
}

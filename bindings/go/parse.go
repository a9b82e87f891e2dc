package exterr

// #include <exterr.h>
import "C"

import (
	"syscall"
	"unsafe"
)

// MaxJSON is the longest input [Parse] accepts (EXTERR_MAX_JSON); longer
// input fails with a [*ParseError] of class "too-big".
const MaxJSON = 65536

// Spelled out above so godoc shows a number; this fails to compile if
// the header ever disagrees.
var _ [MaxJSON - C.EXTERR_MAX_JSON]struct{}
var _ [C.EXTERR_MAX_JSON - MaxJSON]struct{}

// Parse parses one description in the format prctl(PR_GET_ERR_DESC)
// returns. A single trailing NUL byte is accepted and ignored, so a buffer
// filled by the kernel can be passed as is.
//
// Parsing is strict (docs/contract.md, section 3). On failure the error is
// a [*ParseError]; errors.Is matches it against [ErrMalformed], [ErrSchema]
// and [ErrTooBig].
func Parse(data []byte) (*Error, error) {
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
	// text (schema errors, oversized input), where its position is a
	// meaningless 0; -1 says so without a second field.
	if perr.line > 0 {
		e.Offset = int(perr.position)
		e.Line = int(perr.line)
		e.Column = int(perr.column)
	}
	return e
}

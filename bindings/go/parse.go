package exterr

// MaxJSON is the longest input [Parse] accepts (EXTERR_MAX_JSON); longer
// input fails with a [*ParseError] of class "too-big".
//
// It is spelled out here rather than taken from the header so that it
// exists, and godoc shows a number, in a build without cgo too;
// parse_cgo.go fails to compile if the header ever disagrees.
const MaxJSON = 65536

// Parse parses one description in the format prctl(PR_GET_ERR_DESC)
// returns. A single trailing NUL byte is accepted and ignored, so a buffer
// filled by the kernel can be passed as is.
//
// Parsing is strict (docs/contract.md, section 3). On failure the error is
// a [*ParseError]; errors.Is matches it against [ErrMalformed], [ErrSchema]
// and [ErrTooBig].
//
// Parsing is done by libexterr, so in a program built without cgo Parse
// always fails with [ErrNoCgo]: a second parser in Go could disagree with
// the C one, and agreeing byte for byte is the point of the binding.
func Parse(data []byte) (*Error, error) {
	return parse(data)
}

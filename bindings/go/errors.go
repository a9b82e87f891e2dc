package exterr

import (
	"errors"
	"fmt"
	"syscall"
)

// Error is one parsed description: what the kernel said about a failed
// system call. It is an error that unwraps to its [syscall.Errno], so
// errors.Is(err, syscall.EINVAL) holds for an *Error about EINVAL.
//
// [Parse] and [Fetch] return an *Error as it is. [Do] does not: it returns
// the failing function's own error, wrapped, and the *Error is found with
// errors.As(err, &desc).
//
// A note (a description of a call that succeeded, from [FetchNotes]) is an
// *Error too: its Severity is [SeverityInfo] or [SeverityWarning] and its
// Errno 0, which matches no errno with errors.Is; its Error() starts with
// "note" or "warning" instead of an errno's text.
type Error struct {
	// Errno is the error the system call returned (the JSON "code",
	// negated), e.g. syscall.EINVAL; 0 for a note.
	Errno syscall.Errno
	// Message says what was wrong, in English.
	Message string
	// Module is the subsystem that reported the error, e.g. "perf".
	Module string
	// File is the kernel source file that reported it, relative to the
	// kernel tree.
	File string
	// Line is the line in File.
	Line int
	// Syscall is the number of the system call that recorded the
	// description, or -1 when the kernel did not say.
	Syscall int
	// Fields are the subsystem's own keys (e.g. "attr_field" for perf),
	// in document order.
	Fields []Field
	// JSON is the description exactly as parsed, without a trailing NUL.
	JSON string
	// ID is the reporting site's stable identifier (the JSON "id"),
	// e.g. "perf.sample_freq.above_max_rate", or "" when the
	// description has none (kernels before ids). Unlike Message, File and
	// Line it does not change when the code moves or the message is
	// reworded, so it is what programs should key on; [Error.HasID] tells
	// an absent id from an empty one.
	ID string
	// Severity is [SeverityError] for a failed call's description, or
	// the severity of a note.
	Severity Severity
	// Values are the runtime values the kernel reported (the JSON
	// "values": the offending value, a limit, a size), in document
	// order; nil when there are none. [Error.Value] finds one by name.
	Values []Value

	line  string // exterr_format() of the description
	cause error  // what the function given to Do returned
	hasID bool   // the JSON had an "id", possibly ""
}

// Error returns the one-line human form libexterr's exterr_format()
// produces, for example
//
//	Invalid argument: sigtrap requires remove_on_exec [perf attr_field=sigtrap] (kernel/events/core.c:12593)
//
// The [Error.Values] follow the domain fields inside the brackets as
// name=decimal, and a note starts with "note" ([SeverityInfo]) or
// "warning" instead of the errno's text:
//
//	note: pixelformat not supported, replaced by YUYV [vivid field=pixelformat requested=1482184792 granted=1448695129] (drivers/media/test-drivers/vivid/vivid-vid-cap.c:660)
//
// The line is computed by the C library when the Error is created, so it
// does not follow later changes to the struct's fields. For an Error built
// by hand it is formatted from JSON if that parses, and is the errno's text
// otherwise (always, in a build without cgo, where nothing parses).
func (e *Error) Error() string {
	if e.line != "" {
		return e.line
	}
	if e.JSON != "" {
		if p, err := Parse([]byte(e.JSON)); err == nil {
			return p.line
		}
	}
	return e.Errno.Error()
}

// Unwrap returns e.Errno, so that errors.Is(err, syscall.EINVAL) and
// errors.Is(err, fs.ErrNotExist) work on an *Error as on the errno itself.
func (e *Error) Unwrap() error {
	return e.Errno
}

// Cause returns the error the function passed to [Do] returned (an
// *os.PathError, say, whose text names the file), or nil when e did not
// come from Do. Error() deliberately does not include it: the kernel's
// line is the contract's and the same in every language. Do's result
// itself has the cause's text and chain; Cause is for code that holds
// only the *Error.
func (e *Error) Cause() error {
	return e.cause
}

// Is reports whether the error from [Do]'s function matches target, so
// that errors.Is(desc, fs.ErrNotExist) and the like agree with Do's
// result after errors.As extracted desc from it. Matching e.Errno is left
// to Unwrap.
func (e *Error) Is(target error) bool {
	return e.cause != nil && errors.Is(e.cause, target)
}

// As finds the first error in the chain of [Do]'s function's error that
// matches target, so errors.As(desc, &pathErr) works on the extracted
// description as it does on Do's result.
func (e *Error) As(target any) bool {
	return e.cause != nil && errors.As(e.cause, target)
}

// Field returns the first field called name and whether there is one.
func (e *Error) Field(name string) (Field, bool) {
	for _, f := range e.Fields {
		if f.Name == name {
			return f, true
		}
	}
	return Field{}, false
}

// Value returns the first value called name and whether there is one.
func (e *Error) Value(name string) (Value, bool) {
	for _, v := range e.Values {
		if v.Name == name {
			return v, true
		}
	}
	return Value{}, false
}

// HasID reports whether the description has an "id": true when the JSON
// had one, even an empty one, and for an Error built by hand whenever ID
// is not "".
func (e *Error) HasID() bool {
	return e.hasID || e.ID != ""
}

// ParseError says why [Parse] (or [Fetch]) rejected a description.
//
// errors.Is matches it against [ErrMalformed], [ErrSchema] or [ErrTooBig]
// by class, and, through Unwrap, against the errno libexterr returned
// (syscall.EBADMSG, syscall.EPROTO, syscall.E2BIG).
type ParseError struct {
	// Class is the conformance-suite name of the failure:
	// "malformed", "schema", "too-big", "invalid-argument" or
	// "out-of-memory" (docs/contract.md, section 3).
	Class string
	// Reason is libexterr's English explanation.
	Reason string
	// Offset is the byte offset into the input where parsing failed,
	// or -1 when the failure has no place in the text (oversized input,
	// failures reported by Fetch). Schema errors have one since
	// libexterr 1.1: the offending value, the root value when it is not
	// an object, or the '}' where a missing key belongs.
	Offset int
	// Line and Column (1-based, column in characters) locate Offset;
	// both are 0 when Offset is -1.
	Line, Column int
	// Errno is the negated return value of exterr_parse(), e.g.
	// syscall.EBADMSG for "malformed".
	Errno syscall.Errno
}

// Error describes the failure, with its position when it has one.
func (e *ParseError) Error() string {
	if e.Offset < 0 {
		return fmt.Sprintf("exterr: %s description: %s", e.Class, e.Reason)
	}
	return fmt.Sprintf("exterr: %s description at offset %d (line %d, column %d): %s",
		e.Class, e.Offset, e.Line, e.Column, e.Reason)
}

// Unwrap returns e.Errno.
func (e *ParseError) Unwrap() error {
	return e.Errno
}

// Is reports whether target is the sentinel of e's class.
func (e *ParseError) Is(target error) bool {
	c, ok := target.(*classError)
	return ok && c.class == e.Class
}

// classError is the type of the class sentinels; a distinct type keeps
// ParseError.Is from matching unrelated errors with the same text.
type classError struct{ class string }

func (c *classError) Error() string { return "exterr: " + c.class + " description" }

// Sentinels for errors.Is on a [*ParseError], one per class of
// docs/contract.md section 3 that input can cause.
var (
	// ErrMalformed matches input that is not one strict RFC 8259
	// JSON text in valid UTF-8.
	ErrMalformed error = &classError{"malformed"}
	// ErrSchema matches valid JSON that is not a valid description:
	// not an object, a required key missing or mistyped, a duplicate
	// key, a value out of range.
	ErrSchema error = &classError{"schema"}
	// ErrTooBig matches input longer than [MaxJSON].
	ErrTooBig error = &classError{"too-big"}
)

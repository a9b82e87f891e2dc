//go:build cgo

package exterr_test

import (
	"bytes"
	"errors"
	"strings"
	"syscall"
	"testing"

	"exterr.dev/go/exterr"
)

const perfJSON = `{"code":-22,"module":"perf","file":"kernel/events/core.c","line":12593,` +
	`"message":"sigtrap requires remove_on_exec","syscall":298,"attr_field":"sigtrap"}`

func TestParse(t *testing.T) {
	e, err := exterr.Parse([]byte(perfJSON))
	if err != nil {
		t.Fatal(err)
	}
	if e.Errno != syscall.EINVAL || e.Module != "perf" || e.File != "kernel/events/core.c" ||
		e.Line != 12593 || e.Syscall != 298 || e.Message != "sigtrap requires remove_on_exec" {
		t.Errorf("got %+v", e)
	}
	if e.JSON != perfJSON {
		t.Errorf("JSON = %q", e.JSON)
	}
	want := "Invalid argument: sigtrap requires remove_on_exec [perf attr_field=sigtrap] (kernel/events/core.c:12593)"
	if e.Error() != want {
		t.Errorf("Error() = %q, want %q", e.Error(), want)
	}
	if f, ok := e.Field("attr_field"); !ok || f.Value != "sigtrap" || f.Type != exterr.TypeString {
		t.Errorf("Field(attr_field) = %+v, %v", f, ok)
	}
	if _, ok := e.Field("nope"); ok {
		t.Error("Field(nope) found")
	}
}

func TestParseTrailingNUL(t *testing.T) {
	e, err := exterr.Parse(append([]byte(perfJSON), 0))
	if err != nil {
		t.Fatal(err)
	}
	if e.JSON != perfJSON {
		t.Errorf("JSON keeps the NUL: %q", e.JSON)
	}
	if _, err := exterr.Parse(append([]byte(perfJSON), 0, 0)); !errors.Is(err, exterr.ErrMalformed) {
		t.Errorf("two NULs: %v", err)
	}
}

func TestParseDoesNotAliasInput(t *testing.T) {
	buf := []byte(perfJSON)
	e, err := exterr.Parse(buf)
	if err != nil {
		t.Fatal(err)
	}
	copy(buf, bytes.Repeat([]byte("x"), len(buf)))
	if e.JSON != perfJSON || e.Module != "perf" {
		t.Error("result changed with the input buffer")
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name     string
		input    []byte
		sentinel error
		errno    syscall.Errno
		placed   bool // the failure has a position in the text
	}{
		{"nil", nil, exterr.ErrMalformed, syscall.EBADMSG, true},
		{"empty", []byte{}, exterr.ErrMalformed, syscall.EBADMSG, true},
		{"truncated", []byte(perfJSON[:40]), exterr.ErrMalformed, syscall.EBADMSG, true},
		{"raw NUL", []byte(`{"code":-1,` + "\x00" + `}`), exterr.ErrMalformed, syscall.EBADMSG, true},
		{"too deep", []byte(strings.Repeat("[", 33) + strings.Repeat("]", 33)), exterr.ErrMalformed, syscall.EBADMSG, true},
		// Since libexterr 1.1 schema errors have a place too: the root
		// value, the offending value, or the '}' where a missing key
		// belongs.
		{"array", []byte(`[]`), exterr.ErrSchema, syscall.EPROTO, true},
		{"code range", []byte(`{"code":0,"module":"a","file":"b","line":1,"message":"c"}`), exterr.ErrSchema, syscall.EPROTO, true},
		// Not zeros: a trailing NUL is dropped before the limit applies.
		{"too big", bytes.Repeat([]byte(" "), exterr.MaxJSON+1), exterr.ErrTooBig, syscall.E2BIG, false},
		{"too big plus NUL", append(bytes.Repeat([]byte(" "), exterr.MaxJSON+1), 0), exterr.ErrTooBig, syscall.E2BIG, false},
		{"limit plus NUL", append(bytes.Repeat([]byte(" "), exterr.MaxJSON), 0), exterr.ErrMalformed, syscall.EBADMSG, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := exterr.Parse(tt.input)
			if e != nil {
				t.Fatalf("parsed: %+v", e)
			}
			var pe *exterr.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("%T %v is not a *ParseError", err, err)
			}
			if !errors.Is(err, tt.sentinel) {
				t.Errorf("errors.Is(%v, %v) = false", err, tt.sentinel)
			}
			if !errors.Is(err, tt.errno) || pe.Errno != tt.errno {
				t.Errorf("errno %v, want %v", pe.Errno, tt.errno)
			}
			for _, other := range []error{exterr.ErrMalformed, exterr.ErrSchema, exterr.ErrTooBig} {
				if other != tt.sentinel && errors.Is(err, other) {
					t.Errorf("also matches %v", other)
				}
			}
			if pe.Reason == "" || !strings.Contains(err.Error(), pe.Class) {
				t.Errorf("unhelpful error %q", err)
			}
			if placed := pe.Offset >= 0; placed != tt.placed {
				t.Errorf("Offset %d (line %d, column %d), placed want %v",
					pe.Offset, pe.Line, pe.Column, tt.placed)
			}
			// jansson reports column 0 for an error before the first
			// character (empty input), and libexterr passes it on.
			if pe.Offset >= 0 && (pe.Line < 1 || pe.Column < 0 || pe.Offset > len(tt.input)) {
				t.Errorf("bad position %d:%d at %d", pe.Line, pe.Column, pe.Offset)
			}
		})
	}
}

func TestParseErrorOffset(t *testing.T) {
	in := []byte("{\"code\":-22,\n\"module\":\x00}")
	_, err := exterr.Parse(in)
	var pe *exterr.ParseError
	if !errors.As(err, &pe) {
		t.Fatal(err)
	}
	if pe.Offset != bytes.IndexByte(in, 0) || pe.Line != 2 || pe.Column != 10 {
		t.Errorf("position %d %d:%d", pe.Offset, pe.Line, pe.Column)
	}
	if !strings.Contains(pe.Error(), "offset 22 (line 2, column 10)") {
		t.Errorf("Error() = %q", pe.Error())
	}
}

// Sentinels must not match each other or plain errors with the same text.
func TestSentinels(t *testing.T) {
	if errors.Is(exterr.ErrMalformed, exterr.ErrSchema) {
		t.Error("ErrMalformed is ErrSchema")
	}
	if errors.Is(errors.New(exterr.ErrSchema.Error()), exterr.ErrSchema) {
		t.Error("text match")
	}
}

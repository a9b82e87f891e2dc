//go:build cgo

package exterr_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"exterr.dev/go/exterr"
)

// FuzzParse checks what must hold for any input: no crash, a *ParseError
// of a known class on failure, and on success an Error that is
// self-consistent and parses again to the same thing. The C parser is not
// coverage-instrumented; the fuzzer mainly explores the cgo boundary and
// the conversions.
func FuzzParse(f *testing.F) {
	for _, root := range []string{filepath.Join("testdata", "cases"), repoCases()} {
		for _, dir := range caseDirs(f, root) {
			if in, err := os.ReadFile(filepath.Join(dir, "input")); err == nil {
				f.Add(in)
			}
		}
	}
	f.Add([]byte(perfJSON))
	f.Add([]byte(`{"code":-1,"module":"\u00e9\n","file":"a","line":0,"message":"\ud83d\ude00","x":[{"y":1.5e300}]}`))

	f.Fuzz(func(t *testing.T, in []byte) {
		e, err := exterr.Parse(in)
		if err != nil {
			var pe *exterr.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("%T is not a *ParseError", err)
			}
			switch pe.Class {
			case "malformed", "schema", "too-big":
			default:
				t.Fatalf("class %q", pe.Class)
			}
			if pe.Offset > len(in) {
				t.Fatalf("offset %d past %d bytes", pe.Offset, len(in))
			}
			return
		}
		if e.Errno < 0 || e.Errno > 4095 || e.Line < 0 || e.Syscall < -1 {
			t.Fatalf("out of range: %+v", e)
		}
		// Errors have an errno; notes (code 0) have a severity.
		switch e.Severity {
		case exterr.SeverityError:
			if e.Errno == 0 {
				t.Fatalf("error without errno: %+v", e)
			}
		case exterr.SeverityInfo, exterr.SeverityWarning:
			if e.Errno != 0 {
				t.Fatalf("note with errno %d: %+v", e.Errno, e)
			}
		default:
			t.Fatalf("severity %v", e.Severity)
		}
		if e.ID != "" && !e.HasID() {
			t.Fatalf("id %q but HasID false", e.ID)
		}
		if !errors.Is(e, e.Errno) {
			t.Fatal("errno not reachable")
		}
		line := e.Error()
		if line == "" || strings.ContainsAny(line, "\n\r\x00") {
			t.Fatalf("bad line %q", line)
		}
		again, err := exterr.Parse([]byte(e.JSON))
		if err != nil {
			t.Fatalf("own JSON does not parse: %v", err)
		}
		if again.Error() != line || len(again.Fields) != len(e.Fields) ||
			again.ID != e.ID || again.HasID() != e.HasID() || again.Severity != e.Severity ||
			!slices.Equal(again.Values, e.Values) {
			t.Fatalf("reparse differs: %q vs %q", again.Error(), line)
		}
		for _, v := range e.Values {
			if got, ok := e.Value(v.Name); !ok || got.Name != v.Name {
				t.Fatalf("value %q not found", v.Name)
			}
			if !strings.Contains(line, "="+v.String()) {
				t.Fatalf("value %s=%s not in %q", v.Name, v, line)
			}
			// Every value fits one of the two, and its text says which.
			i, iok := v.Int64()
			u, uok := v.Uint64()
			switch {
			case iok && strconv.FormatInt(i, 10) == v.String():
			case uok && strconv.FormatUint(u, 10) == v.String():
			default:
				t.Fatalf("value %s: Int64 %d %v, Uint64 %d %v", v, i, iok, u, uok)
			}
			if v.Negative() != strings.HasPrefix(v.String(), "-") || v.Negative() == uok {
				t.Fatalf("value %s: Negative %v", v, v.Negative())
			}
		}
		for _, fl := range e.Fields {
			if _, ok := e.Field(fl.Name); !ok {
				t.Fatalf("field %q not found", fl.Name)
			}
			var v any
			if err := fl.Decode(&v); err != nil {
				t.Fatalf("field %+v: %v", fl, err)
			}
			if fl.Type == exterr.TypeInteger {
				if _, ok := fl.Int(); !ok {
					t.Fatalf("integer %q", fl.Value)
				}
			}
		}
	})
}

//go:build cgo

package exterr_test

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"syscall"
	"testing"

	"exterr.dev/go/exterr"
)

func TestErrorUnwrap(t *testing.T) {
	e, err := exterr.Parse([]byte(`{"code":-2,"module":"a","file":"b","line":1,"message":"c"}`))
	if err != nil {
		t.Fatal(err)
	}
	wrapped := fmt.Errorf("context: %w", e)
	if !errors.Is(wrapped, syscall.ENOENT) || !errors.Is(wrapped, fs.ErrNotExist) {
		t.Error("errno not reachable")
	}
	if errors.Is(wrapped, syscall.EINVAL) {
		t.Error("matches another errno")
	}
	var got *exterr.Error
	if !errors.As(wrapped, &got) || got != e {
		t.Error("errors.As")
	}
	if e.Unwrap() != syscall.ENOENT || e.Cause() != nil {
		t.Error("Unwrap/Cause")
	}
}

func TestErrorByHand(t *testing.T) {
	e := &exterr.Error{Errno: syscall.EPERM}
	if e.Error() != syscall.EPERM.Error() {
		t.Errorf("no JSON: %q", e.Error())
	}
	e.JSON = `{"code":-1,"module":"a","file":"b","line":1,"message":"c"}`
	if want := "Operation not permitted: c [a] (b:1)"; e.Error() != want {
		t.Errorf("from JSON: %q", e.Error())
	}
}

func TestFieldAccessors(t *testing.T) {
	e, err := exterr.Parse([]byte(`{"code":-22,"module":"m","file":"f","line":1,"message":"x",` +
		`"s":"a<b","i":-9223372036854775808,"r":0.1,"t":true,"f":false,"z":null,` +
		`"o":{"k":[1,"2"]},"a":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	get := func(name string) exterr.Field {
		f, ok := e.Field(name)
		if !ok {
			t.Fatalf("no field %s", name)
		}
		return f
	}
	if v, ok := get("s").Str(); !ok || v != "a<b" {
		t.Errorf("Str = %q %v", v, ok)
	}
	if string(get("s").Raw()) != `"a<b"` {
		t.Errorf("Raw = %s", get("s").Raw())
	}
	if _, ok := get("i").Str(); ok {
		t.Error("Str on an integer")
	}
	if v, ok := get("i").Int(); !ok || v != math.MinInt64 {
		t.Errorf("Int = %d %v", v, ok)
	}
	if v, ok := get("i").Float(); !ok || v != math.MinInt64 {
		t.Errorf("Float of integer = %v %v", v, ok)
	}
	if v, ok := get("r").Float(); !ok || v != 0.1 {
		t.Errorf("Float = %v %v (%q)", v, ok, get("r").Value)
	}
	if _, ok := get("r").Int(); ok {
		t.Error("Int on a real")
	}
	if v, ok := get("t").Bool(); !ok || !v {
		t.Error("Bool(true)")
	}
	if v, ok := get("f").Bool(); !ok || v {
		t.Error("Bool(false)")
	}
	if _, ok := get("z").Bool(); ok || get("z").Type != exterr.TypeNull {
		t.Error("null")
	}
	var o struct{ K []any }
	if err := get("o").Decode(&o); err != nil || len(o.K) != 2 || o.K[1] != "2" {
		t.Errorf("Decode = %+v, %v", o, err)
	}
	if f := get("a"); f.Type != exterr.TypeArray || f.Value != "[]" {
		t.Errorf("array %+v", f)
	}
}

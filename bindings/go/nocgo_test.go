//go:build !cgo

package exterr_test

import (
	"errors"
	"runtime"
	"syscall"
	"testing"

	"exterr.dev/go/exterr"
)

// Without cgo the tests of parsing, formatting and fetching (which all
// need libexterr) are not built; these check what takes their place.
// Do's tests and the identity tests build in both modes; with the real
// Fetch, TestDoHost and TestDoIdentityHost check that Do then returns its
// function's error as it is.

func TestNoCgoFetch(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()

	e, err := exterr.Fetch()
	if e != nil || err != exterr.ErrNoCgo {
		t.Fatalf("Fetch() = %v, %v; want ErrNoCgo", e, err)
	}
	for _, target := range []error{exterr.ErrNoCgo, exterr.ErrUnsupported, errors.ErrUnsupported} {
		if !errors.Is(err, target) {
			t.Errorf("errors.Is(ErrNoCgo, %q) is false", target)
		}
	}
	if errors.Is(exterr.ErrUnsupported, exterr.ErrNoCgo) {
		t.Error("a kernel without exterr is reported as a build without cgo")
	}
}

func TestNoCgoParse(t *testing.T) {
	e, err := exterr.Parse([]byte(`{"code":-22,"module":"m","file":"f","line":1,"message":"x"}`))
	if e != nil || err != exterr.ErrNoCgo {
		t.Fatalf("Parse() = %v, %v; want ErrNoCgo", e, err)
	}
	var pe *exterr.ParseError
	if errors.As(err, &pe) {
		t.Error("ErrNoCgo passes for a *ParseError: the input was never looked at")
	}
}

func TestNoCgoSupported(t *testing.T) {
	if exterr.Supported() {
		t.Error("Supported() = true without libexterr")
	}
}

// A hand-built Error still reads as its errno.
func TestNoCgoErrorText(t *testing.T) {
	e := &exterr.Error{Errno: syscall.EINVAL,
		JSON: `{"code":-22,"module":"m","file":"f","line":1,"message":"x"}`}
	if e.Error() != syscall.EINVAL.Error() || !errors.Is(e, syscall.EINVAL) {
		t.Errorf("Error() = %q", e.Error())
	}
}

func TestNoCgoFetchNotes(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()

	e, err := exterr.FetchNotes()
	if e != nil || err != exterr.ErrNoCgo || !errors.Is(err, exterr.ErrUnsupported) {
		t.Fatalf("FetchNotes() = %v, %v; want ErrNoCgo", e, err)
	}
}

// The members of libexterr 1.1 are plain data without cgo too.
func TestNoCgoErrorV2(t *testing.T) {
	e := &exterr.Error{ID: "a.b.c", Severity: exterr.SeverityWarning,
		Values: []exterr.Value{exterr.UintValue("max", 1<<64-1)}}
	if v, ok := e.Value("max"); !ok || v.String() != "18446744073709551615" || !e.HasID() {
		t.Errorf("Value = %v, %v; HasID %v", v, ok, e.HasID())
	}
}

package exterr_test

import (
	"math"
	"testing"

	"exterr.dev/go/exterr"
)

// Value and Severity are plain Go: these run without cgo too.

func TestValueByHand(t *testing.T) {
	for _, tt := range []struct {
		v    exterr.Value
		text string
	}{
		{exterr.IntValue("a", math.MinInt64), "-9223372036854775808"},
		{exterr.IntValue("a", 5), "5"},
		{exterr.UintValue("a", math.MaxUint64), "18446744073709551615"},
		{exterr.Value{Name: "a"}, "0"},
	} {
		if tt.v.String() != tt.text || tt.v.Name != "a" {
			t.Errorf("%#v: %s, want %s", tt.v, tt.v, tt.text)
		}
	}
	// The same number compares equal however it was made.
	if exterr.IntValue("a", 5) != exterr.UintValue("a", 5) || exterr.IntValue("a", 0) != (exterr.Value{Name: "a"}) {
		t.Error("IntValue and UintValue differ on the same number")
	}
	if u, ok := exterr.IntValue("a", -1).Uint64(); ok || u != 0 {
		t.Errorf("Uint64 of -1 = %d, %v", u, ok)
	}
	if i, ok := exterr.UintValue("a", 1<<63).Int64(); ok || i != 0 {
		t.Errorf("Int64 of 2^63 = %d, %v", i, ok)
	}
}

func TestSeverityString(t *testing.T) {
	for s, want := range map[exterr.Severity]string{
		exterr.SeverityError: "error", exterr.SeverityInfo: "info",
		exterr.SeverityWarning: "warning", 7: "Severity(7)",
	} {
		if s.String() != want {
			t.Errorf("%d.String() = %q, want %q", int(s), s.String(), want)
		}
	}
	var zero exterr.Severity
	if zero != exterr.SeverityError {
		t.Error("the zero Severity is not SeverityError")
	}
}

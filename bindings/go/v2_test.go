//go:build cgo

package exterr_test

import (
	"errors"
	"math"
	"runtime"
	"syscall"
	"testing"

	"exterr.dev/go/exterr"
)

// The members of libexterr 1.1 (docs/contract.md section 2, mechanism v2):
// id, severity (notes) and values.

func mustParse(t *testing.T, s string) *exterr.Error {
	t.Helper()
	e, err := exterr.Parse([]byte(s))
	if err != nil {
		t.Fatalf("Parse(%s): %v", s, err)
	}
	return e
}

func TestID(t *testing.T) {
	e := mustParse(t, `{"code":-22,"id":"perf.sample_freq.above_max_rate","module":"perf",`+
		`"file":"f","line":1,"message":"x","attr_field":"sample_freq"}`)
	if e.ID != "perf.sample_freq.above_max_rate" || !e.HasID() {
		t.Errorf("ID = %q, HasID %v", e.ID, e.HasID())
	}
	// The id is not a domain field.
	if len(e.Fields) != 1 || e.Fields[0].Name != "attr_field" {
		t.Errorf("Fields = %+v", e.Fields)
	}
	if _, ok := e.Field("id"); ok {
		t.Error(`Field("id") found`)
	}
	if e := mustParse(t, perfJSON); e.ID != "" || e.HasID() {
		t.Errorf("no id: ID = %q, HasID %v", e.ID, e.HasID())
	}
	if e := mustParse(t, `{"code":-1,"id":"","module":"m","file":"f","line":1,"message":"x"}`); e.ID != "" || !e.HasID() {
		t.Errorf(`"id":"": ID = %q, HasID %v`, e.ID, e.HasID())
	}
	if !(&exterr.Error{ID: "a.b.c"}).HasID() || (&exterr.Error{}).HasID() {
		t.Error("HasID of an Error built by hand")
	}
	for _, bad := range []string{`7`, `null`} {
		_, err := exterr.Parse([]byte(`{"code":-1,"id":` + bad + `,"module":"m","file":"f","line":1,"message":"x"}`))
		if !errors.Is(err, exterr.ErrSchema) {
			t.Errorf(`"id":%s: %v, want ErrSchema`, bad, err)
		}
	}
}

func TestValues(t *testing.T) {
	e := mustParse(t, `{"code":-22,"module":"m","file":"f","line":1,"message":"x",`+
		`"values":{"max":18446744073709551615,"min":-9223372036854775808,"zero":-0,`+
		`"above_int64":9223372036854775808,"int64_max":9223372036854775807,"minus_one":-1}}`)
	want := []struct {
		name     string
		text     string
		i        int64
		iok      bool
		u        uint64
		uok, neg bool
	}{
		{"max", "18446744073709551615", 0, false, math.MaxUint64, true, false},
		{"min", "-9223372036854775808", math.MinInt64, true, 0, false, true},
		{"zero", "0", 0, true, 0, true, false},
		{"above_int64", "9223372036854775808", 0, false, 1 << 63, true, false},
		{"int64_max", "9223372036854775807", math.MaxInt64, true, math.MaxInt64, true, false},
		{"minus_one", "-1", -1, true, 0, false, true},
	}
	if len(e.Values) != len(want) {
		t.Fatalf("Values = %v", e.Values)
	}
	for i, w := range want {
		v := e.Values[i] // document order
		if v.Name != w.name || v.String() != w.text {
			t.Errorf("Values[%d] = %s %s, want %s %s", i, v.Name, v, w.name, w.text)
		}
		if got, ok := v.Int64(); got != w.i || ok != w.iok {
			t.Errorf("%s: Int64() = %d, %v", w.name, got, ok)
		}
		if got, ok := v.Uint64(); got != w.u || ok != w.uok {
			t.Errorf("%s: Uint64() = %d, %v", w.name, got, ok)
		}
		if v.Negative() != w.neg {
			t.Errorf("%s: Negative() = %v", w.name, v.Negative())
		}
		if got, ok := e.Value(w.name); !ok || got != v {
			t.Errorf("Value(%q) = %v, %v", w.name, got, ok)
		}
	}
	if _, ok := e.Value("nope"); ok {
		t.Error(`Value("nope") found`)
	}
	// "values" is not a domain field, and a "values" key further down is
	// not the core key.
	if len(e.Fields) != 0 {
		t.Errorf("Fields = %+v", e.Fields)
	}
	e = mustParse(t, `{"code":-1,"module":"m","file":"f","line":1,"message":"x","o":{"values":{"a":1}}}`)
	if e.Values != nil || len(e.Fields) != 1 {
		t.Errorf("nested values: Values %v, Fields %+v", e.Values, e.Fields)
	}
	if e := mustParse(t, `{"code":-1,"module":"m","file":"f","line":1,"message":"x","values":{}}`); e.Values != nil {
		t.Errorf("empty values: %v", e.Values)
	}
	for _, bad := range []string{`{"a":18446744073709551616}`, `{"a":-9223372036854775809}`,
		`{"a":1.5}`, `{"a":"1"}`, `[1]`, `{"a":1,"a":2}`} {
		_, err := exterr.Parse([]byte(`{"code":-1,"module":"m","file":"f","line":1,"message":"x","values":` + bad + `}`))
		if !errors.Is(err, exterr.ErrSchema) {
			t.Errorf(`"values":%s: %v, want ErrSchema`, bad, err)
		}
	}
	// Above int64 only inside "values".
	_, err := exterr.Parse([]byte(`{"code":-1,"module":"m","file":"f","line":1,"message":"x","n":18446744073709551615}`))
	if !errors.Is(err, exterr.ErrSchema) {
		t.Errorf("uint64 domain key: %v, want ErrSchema", err)
	}
}

func TestNotes(t *testing.T) {
	const note = `{"code":0,"severity":"info","id":"v4l2.vivid.fmt.pixelformat_replaced","module":"vivid",` +
		`"file":"drivers/media/test-drivers/vivid/vivid-vid-cap.c","line":660,` +
		`"message":"pixelformat not supported, replaced by YUYV","syscall":16,` +
		`"values":{"requested":1482184792,"granted":1448695129},"field":"pixelformat"}`
	e := mustParse(t, note)
	if e.Severity != exterr.SeverityInfo || e.Errno != 0 || e.Syscall != 16 {
		t.Errorf("Severity %v, Errno %d, Syscall %d", e.Severity, e.Errno, e.Syscall)
	}
	for _, errno := range []syscall.Errno{syscall.EINVAL, syscall.EPERM} {
		if errors.Is(e, errno) {
			t.Errorf("a note matches %v", errno)
		}
	}
	want := "note: pixelformat not supported, replaced by YUYV [vivid field=pixelformat " +
		"requested=1482184792 granted=1448695129] (drivers/media/test-drivers/vivid/vivid-vid-cap.c:660)"
	if e.Error() != want {
		t.Errorf("Error() = %q\nwant %q", e.Error(), want)
	}
	// Formatted by hand from its JSON too.
	if got := (&exterr.Error{JSON: note}).Error(); got != want {
		t.Errorf("by hand: %q", got)
	}

	e = mustParse(t, `{"code":0,"severity":"warning","module":"m","file":"f","line":2,"message":"x"}`)
	if e.Severity != exterr.SeverityWarning || e.Error() != "warning: x [m] (f:2)" {
		t.Errorf("warning: %v %q", e.Severity, e.Error())
	}
	if e := mustParse(t, perfJSON); e.Severity != exterr.SeverityError {
		t.Errorf("error: Severity %v", e.Severity)
	}

	for _, bad := range []string{
		`{"code":0,"module":"m","file":"f","line":1,"message":"x"}`,                    // a note needs a severity
		`{"code":-1,"severity":"info","module":"m","file":"f","line":1,"message":"x"}`, // an error has none
		`{"code":0,"severity":"error","module":"m","file":"f","line":1,"message":"x"}`, // not a note's
		`{"code":0,"severity":1,"module":"m","file":"f","line":1,"message":"x"}`,       // not a string
	} {
		if _, err := exterr.Parse([]byte(bad)); !errors.Is(err, exterr.ErrSchema) {
			t.Errorf("%s: %v, want ErrSchema", bad, err)
		}
	}
}

// The human line: domain fields, then the values as name=decimal, names
// escaped like field names.
func TestFormatValues(t *testing.T) {
	e := mustParse(t, `{"code":-22,"id":"perf.sample_freq.above_max_rate","module":"perf",`+
		`"file":"kernel/events/core.c","line":13134,"message":"sample_freq above kernel.perf_event_max_sample_rate",`+
		`"syscall":298,"values":{"sample_freq":1099511627776,"limit":100000,"max":18446744073709551615,`+
		`"min":-9223372036854775808,"a\"b\u0001":7},"attr_field":"sample_freq"}`)
	want := `Invalid argument: sample_freq above kernel.perf_event_max_sample_rate [perf attr_field=sample_freq ` +
		`sample_freq=1099511627776 limit=100000 max=18446744073709551615 min=-9223372036854775808 a"b\x01=7] ` +
		`(kernel/events/core.c:13134)`
	if e.Error() != want {
		t.Errorf("Error() = %q\nwant %q", e.Error(), want)
	}
	if v, ok := e.Value("a\"b\x01"); !ok || v.String() != "7" {
		t.Errorf("escaped name: %v %v", v, ok)
	}
}

// On the host kernel (no exterr, or nothing pending) FetchNotes answers as
// Fetch does; cmd/exterr-guest-test and libexterr's own tests cover notes
// from a kernel.
func TestFetchNotes(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()

	e, err := exterr.FetchNotes()
	if !kernelHasExterr() {
		if e != nil || !errors.Is(err, exterr.ErrUnsupported) || !errors.Is(err, errors.ErrUnsupported) {
			t.Fatalf("FetchNotes() = %v, %v; want ErrUnsupported", e, err)
		}
		if err != exterr.ErrUnsupported {
			t.Errorf("FetchNotes() error %v is not ErrUnsupported itself, as Fetch's", err)
		}
		return
	}
	if err != nil {
		t.Fatalf("FetchNotes() = %v", err)
	}
	if e, err := exterr.FetchNotes(); e != nil || err != nil {
		t.Errorf("second FetchNotes() = %v, %v; want nil, nil", e, err)
	}
	if e, err := exterr.Fetch(); e != nil || err != nil {
		t.Errorf("Fetch() after FetchNotes() = %v, %v; want nil, nil", e, err)
	}
}

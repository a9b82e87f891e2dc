//go:build cgo

package exterr

import "testing"

// An older libexterr returns a smaller struct exterr: the members it lacks
// must read as absent (no id, an error, no values), never as whatever lies
// past its end. parseAs cuts the size of a real result the way each older
// version would have it.
func TestOlderLibrary(t *testing.T) {
	const in = `{"code":-22,"id":"a.b.c","module":"m","file":"f","line":1,"message":"x",` +
		`"values":{"max":18446744073709551615}}`
	full, err := parseAs([]byte(in), "")
	if err != nil {
		t.Fatal(err)
	}
	if full.ID != "a.b.c" || len(full.Values) != 1 {
		t.Fatalf("full struct: %+v", full)
	}
	for _, tt := range []struct {
		last   string
		id     bool
		values bool
	}{
		{"json_len", false, false}, // 1.0
		{"id", true, false},
		{"severity", true, false},
		{"nr_values", true, false}, // values itself missing
	} {
		e, err := parseAs([]byte(in), tt.last)
		if err != nil {
			t.Fatal(err)
		}
		if e.HasID() != tt.id || (e.ID == "a.b.c") != tt.id {
			t.Errorf("ending at %s: ID %q, HasID %v", tt.last, e.ID, e.HasID())
		}
		if (e.Values != nil) != tt.values {
			t.Errorf("ending at %s: Values %v", tt.last, e.Values)
		}
		if e.Severity != SeverityError || e.Message != "x" || e.JSON != in {
			t.Errorf("ending at %s: %+v", tt.last, e)
		}
		// libexterr formats only what its struct has, too.
		if want := "Invalid argument: x [m] (f:1)"; e.Error() != want {
			t.Errorf("ending at %s: Error() = %q", tt.last, e.Error())
		}
	}

	note := `{"code":0,"severity":"warning","module":"m","file":"f","line":1,"message":"x"}`
	if e, err := parseAs([]byte(note), "id"); err != nil || e.Severity != SeverityError {
		t.Errorf("note without severity member: %+v, %v", e, err)
	}
	if e, err := parseAs([]byte(note), "severity"); err != nil || e.Severity != SeverityWarning {
		t.Errorf("note with severity member: %+v, %v", e, err)
	}
}

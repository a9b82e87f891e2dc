package exterr

import "strconv"

// Severity says whether a description is about an error or is a note: a
// description of a call that succeeded (the JSON "severity", libexterr's
// enum exterr_severity, whose values these are). Only [FetchNotes]
// returns notes; [Parse] returns whatever it is given.
type Severity int

const (
	// SeverityError is a failed call's description (the JSON has no
	// "severity" and a "code" below 0). It is the zero Severity.
	SeverityError Severity = iota
	// SeverityInfo is a note ("severity":"info"): what the kernel did
	// with a successful call's request.
	SeverityInfo
	// SeverityWarning is a note ("severity":"warning") that deserves
	// attention.
	SeverityWarning
)

// String returns "error", "info" or "warning", as the conformance suite
// spells them, and "Severity(N)" for any other value.
func (s Severity) String() string {
	switch s {
	case SeverityError:
		return "error"
	case SeverityInfo:
		return "info"
	case SeverityWarning:
		return "warning"
	}
	return "Severity(" + strconv.Itoa(int(s)) + ")"
}

// Value is one runtime value of a description: a member of the JSON
// "values" object, such as perf's "limit". It is an integer anywhere from
// -2^63 ([math.MinInt64]) to 2^64-1 ([math.MaxUint64]), a range neither
// int64 nor uint64 covers alone, so Value holds it exactly and hands it out
// through [Value.Int64] and [Value.Uint64], which say whether it fits:
// every value fits at least one of them, and a value from 0 to 2^63-1
// fits both.
//
// The zero Value is 0 with an empty name. A Value built by hand comes from
// [IntValue] or [UintValue]; Values compare with ==.
type Value struct {
	// Name is the member's key in "values".
	Name string

	neg  bool   // the value is below 0
	bits uint64 // the value when !neg, its two's complement when neg
}

// IntValue returns the Value called name holding v.
func IntValue(name string, v int64) Value {
	return Value{Name: name, neg: v < 0, bits: uint64(v)}
}

// UintValue returns the Value called name holding v.
func UintValue(name string, v uint64) Value {
	return Value{Name: name, bits: v}
}

// Int64 returns the value and true when it fits an int64 (it is at most
// 2^63-1), or 0 and false when it does not; [Value.Uint64] then has it.
func (v Value) Int64() (int64, bool) {
	if !v.neg && v.bits > 1<<63-1 {
		return 0, false
	}
	return int64(v.bits), true
}

// Uint64 returns the value and true when it fits a uint64 (it is not
// negative), or 0 and false when it is negative; [Value.Int64] then has
// it.
func (v Value) Uint64() (uint64, bool) {
	if v.neg {
		return 0, false
	}
	return v.bits, true
}

// Negative reports whether the value is below 0.
func (v Value) Negative() bool {
	return v.neg
}

// String returns the value (not its name) in decimal, exactly: "-1",
// "18446744073709551615". It is the text the conformance suite and
// libexterr's exterr_format() print.
func (v Value) String() string {
	if v.neg {
		return strconv.FormatInt(int64(v.bits), 10)
	}
	return strconv.FormatUint(v.bits, 10)
}

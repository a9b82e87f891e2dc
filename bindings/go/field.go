package exterr

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// Type names of a [Field], as docs/contract.md and libexterr's
// exterr_field_type_name() spell them.
const (
	TypeString  = "string"
	TypeInteger = "integer"
	TypeReal    = "real"
	TypeBoolean = "boolean" // true or false
	TypeNull    = "null"
	TypeObject  = "object"
	TypeArray   = "array"
)

// Field is one subsystem-specific key of a description, such as perf's
// "attr_field".
//
// Field is plain data: the typed accessors work from Type and Value alone,
// so a Field built by hand behaves like a parsed one.
type Field struct {
	// Name is the JSON key.
	Name string
	// Type is one of the Type constants, e.g. [TypeString].
	Type string
	// Value is the text form of docs/contract.md section 3: the decoded
	// string, decimal for integers, %.17g for reals, true, false or
	// null, and compact JSON for objects and arrays.
	Value string
}

// Int returns the value of an integer field; ok is false for other types.
func (f Field) Int() (v int64, ok bool) {
	if f.Type != TypeInteger {
		return 0, false
	}
	v, err := strconv.ParseInt(f.Value, 10, 64)
	return v, err == nil
}

// Float returns the value of a real or integer field; ok is false for
// other types. Reals are exact: %.17g round-trips a float64.
func (f Field) Float() (v float64, ok bool) {
	if f.Type != TypeReal && f.Type != TypeInteger {
		return 0, false
	}
	v, err := strconv.ParseFloat(f.Value, 64)
	return v, err == nil
}

// Bool returns the value of a boolean field; ok is false for other types.
func (f Field) Bool() (v, ok bool) {
	if f.Type != TypeBoolean {
		return false, false
	}
	return f.Value == "true", f.Value == "true" || f.Value == "false"
}

// Str returns the value of a string field; ok is false for other types,
// whose Value is a text form rather than the value itself.
func (f Field) Str() (v string, ok bool) {
	return f.Value, f.Type == TypeString
}

// Raw returns the value as JSON text: Value itself for every type but
// strings, which are quoted. It is what to hand to a JSON decoder for
// objects and arrays.
func (f Field) Raw() json.RawMessage {
	if f.Type != TypeString {
		return json.RawMessage(f.Value)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	// Values are for programs, not HTML; keep <, > and & readable.
	enc.SetEscapeHTML(false)
	_ = enc.Encode(f.Value) // a Go string always encodes
	return json.RawMessage(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
}

// Decode unmarshals the value into v with encoding/json, e.g. an object
// field into a struct or map.
func (f Field) Decode(v any) error {
	return json.Unmarshal(f.Raw(), v)
}

// Package canonical builds the conformance suite's canonical object
// (docs/contract.md section 5) from the binding's public API only, as any
// user of the binding could. conformance_test.go and cmd/exterr-describe
// (which conformance/run compares with the other implementations) share it.
package canonical

import (
	"errors"
	"fmt"

	"exterr.dev/go/exterr"
)

// reject is the section 5 object of a rejection: its class, where it is
// (null when it has no place: Offset -1, Line and Column 0), and whether a
// reason was given; the reason's English words are not compared.
func reject(pe *exterr.ParseError) map[string]any {
	var position, line, column any // null when it has no place
	if pe.Offset >= 0 {
		position = pe.Offset
	}
	if pe.Line > 0 {
		line = pe.Line
	}
	if pe.Column > 0 {
		column = pe.Column
	}
	return map[string]any{
		"result":     "reject",
		"class":      pe.Class,
		"position":   position,
		"line":       line,
		"column":     column,
		"has-reason": pe.Reason != "",
	}
}

// Object parses input with [exterr.Parse] and returns the section 5
// object: {"result": "ok", ...} for a parsed description, {"result":
// "reject", "class": ...} for a *ParseError. Any other failure of Parse is
// a bug in the binding and is returned as an error.
func Object(input []byte) (map[string]any, error) {
	e, err := exterr.Parse(input)
	if err != nil {
		var pe *exterr.ParseError
		if !errors.As(err, &pe) {
			return nil, fmt.Errorf("exterr.Parse failed with %T, not *ParseError: %v", err, err)
		}
		return reject(pe), nil
	}
	fields := []map[string]any{}
	for _, f := range e.Fields {
		fields = append(fields, map[string]any{
			"name": f.Name, "type": f.Type, "value": f.Value,
		})
	}
	// Each value as a decimal string, as the suite has it: as a JSON
	// number, 2^64-1 would be rounded by most readers (encoding/json
	// decoding into any included).
	values := []map[string]any{}
	for _, v := range e.Values {
		values = append(values, map[string]any{"name": v.Name, "value": v.String()})
	}
	var id any // null when absent
	if e.HasID() {
		id = e.ID
	}
	return map[string]any{
		"result":   "ok",
		"error":    int(e.Errno),
		"module":   e.Module,
		"message":  e.Message,
		"file":     e.File,
		"line":     e.Line,
		"syscall":  e.Syscall,
		"fields":   fields,
		"id":       id,
		"severity": e.Severity.String(),
		"values":   values,
		"format":   e.Error(),
	}, nil
}

// Command exterr-describe prints, for each FILE, the conformance suite's
// canonical object (docs/contract.md section 5) built through this binding.
//
//	exterr-describe FILE...
//
// Each FILE's bytes go to [exterr.Parse] as they are; the result is one
// line of JSON per FILE, in order: the same command line and output as
// conformance/c/describe.c, which conformance/run compares it with. Only
// the binding's public API is used, through internal/canonical (the
// canonicalisation conformance_test.go uses too).
//
// Exit status 0 when a result (ok or reject) was printed for every FILE, 1
// otherwise: a FILE that cannot be read, or whose result holds text that is
// not UTF-8 (encoding/json would silently replace it), gets the line
// {"describe-error": "..."} and a message on stderr.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"unicode/utf8"

	canon "exterr.dev/go/exterr/internal/canonical"
)

// canonical is the section 5 object for input (internal/canonical, which
// conformance_test.go uses too), refused when it holds text that is not
// UTF-8: encoding/json would silently replace it.
func canonical(input []byte) (map[string]any, error) {
	obj, err := canon.Object(input)
	if err != nil {
		return nil, err
	}
	if obj["result"] != "ok" {
		return obj, nil
	}
	texts := []string{obj["module"].(string), obj["message"].(string),
		obj["file"].(string), obj["format"].(string)}
	for _, f := range obj["fields"].([]map[string]any) {
		texts = append(texts, f["name"].(string), f["type"].(string), f["value"].(string))
	}
	if id, ok := obj["id"].(string); ok {
		texts = append(texts, id)
	}
	for _, v := range obj["values"].([]map[string]any) {
		texts = append(texts, v["name"].(string))
	}
	for _, s := range texts {
		if !utf8.ValidString(s) {
			return nil, fmt.Errorf("the binding returned text that is not UTF-8: %q", s)
		}
	}
	return obj, nil
}

// line is the output line for one file, without its newline.
func line(path string) ([]byte, error) {
	input, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	obj, err := canonical(input)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(obj); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: exterr-describe FILE...")
		os.Exit(1)
	}
	status := 0
	out := bufio.NewWriter(os.Stdout)
	for _, path := range os.Args[1:] {
		text, err := line(path)
		if err != nil {
			fmt.Fprintf(os.Stderr, "exterr-describe: %s: %v\n", path, err)
			text, _ = json.Marshal(map[string]string{"describe-error": err.Error()})
			status = 1
		}
		out.Write(text)
		out.WriteByte('\n')
	}
	if err := out.Flush(); err != nil {
		fmt.Fprintf(os.Stderr, "exterr-describe: cannot write the result: %v\n", err)
		os.Exit(1)
	}
	os.Exit(status)
}

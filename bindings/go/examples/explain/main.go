// Command explain prints what the exterr binding makes of a description.
//
//	explain '{"code":-22,"module":"perf",...}'   parse the JSON argument
//	explain < description.json                   parse standard input
//
// It also says whether the running kernel can hand out descriptions.
package main

import (
	"fmt"
	"io"
	"os"

	"exterr.dev/go/exterr"
)

func main() {
	// Supported only asks: a Fetch here would take away a description
	// pending on this thread, and needs the thread locked to mean
	// anything.
	if exterr.Supported() {
		fmt.Println("kernel: exterr available")
	} else {
		fmt.Println("kernel: no exterr (PR_GET_ERR_DESC unsupported, or built without cgo)")
	}

	var input []byte
	var err error
	if len(os.Args) > 1 {
		input = []byte(os.Args[1])
	} else {
		input, err = io.ReadAll(os.Stdin)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}

	desc, err := exterr.Parse(input)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(desc)
	if desc.HasID() {
		fmt.Printf("  id: %s\n", desc.ID)
	}
	if desc.Severity != exterr.SeverityError {
		fmt.Printf("  a note, severity %s\n", desc.Severity)
	}
	for _, f := range desc.Fields {
		fmt.Printf("  %s: %s %s\n", f.Name, f.Type, f.Value)
	}
	for _, v := range desc.Values {
		fmt.Printf("  value %s = %s\n", v.Name, v)
	}
}

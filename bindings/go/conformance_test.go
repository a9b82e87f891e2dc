//go:build cgo

package exterr_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"exterr.dev/go/exterr/internal/canonical"
)

// repoCases is conformance/cases relative to this package: go test runs
// in the package directory, so this finds the suite in any checkout.
// EXTERR_CONFORMANCE_CASES overrides it.
func repoCases() string {
	if dir := os.Getenv("EXTERR_CONFORMANCE_CASES"); dir != "" {
		return dir
	}
	return filepath.Join("..", "..", "conformance", "cases")
}

// caseDirs lists the case folders under root, discovered at run time so
// cases added later need no change here.
func caseDirs(t testing.TB, root string) []string {
	entries, err := os.ReadDir(root)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, e := range entries {
		if e.IsDir() {
			dirs = append(dirs, filepath.Join(root, e.Name()))
		}
	}
	return dirs
}

func TestConformance(t *testing.T) {
	t.Run("local", func(t *testing.T) {
		runCases(t, caseDirs(t, filepath.Join("testdata", "cases")))
	})
	t.Run("repo", func(t *testing.T) {
		dirs := caseDirs(t, repoCases())
		if len(dirs) == 0 {
			t.Skipf("no conformance cases in %s yet", repoCases())
		}
		runCases(t, dirs)
	})
}

func runCases(t *testing.T, dirs []string) {
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			input, err := os.ReadFile(filepath.Join(dir, "input"))
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join(dir, "expected.json"))
			if err != nil {
				t.Fatal(err)
			}
			// The object of contract section 5, from the public API only:
			// internal/canonical, shared with cmd/exterr-describe.
			obj, err := canonical.Object(input)
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.Marshal(obj)
			if err != nil {
				t.Fatal(err)
			}
			if !jsonEqual(t, got, want) {
				t.Errorf("input %s\n got: %s\nwant: %s", clip(input), clip(got),
					clip(bytes.TrimSpace(want)))
			}
		})
	}
}

// clip keeps failure messages readable for the 64 KiB cases.
func clip(b []byte) string {
	const max = 300
	if len(b) <= max {
		return fmt.Sprintf("%q", b)
	}
	return fmt.Sprintf("%q...(%d bytes)...%q", b[:max/2], len(b), b[len(b)-max/2:])
}

// jsonEqual compares two JSON texts as values, so key order and spacing
// in expected.json do not matter.
func jsonEqual(t *testing.T, a, b []byte) bool {
	var va, vb any
	if err := json.Unmarshal(a, &va); err != nil {
		t.Fatalf("got: %v", err)
	}
	if err := json.Unmarshal(b, &vb); err != nil {
		t.Fatalf("expected.json: %v", err)
	}
	return reflect.DeepEqual(va, vb)
}

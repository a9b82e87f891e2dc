package exterr

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"runtime"
	"syscall"
	"testing"
)

// fakeKernel stands in for Fetch: the host kernel has no exterr.
type fakeKernel struct {
	pending *Error // what the next fetch returns
	err     error  // or this
	fetches int
	tids    []int
}

func (k *fakeKernel) fetch() (*Error, error) {
	k.fetches++
	k.tids = append(k.tids, syscall.Gettid())
	if k.err != nil {
		return nil, k.err
	}
	e := k.pending
	k.pending = nil
	return e, nil
}

func useFake(t *testing.T, k *fakeKernel) {
	old := fetch
	fetch = k.fetch
	t.Cleanup(func() { fetch = old })
}

func mustParse(t *testing.T, s string) *Error {
	e, err := Parse([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

const einvalJSON = `{"code":-22,"module":"perf","file":"f.c","line":1,"message":"bad","attr_field":"sigtrap"}`

func TestDoWrapsMatchingDescription(t *testing.T) {
	k := &fakeKernel{}
	useFake(t, k)
	pathErr := &fs.PathError{Op: "open", Path: "/x", Err: syscall.EINVAL}
	err := Do(func() error {
		// Recorded while fn runs, after Do's initial drain.
		k.pending = mustParse(t, einvalJSON)
		return pathErr
	})
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("got %T %v", err, err)
	}
	if e.Cause() != pathErr || !errors.Is(err, syscall.EINVAL) {
		t.Error("cause or errno lost")
	}
	var pe *fs.PathError
	if !errors.As(err, &pe) || pe != pathErr {
		t.Error("errors.As does not reach fn's error")
	}
	if !errors.Is(err, pathErr) {
		t.Error("errors.Is does not reach fn's error")
	}
	if k.fetches != 2 {
		t.Errorf("%d fetches, want a drain and a fetch", k.fetches)
	}
}

func TestDoDrainsStaleDescription(t *testing.T) {
	k := &fakeKernel{pending: mustParse(t, einvalJSON)}
	useFake(t, k)
	err := Do(func() error { return syscall.EINVAL })
	if err != syscall.EINVAL {
		t.Errorf("stale description used: %v", err)
	}
}

func TestDoLeavesErrorAlone(t *testing.T) {
	other := errors.New("not a syscall error")
	tests := []struct {
		name    string
		pending string
		fnErr   error
	}{
		{"success", einvalJSON, nil},
		{"no errno", einvalJSON, other},
		{"errno mismatch", einvalJSON, syscall.EPERM},
		{"nothing pending", "", syscall.EINVAL},
		{"errno 0", einvalJSON, syscall.Errno(0)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k := &fakeKernel{}
			useFake(t, k)
			err := Do(func() error {
				if tt.pending != "" {
					k.pending = mustParse(t, tt.pending)
				}
				return tt.fnErr
			})
			if err != tt.fnErr {
				t.Errorf("Do() = %v, want %v unchanged", err, tt.fnErr)
			}
		})
	}
}

func TestDoFetchFailure(t *testing.T) {
	for _, ferr := range []error{ErrUnsupported, os.NewSyscallError("prctl", syscall.ENOMEM)} {
		k := &fakeKernel{err: ferr}
		useFake(t, k)
		wrapped := fmt.Errorf("wrapped: %w", syscall.EINVAL)
		if err := Do(func() error { return wrapped }); err != wrapped {
			t.Errorf("%v: Do() = %v", ferr, err)
		}
	}
}

// The fetch must happen on the thread fn ran on, however much fn yields.
func TestDoSameThread(t *testing.T) {
	k := &fakeKernel{}
	useFake(t, k)
	var tid int
	_ = Do(func() error {
		for i := 0; i < 100; i++ {
			runtime.Gosched()
			_ = make([]byte, 1<<16)
		}
		runtime.GC()
		tid = syscall.Gettid()
		return syscall.EINVAL
	})
	for _, got := range k.tids {
		if got != tid {
			t.Fatalf("fetched on thread %d, fn ran on %d", got, tid)
		}
	}
}

// With the real kernel of this host (no exterr, or exterr with nothing
// recorded for a plain errno), Do hands fn's error back.
func TestDoHost(t *testing.T) {
	err := Do(func() error { return syscall.EBADF })
	if err != syscall.EBADF {
		t.Errorf("Do() = %v", err)
	}
	if err := Do(func() error { return nil }); err != nil {
		t.Errorf("Do() = %v", err)
	}
}

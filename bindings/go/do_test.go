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

// fakeDesc is a description the fake kernel can hand out, built by hand
// rather than parsed so that Do's tests run in a build without cgo too.
// JSON agrees with the fields, so Error() gives the kernel's line where
// libexterr is linked.
func fakeDesc(errno syscall.Errno) *Error {
	return &Error{
		Errno:   errno,
		Message: "faked for a test",
		Module:  "test",
		File:    "test.c",
		Line:    1,
		Syscall: -1,
		JSON: fmt.Sprintf(`{"code":%d,"module":"test","file":"test.c","line":1,`+
			`"message":"faked for a test"}`, -int(errno)),
	}
}

func TestDoWrapsMatchingDescription(t *testing.T) {
	k := &fakeKernel{}
	useFake(t, k)
	pathErr := &fs.PathError{Op: "open", Path: "/x", Err: syscall.EINVAL}
	want := fakeDesc(syscall.EINVAL)
	err := Do(func() error {
		// Recorded while fn runs, after Do's initial drain.
		k.pending = want
		return pathErr
	})
	var e *Error
	if !errors.As(err, &e) || e != want {
		t.Fatalf("got %T %v, want the description", err, err)
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
	// The extracted description answers like Do's result too.
	if !errors.As(e, &pe) || pe != pathErr || !errors.Is(e, pathErr) {
		t.Error("the *Error does not reach fn's error")
	}
	if k.fetches != 2 {
		t.Errorf("%d fetches, want a drain and a fetch", k.fetches)
	}
}

func TestDoDrainsStaleDescription(t *testing.T) {
	k := &fakeKernel{pending: fakeDesc(syscall.EINVAL)}
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
		pending *Error
		fnErr   error
	}{
		{"success", fakeDesc(syscall.EINVAL), nil},
		{"no errno", fakeDesc(syscall.EINVAL), other},
		{"errno mismatch", fakeDesc(syscall.EINVAL), syscall.EPERM},
		{"nothing pending", nil, syscall.EINVAL},
		{"errno 0", fakeDesc(syscall.EINVAL), syscall.Errno(0)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k := &fakeKernel{}
			useFake(t, k)
			err := Do(func() error {
				k.pending = tt.pending
				return tt.fnErr
			})
			if err != tt.fnErr {
				t.Errorf("Do() = %v, want %v unchanged", err, tt.fnErr)
			}
		})
	}
}

func TestDoFetchFailure(t *testing.T) {
	for _, ferr := range []error{ErrUnsupported, ErrNoCgo, os.NewSyscallError("prctl", syscall.ENOMEM)} {
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

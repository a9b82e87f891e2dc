package exterr

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// Code written before Do wrapped its function's error must not notice the
// wrapping: these tests compare everything such code can ask of an error
// through errors.Is, errors.As and Error() between fn's error and Do's
// result, for each errno with a faked description, and require the very
// same value back when there is no description.

// identityErrnos are the errnos issue 19 asks about, each with what
// errors.Is and errors.As must find for it, so that the comparison cannot
// pass by both sides being wrong.
var identityErrnos = []struct {
	name    string
	errno   syscall.Errno
	is      []error // sentinels that must match
	timeout bool    // errors.As finds a Timeout() that reports true
}{
	{"ENOENT", syscall.ENOENT, []error{fs.ErrNotExist, os.ErrNotExist}, false},
	{"EINVAL", syscall.EINVAL, nil, false},
	{"EACCES", syscall.EACCES, []error{fs.ErrPermission, os.ErrPermission}, false},
	{"EAGAIN", syscall.EAGAIN, nil, true},
}

// sentinels are the targets errors.Is is asked about for every error.
var sentinels = []error{
	syscall.ENOENT, syscall.EINVAL, syscall.EACCES, syscall.EAGAIN, syscall.EPERM,
	fs.ErrNotExist, fs.ErrPermission, fs.ErrExist, os.ErrDeadlineExceeded,
	errors.ErrUnsupported, ErrUnsupported, ErrNoCgo,
}

type shape struct {
	name string
	err  error
}

// shapes are the forms in which existing code gets a failed call's
// errno: bare, in each of the os package's error types, and wrapped
// further by the program.
func shapes(errno syscall.Errno) []shape {
	pathErr := &os.PathError{Op: "open", Path: "/nonexistent/config", Err: errno}
	return []shape{
		{"Errno", errno},
		{"PathError", pathErr},
		{"SyscallError", os.NewSyscallError("perf_event_open", errno)},
		{"LinkError", &os.LinkError{Op: "rename", Old: "a", New: "b", Err: errno}},
		{"wrapped PathError", fmt.Errorf("loading config: %w", pathErr)},
		{"wrapped SyscallError", fmt.Errorf("counter: %w", os.NewSyscallError("perf_event_open", errno))},
		{"joined", errors.Join(errors.New("cleanup failed"), pathErr)},
	}
}

// observe lists what code can learn about err without knowing of exterr.
// Two errors with equal lists are indistinguishable to it; pointers are
// printed so that errors.As must find the very same *os.PathError.
func observe(err error) []string {
	var obs []string
	add := func(format string, args ...any) { obs = append(obs, fmt.Sprintf(format, args...)) }
	add("Error() %q", err.Error())
	add("%%v %v", err)
	add("%%+v %+v", err)
	add("%%q %q", err)
	for _, s := range sentinels {
		add("errors.Is(%q) %v", s, errors.Is(err, s))
	}
	var pathErr *os.PathError
	ok := errors.As(err, &pathErr)
	add("errors.As(*os.PathError) %v %p", ok, pathErr)
	var sysErr *os.SyscallError
	ok = errors.As(err, &sysErr)
	add("errors.As(*os.SyscallError) %v %p", ok, sysErr)
	var linkErr *os.LinkError
	ok = errors.As(err, &linkErr)
	add("errors.As(*os.LinkError) %v %p", ok, linkErr)
	var errno syscall.Errno
	ok = errors.As(err, &errno)
	add("errors.As(syscall.Errno) %v %d", ok, errno)
	var timeout interface{ Timeout() bool }
	ok = errors.As(err, &timeout)
	add("errors.As(Timeout) %v %v", ok, ok && timeout.Timeout())
	var temporary interface{ Temporary() bool }
	ok = errors.As(err, &temporary)
	add("errors.As(Temporary) %v %v", ok, ok && temporary.Temporary())
	return obs
}

// sameObservations fails t where got and want differ in what observe
// sees.
func sameObservations(t *testing.T, what string, got, want error) {
	t.Helper()
	g, w := observe(got), observe(want)
	for i := range w {
		if g[i] != w[i] {
			t.Errorf("%s: Do's result: %s\n\tfn's error:  %s", what, g[i], w[i])
		}
	}
}

func TestDoIdentity(t *testing.T) {
	for _, c := range identityErrnos {
		t.Run(c.name, func(t *testing.T) {
			for _, sh := range shapes(c.errno) {
				t.Run(sh.name, func(t *testing.T) {
					got := testDescribed(t, c.errno, sh.err)
					if got == nil {
						return
					}
					// Whatever the shape, the errno's own meaning must
					// survive: checked outright, not only compared with
					// fn's error, so that a shape that lost it shows too.
					for _, s := range append([]error{c.errno}, c.is...) {
						if !errors.Is(got, s) {
							t.Errorf("errors.Is(err, %q) is false", s)
						}
					}
					var timeout interface{ Timeout() bool }
					if ok := errors.As(got, &timeout) && timeout.Timeout(); ok != c.timeout {
						t.Errorf("Timeout() %v, want %v", ok, c.timeout)
					}
					var errno syscall.Errno
					if !errors.As(got, &errno) || errno != c.errno {
						t.Errorf("errors.As(syscall.Errno) = %v", errno)
					}
					testUndescribed(t, c.errno, sh.err)
				})
			}
		})
	}
}

// testDescribed checks Do's result on a kernel that described the
// failure: fn's error as far as errors.Is, errors.As and Error() can
// tell, and the description found by errors.As. It returns Do's result,
// or nil when that is not even a described error.
func testDescribed(t *testing.T, errno syscall.Errno, orig error) error {
	k := &fakeKernel{}
	useFake(t, k)
	want := fakeDesc(errno)
	got := Do(func() error {
		k.pending = want
		return orig
	})

	var desc *Error
	if !errors.As(got, &desc) || desc != want {
		t.Errorf("errors.As(err, *Error) = %v, %v; want the description", desc, got)
		return nil
	}
	if desc.Errno != errno || desc.Cause() != orig {
		t.Errorf("description %v, cause %v", desc.Errno, desc.Cause())
	}
	sameObservations(t, "as returned", got, orig)
	if got.Error() != orig.Error() {
		t.Errorf("Error() = %q, want fn's %q unchanged", got.Error(), orig.Error())
	}
	if !errors.Is(got, orig) {
		t.Error("errors.Is(err, fn's error) is false")
	}
	if errors.Unwrap(got) != orig {
		t.Errorf("errors.Unwrap(err) = %#v, want fn's error", errors.Unwrap(got))
	}

	// Wrapped again by the program, as errors usually are on the way up.
	outer := fmt.Errorf("starting: %w", got)
	sameObservations(t, "wrapped again", outer, fmt.Errorf("starting: %w", orig))
	desc = nil
	if !errors.As(outer, &desc) || desc != want {
		t.Error("the description is not found through a further wrap")
	}
	return got
}

// testUndescribed checks that Do hands back fn's error itself when there
// is no description to add.
func testUndescribed(t *testing.T, errno syscall.Errno, orig error) {
	other := syscall.EPERM
	if errno == other {
		other = syscall.EINVAL
	}
	tests := []struct {
		name    string
		err     error  // what both fetches fail with
		pending *Error // what the kernel records while fn runs
	}{
		{"kernel without exterr", ErrUnsupported, nil},
		{"build without cgo", ErrNoCgo, nil},
		{"nothing pending", nil, nil},
		{"another errno pending", nil, fakeDesc(other)},
	}
	for _, tt := range tests {
		k := &fakeKernel{err: tt.err}
		useFake(t, k)
		got := Do(func() error {
			k.pending = tt.pending
			return orig
		})
		if got != orig {
			t.Errorf("%s: Do() = %#v, want fn's error, the same value %#v", tt.name, got, orig)
		}
		var desc *Error
		if errors.As(got, &desc) {
			t.Errorf("%s: a description %v", tt.name, desc)
		}
	}
}

// TestDoIdentityHost makes real failing calls on this host's kernel, with
// the real Fetch: a description, if the kernel records one, must leave
// the error as it was; without one (the usual case on a host, and always
// without cgo) Do must return the very value fn did.
func TestDoIdentityHost(t *testing.T) {
	var pipe [2]int
	if err := syscall.Pipe2(pipe[:], syscall.O_NONBLOCK|syscall.O_CLOEXEC); err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(pipe[0])
	defer syscall.Close(pipe[1])
	f, err := os.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()

	calls := []struct {
		name  string
		errno syscall.Errno
		call  func() error
	}{
		{"ENOENT os.Open", syscall.ENOENT, func() error {
			_, err := os.Open(filepath.Join(t.TempDir(), "missing"))
			return err
		}},
		{"EINVAL os.File.Seek", syscall.EINVAL, func() error {
			_, err := f.Seek(0, 99)
			return err
		}},
		{"EAGAIN read(2) of an empty non-blocking pipe", syscall.EAGAIN, func() error {
			_, err := syscall.Read(pipe[0], make([]byte, 1))
			return err
		}},
	}
	for _, c := range calls {
		t.Run(c.name, func(t *testing.T) {
			var orig error
			got := Do(func() error {
				orig = c.call()
				return orig
			})
			if !errors.Is(orig, c.errno) {
				t.Fatalf("the call failed with %v, not %v", orig, c.errno)
			}
			var desc *Error
			if errors.As(got, &desc) {
				t.Logf("the kernel described it: %v", desc)
				sameObservations(t, "host", got, orig)
				return
			}
			if got != orig {
				t.Errorf("Do() = %#v, want the same value %#v", got, orig)
			}
		})
	}
}

//go:build cgo

package exterr_test

import (
	"errors"
	"fmt"
	"io/fs"
	"log"
	"os"
	"runtime"
	"syscall"

	"exterr.dev/go/exterr"
)

func ExampleParse() {
	e, err := exterr.Parse([]byte(`{"code":-22,"module":"perf","file":"kernel/events/core.c",` +
		`"line":12593,"message":"sigtrap requires remove_on_exec","syscall":298,"attr_field":"sigtrap"}`))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(e)
	fmt.Println(errors.Is(e, syscall.EINVAL), e.Syscall)
	for _, f := range e.Fields {
		fmt.Printf("%s (%s) = %s\n", f.Name, f.Type, f.Value)
	}
	// Output:
	// Invalid argument: sigtrap requires remove_on_exec [perf attr_field=sigtrap] (kernel/events/core.c:12593)
	// true 298
	// attr_field (string) = sigtrap
}

func ExampleParseError() {
	_, err := exterr.Parse([]byte(`{"code":-22,"module":"perf"}`))
	var pe *exterr.ParseError
	if errors.As(err, &pe) {
		fmt.Println(pe.Class, pe.Offset)
		fmt.Println(pe.Reason)
	}
	fmt.Println(errors.Is(err, exterr.ErrSchema), errors.Is(err, exterr.ErrMalformed))
	// Output:
	// schema 27
	// missing key "file"
	// true false
}

func ExampleError_Field() {
	e, _ := exterr.Parse([]byte(`{"code":-34,"module":"v4l2","file":"drivers/media/v4l2-core/v4l2-ioctl.c",` +
		`"line":1,"message":"too many planes","ioctl":"VIDIOC_S_FMT","num_planes":9}`))
	if f, ok := e.Field("num_planes"); ok {
		n, _ := f.Int()
		fmt.Println(n + 1)
	}
	fmt.Println(e)
	// Output:
	// 10
	// Numerical result out of range: too many planes [v4l2 ioctl=VIDIOC_S_FMT num_planes=9] (drivers/media/v4l2-core/v4l2-ioctl.c:1)
}

// Do is the usual way in: the call and the fetch share a thread.
func ExampleDo() {
	err := exterr.Do(func() error {
		// A raw system call, so its errno is the last word.
		_, _, errno := syscall.Syscall(syscall.SYS_CLOSE, ^uintptr(0), 0, 0)
		if errno != 0 {
			return errno
		}
		return nil
	})
	var desc *exterr.Error
	switch {
	case errors.As(err, &desc):
		fmt.Println("kernel says:", desc)
	case err != nil:
		fmt.Println("no description:", err)
	}
}

// Code written for the function's own error keeps working on Do's
// result, whatever the kernel: the text is unchanged and errors.Is and
// errors.As find what they found before. Only a program that asks for an
// *exterr.Error gets more.
func ExampleDo_unchanged() {
	err := exterr.Do(func() error {
		_, err := os.Open("/nonexistent/config")
		return err
	})
	fmt.Println(err)
	fmt.Println(errors.Is(err, fs.ErrNotExist))
	var pathErr *fs.PathError
	if errors.As(err, &pathErr) {
		fmt.Println(pathErr.Op, pathErr.Path)
	}
	var desc *exterr.Error
	if errors.As(err, &desc) {
		// Only on a kernel that describes open(2) failures.
		log.Print("kernel says: ", desc)
	}
	// Output:
	// open /nonexistent/config: no such file or directory
	// true
	// open /nonexistent/config
}

// Fetch on its own needs the goroutine locked to its thread from the
// failing call on.
func ExampleFetch() {
	// Supported takes nothing from the kernel, unlike a Fetch made only
	// to see whether it fails with ErrUnsupported.
	if !exterr.Supported() {
		fmt.Println("this kernel has no exterr")
		return
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()

	if _, err := syscall.Open("/nonexistent", syscall.O_RDONLY, 0); err != nil {
		desc, ferr := exterr.Fetch()
		switch {
		case ferr != nil:
			fmt.Println("fetching the description:", ferr)
		case desc != nil && errors.Is(err, desc.Errno):
			fmt.Println(desc)
		default:
			fmt.Println(err)
		}
	}
}

// Supported can be asked at any time, say once at start-up, since it
// leaves a pending description alone. It is false in a build without cgo.
func ExampleSupported() {
	if exterr.Supported() {
		fmt.Println("failed system calls may come with a description")
	} else {
		fmt.Println("plain errnos only")
	}
}

func ExampleError_Value() {
	e, err := exterr.Parse([]byte(`{"code":-22,"id":"perf.sample_freq.above_max_rate","module":"perf",` +
		`"file":"kernel/events/core.c","line":13134,"message":"sample_freq above kernel.perf_event_max_sample_rate",` +
		`"syscall":298,"values":{"sample_freq":18446744073709551615,"limit":100000},"attr_field":"sample_freq"}`))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(e)
	fmt.Println(e.ID, e.Severity)
	if v, ok := e.Value("limit"); ok {
		limit, _ := v.Int64()
		fmt.Println("limit", limit)
	}
	// 2^64-1 fits only a uint64; String is exact either way.
	v, _ := e.Value("sample_freq")
	_, fitsInt64 := v.Int64()
	u, _ := v.Uint64()
	fmt.Println(v, fitsInt64, u)
	// Output:
	// Invalid argument: sample_freq above kernel.perf_event_max_sample_rate [perf attr_field=sample_freq sample_freq=18446744073709551615 limit=100000] (kernel/events/core.c:13134)
	// perf.sample_freq.above_max_rate error
	// limit 100000
	// 18446744073709551615 false 18446744073709551615
}

func ExampleFetchNotes() {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()

	// ... a successful system call on this thread ...
	note, err := exterr.FetchNotes()
	if err != nil || note == nil {
		return // no exterr, nothing pending, or a failure to fetch
	}
	if note.Severity != exterr.SeverityError {
		log.Print(note) // note: pixelformat not supported, replaced by YUYV [...]
	}
}

package exterr_test

import (
	"errors"
	"fmt"
	"log"
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
	// schema -1
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

// Fetch on its own needs the goroutine locked to its thread from the
// failing call on.
func ExampleFetch() {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()

	if _, err := syscall.Open("/nonexistent", syscall.O_RDONLY, 0); err != nil {
		desc, ferr := exterr.Fetch()
		switch {
		case errors.Is(ferr, exterr.ErrUnsupported):
			fmt.Println("this kernel has no exterr:", err)
		case desc != nil:
			fmt.Println(desc)
		default:
			fmt.Println(err)
		}
	}
}

// Command exterr-guest-test checks the Go binding against a real kernel.
// It is meant to be linked statically and run as the only program of a
// test VM (kernel/vm-run), where no libexterr.so exists.
//
// By default it expects a kernel with exterr. First a perf_event_open()
// with sigtrap=1 and remove_on_exec=0, made through exterr.Do, must fail
// with EINVAL and come back as an *exterr.Error whose attr_field is
// "sigtrap", while its Error() stays the errno's text. Then Supported must
// report exterr and leave the description of a failure made just before
// it for Fetch. Then each of a few distinct perf_event_open() failures
// (see perfCases) is made once, and finally many goroutines at once each
// repeat one of them through exterr.Do: every result must carry its own
// errno, its own attr_field, syscall 298, a message, and the same JSON
// the single call produced, never another goroutine's description.
//
// With --expect-unsupported it expects a kernel without exterr: Supported
// must be false, Fetch must return exterr.ErrUnsupported and Do must hand
// the plain EINVAL back.
//
// It prints what it saw and exits 0 when the expectation holds, 1 when it
// does not, and 2 on bad usage.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"runtime"
	"sync"
	"syscall"
	"time"

	"exterr.dev/go/exterr"
)

func main() {
	unsupported := flag.Bool("expect-unsupported", false,
		"expect a kernel without PR_GET_ERR_DESC")
	goroutines := flag.Int("goroutines", 32,
		"goroutines making perf_event_open() calls at once")
	iterations := flag.Int("iterations", 200,
		"Do() calls per goroutine")
	procs := flag.Int("gomaxprocs", 4,
		"raise GOMAXPROCS to at least this (0: the runtime's choice)")
	flag.Parse()
	if flag.NArg() != 0 || *goroutines < 1 || *iterations < 1 || *procs < 0 {
		flag.Usage()
		os.Exit(2)
	}
	// The test kernel is built without CONFIG_SMP, so the runtime would
	// pick GOMAXPROCS 1: one thread running Go code at a time. More lets
	// the guest kernel preempt threads in the middle of Do, between the
	// failing call and the fetch, which is what the concurrent check is
	// about.
	if *procs > runtime.GOMAXPROCS(0) {
		runtime.GOMAXPROCS(*procs)
	}

	checks := []func() error{
		expectExterr,
		expectSupportedKeeps,
		expectEachCase,
		func() error { return expectConcurrent(*goroutines, *iterations) },
	}
	if *unsupported {
		checks = []func() error{expectUnsupported}
	}
	for _, check := range checks {
		if err := check(); err != nil {
			fmt.Println("FAIL:", err)
			os.Exit(1)
		}
	}
	fmt.Println("PASS")
}

func expectExterr() error {
	c := perfCases[0]
	err := exterr.Do(c.open)
	if err != nil {
		fmt.Println("perf_event_open:", err)
	}
	desc, err := checkResult(c, err)
	if err != nil {
		return err
	}
	fmt.Println("description:", desc)
	fmt.Println("json:", desc.JSON)
	return nil
}

// expectSupportedKeeps requires Supported to report exterr and to leave
// a pending description for the Fetch after it.
func expectSupportedKeeps() error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()

	c := perfCases[0]
	err := c.open()
	if !exterr.Supported() {
		return errors.New("Supported() = false on a kernel with exterr")
	}
	desc, ferr := exterr.Fetch()
	if ferr != nil || desc == nil {
		return fmt.Errorf("Fetch() after Supported() = %v, %v; Supported took the description", desc, ferr)
	}
	if err != c.errno {
		return fmt.Errorf("perf_event_open: %v, want %s", err, errnoName(c.errno))
	}
	if f, _ := desc.Field("attr_field"); desc.Errno != c.errno || f.Value != c.field {
		return fmt.Errorf("Fetch() after Supported() = %v, want %s's description", desc, c.name)
	}
	fmt.Println("Supported: true; the pending description survived it")
	return nil
}

// checkResult checks what exterr.Do(c.open) returned and gives back the
// description.
func checkResult(c perfCase, err error) (*exterr.Error, error) {
	if err == nil {
		return nil, errors.New("perf_event_open succeeded")
	}
	if !errors.Is(err, c.errno) {
		return nil, fmt.Errorf("errors.Is(%v, %s) is false", err, errnoName(c.errno))
	}
	var desc *exterr.Error
	if !errors.As(err, &desc) {
		return nil, fmt.Errorf("no description: got %T %v", err, err)
	}
	// Do adds the description without changing what the error says or
	// unwraps to (the identity tests check every detail with a fake
	// kernel; this is the real one).
	if err.Error() != c.errno.Error() || errors.Unwrap(err) != c.errno {
		return desc, fmt.Errorf("Do changed the error: %q unwrapping to %v, want %q",
			err.Error(), errors.Unwrap(err), c.errno.Error())
	}
	if f, ok := desc.Field("attr_field"); !ok || f.Value != c.field {
		return desc, fmt.Errorf("attr_field = %q (present %v), want %s; json %s",
			f.Value, ok, c.field, desc.JSON)
	}
	if desc.Syscall != syscall.SYS_PERF_EVENT_OPEN {
		return desc, fmt.Errorf("syscall %d, want %d; json %s",
			desc.Syscall, syscall.SYS_PERF_EVENT_OPEN, desc.JSON)
	}
	if desc.Message == "" {
		return desc, fmt.Errorf("empty message; json %s", desc.JSON)
	}
	return desc, nil
}

func errnoName(e syscall.Errno) string {
	switch e {
	case syscall.EINVAL:
		return "EINVAL"
	case syscall.E2BIG:
		return "E2BIG"
	}
	return fmt.Sprintf("errno %d", int(e))
}

// baseline is each perf case's JSON from a call made while nothing else
// ran, filled in by expectEachCase.
var baseline []string

func expectEachCase() error {
	baseline = make([]string, len(perfCases))
	for i, c := range perfCases {
		desc, err := checkResult(c, exterr.Do(c.open))
		if err != nil {
			return fmt.Errorf("%s: %v", c.name, err)
		}
		for j := range baseline[:i] {
			if baseline[j] == desc.JSON {
				return fmt.Errorf("%s and %s give the same description %s",
					perfCases[j].name, c.name, desc.JSON)
			}
		}
		baseline[i] = desc.JSON
		fmt.Printf("%s: %v\n", c.name, desc)
	}
	return nil
}

// expectConcurrent starts goroutines goroutines, goroutine i repeating
// perfCases[i % len(perfCases)] iterations times through exterr.Do, all
// at once, and requires every result to be that case's errno, and every
// description that comes with it to be that case's.
//
// A few may come without one: between fn's failing system call and Do's
// fetch, the Go runtime can make a failing system call of its own on the
// same thread (a futex wait that finds the word changed: EAGAIN, in
// exitsyscall), and the kernel forgets a description at the thread's next
// failure, so that it is never read as that failure's. Seen once in 6,400
// calls in the guest. A wrong or another case's description fails the
// test at once; missing ones only above 1%, which no runtime race
// explains.
func expectConcurrent(goroutines, iterations int) error {
	const maxReports = 10
	var (
		mu         sync.Mutex
		calls      int
		mismatches int
		missing    int // the right errno, no description
		foreign    int // descriptions of another case's failure
		reports    []string
	)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for g := 0; g < goroutines; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ci := g % len(perfCases)
			c := perfCases[ci]
			var n, bad, none, alien int
			var mine []string
			<-start
			for i := 0; i < iterations; i++ {
				err := exterr.Do(c.open)
				n++
				desc, cerr := checkResult(c, err)
				if cerr == nil && desc.JSON != baseline[ci] {
					cerr = fmt.Errorf("json %s, want %s", desc.JSON, baseline[ci])
				}
				var d *exterr.Error
				if cerr != nil && errors.Is(err, c.errno) && !errors.As(err, &d) {
					none++
				} else if cerr != nil {
					bad++
					if desc != nil && isForeign(ci, desc) {
						alien++
					}
					if len(mine) < maxReports {
						mine = append(mine, fmt.Sprintf(
							"goroutine %d, call %d, %s: %v", g, i, c.name, cerr))
					}
				}
				// Let the scheduler move goroutines between threads.
				runtime.Gosched()
			}
			mu.Lock()
			defer mu.Unlock()
			calls += n
			mismatches += bad
			missing += none
			foreign += alien
			for _, r := range mine {
				if len(reports) < maxReports {
					reports = append(reports, r)
				}
			}
		}()
	}
	began := time.Now()
	close(start)
	wg.Wait()
	elapsed := time.Since(began).Round(time.Millisecond)

	for _, r := range reports {
		fmt.Println("mismatch:", r)
	}
	if mismatches > 0 || missing*100 > calls {
		return fmt.Errorf("%d of %d concurrent Do() calls wrong, %d foreign "+
			"descriptions, %d without one", mismatches, calls, foreign, missing)
	}
	fmt.Printf("ok %d concurrent Do() calls, %d foreign descriptions, %d without one "+
		"(%d goroutines x %d, %d cases, %d CPUs, GOMAXPROCS %d, %v)\n",
		calls, foreign, missing, goroutines, iterations, len(perfCases),
		runtime.NumCPU(), runtime.GOMAXPROCS(0), elapsed)
	return nil
}

// isForeign reports whether desc describes a perf case other than
// perfCases[ci]: another goroutine's description.
func isForeign(ci int, desc *exterr.Error) bool {
	f, _ := desc.Field("attr_field")
	for j, c := range perfCases {
		if j != ci && (desc.JSON == baseline[j] || f.Value == c.field) {
			return true
		}
	}
	return false
}

func expectUnsupported() error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()

	if exterr.Supported() {
		return errors.New("Supported() = true on a kernel without exterr")
	}
	if desc, err := exterr.Fetch(); !errors.Is(err, exterr.ErrUnsupported) {
		return fmt.Errorf("Fetch() = %v, %v; want ErrUnsupported", desc, err)
	}
	fmt.Println("Fetch:", exterr.ErrUnsupported)
	err := exterr.Do(perfCases[0].open)
	fmt.Println("perf_event_open:", err)
	if err != syscall.EINVAL {
		return fmt.Errorf("Do() = %#v, want the plain EINVAL", err)
	}
	return nil
}

package exterr_test

import (
	"errors"
	"runtime"
	"syscall"
	"testing"

	"exterr.dev/go/exterr"
)

// kernelHasExterr asks the kernel directly, without libexterr, so the
// test does not trust the code it tests: unknown prctl options fail with
// EINVAL, and PR_GET_ERR_DESC otherwise answers a size or ENODATA.
func kernelHasExterr() bool {
	const prGetErrDesc = 0x45525244
	_, _, errno := syscall.RawSyscall6(syscall.SYS_PRCTL, prGetErrDesc, 0, 0, 0, 0, 0)
	return errno != syscall.EINVAL
}

func TestFetch(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()

	e, err := exterr.Fetch()
	if !kernelHasExterr() {
		if e != nil || !errors.Is(err, exterr.ErrUnsupported) {
			t.Fatalf("Fetch() = %v, %v; want ErrUnsupported", e, err)
		}
		if !errors.Is(err, errors.ErrUnsupported) {
			t.Error("not errors.ErrUnsupported")
		}
		return
	}
	if err != nil {
		t.Fatalf("Fetch() = %v", err)
	}
	// The first fetch emptied the slot; nothing can be pending now.
	if e, err := exterr.Fetch(); e != nil || err != nil {
		t.Errorf("second Fetch() = %v, %v; want nil, nil", e, err)
	}
}

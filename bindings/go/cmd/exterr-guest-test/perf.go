package main

import (
	"syscall"
	"unsafe"
)

// perfEventAttr is struct perf_event_attr at PERF_ATTR_SIZE_VER8 (136
// bytes), laid out by hand so the program needs nothing beyond the
// standard library. The kernel accepts any size it knows or a larger one
// with zeros at the end, so the exact version does not matter.
type perfEventAttr struct {
	Type             uint32
	Size             uint32
	Config           uint64
	SamplePeriod     uint64
	SampleType       uint64
	ReadFormat       uint64
	Bits             uint64 // disabled:1, inherit:1, ... see perfBit*
	WakeupEvents     uint32
	BPType           uint32
	Config1          uint64
	Config2          uint64
	BranchSampleType uint64
	SampleRegsUser   uint64
	SampleStackUser  uint32
	ClockID          int32
	SampleRegsIntr   uint64
	AuxWatermark     uint32
	SampleMaxStack   uint16
	_                uint16
	AuxSampleSize    uint32
	AuxAction        uint32
	SigData          uint64
	Config3          uint64
}

// The layout must match the kernel's; a wrong size fails to compile.
var _ [unsafe.Sizeof(perfEventAttr{}) - 136]struct{}
var _ [136 - unsafe.Sizeof(perfEventAttr{})]struct{}

const (
	perfTypeSoftware    = 1 // PERF_TYPE_SOFTWARE
	perfCountSWCPUClock = 0 // PERF_COUNT_SW_CPU_CLOCK

	// Bit positions in perf_event_attr's flag word, in declaration
	// order of include/uapi/linux/perf_event.h.
	perfBitInherit       = 1
	perfBitExcludeKernel = 5
	perfBitEnableOnExec  = 12
	perfBitInheritThread = 35
	perfBitRemoveOnExec  = 36
	perfBitSigtrap       = 37
)

// perfCase is a perf_event_open() that perf_copy_attr() rejects before
// any permission check, so it fails the same way for any user, together
// with what the patched kernel says about it.
type perfCase struct {
	name  string                 // what is wrong with the attr
	errno syscall.Errno          // the error perf_event_open() returns
	field string                 // the description's attr_field
	set   func(a *perfEventAttr) // makes the attr wrong
}

// perfCases are distinct failures with distinct attr_fields, so that a
// description that reaches the wrong call cannot pass for the right one.
// perfCases[0] is the single-call check and the --expect-unsupported one.
var perfCases = []perfCase{
	{"sigtrap=1 without remove_on_exec", syscall.EINVAL, "sigtrap",
		func(a *perfEventAttr) { a.Bits |= 1 << perfBitSigtrap }},
	{"inherit_thread=1 without inherit", syscall.EINVAL, "inherit_thread",
		func(a *perfEventAttr) { a.Bits |= 1 << perfBitInheritThread }},
	{"remove_on_exec=1 with enable_on_exec=1", syscall.EINVAL, "remove_on_exec",
		func(a *perfEventAttr) {
			a.Bits |= 1<<perfBitRemoveOnExec | 1<<perfBitEnableOnExec
		}},
	{"unknown read_format bit 1<<5", syscall.EINVAL, "read_format",
		func(a *perfEventAttr) { a.ReadFormat = 1 << 5 }},
	{"unknown sample_type bit 1<<63", syscall.EINVAL, "sample_type",
		func(a *perfEventAttr) { a.SampleType = 1 << 63 }},
	{"size=1", syscall.E2BIG, "size",
		func(a *perfEventAttr) { a.Size = 1 }},
}

// open asks for a user-space-only software CPU clock event on this thread
// with c's mistake, and returns the raw errno. It is meant to be the
// function given to exterr.Do.
func (c perfCase) open() error {
	attr := perfEventAttr{
		Type:   perfTypeSoftware,
		Config: perfCountSWCPUClock,
		Bits:   1 << perfBitExcludeKernel,
	}
	attr.Size = uint32(unsafe.Sizeof(attr))
	c.set(&attr)
	// pid 0 (this thread), cpu -1 (any), group_fd -1 (none); variables
	// because a negative constant does not convert to uintptr.
	pid, cpu, groupFD := 0, -1, -1
	// A raw call: its errno is the last system call before Do fetches.
	fd, _, errno := syscall.Syscall6(syscall.SYS_PERF_EVENT_OPEN,
		uintptr(unsafe.Pointer(&attr)), uintptr(pid), uintptr(cpu),
		uintptr(groupFD), 0, 0)
	if errno != 0 {
		return errno
	}
	syscall.Close(int(fd))
	return nil
}

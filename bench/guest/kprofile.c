// SPDX-License-Identifier: GPL-2.0
/*
 * kprofile: the guest side of bench/profile. Run as the program of
 * kernel/vm-run --gdb, it makes the system calls that bench/profile's gdb
 * script traces instruction by instruction.
 *
 * Every call, warm-up or profiled, goes through one syscall instruction,
 * labelled kprofile_syscall, so that the user-space side of each is the
 * same. The profiled calls differ from the warm-up ones only in the
 * address of their argument (the attr, or the fetch buffer): a copy with
 * the same contents. The debugger knows these addresses from the symbol
 * table of this program and breaks at kprofile_syscall only when a
 * register holds one of them, so the warm-up calls run at full speed and
 * the profiled ones are the REPS calls after WARMUP of the same kind.
 *
 * Per round, in this order: getppid(), the control (its argument, which
 * the kernel ignores, is what tells the profiled call apart), a failing
 * perf_event_open() with attr.size=1 (E2BIG), one with sigtrap but no
 * remove_on_exec (EINVAL) and, on a kernel with PR_GET_ERR_DESC,
 * prctl(PR_GET_ERR_DESC, buf, 4096, 0, 0) fetching the description the
 * sigtrap failure left pending.
 *
 * Usage: kprofile [REPS]   (default 3)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../../kernel/tests/guest/perf_sigtrap.h"

#define PR_GET_ERR_DESC 0x45525244
#define WARMUP 100
#define DESC_SIZE 4096

/* Warm-up arguments, and the profiled copies the debugger looks for. */
struct perf_event_attr warm_size1, warm_sigtrap;
struct perf_event_attr kprofile_size1, kprofile_sigtrap;
char warm_desc[DESC_SIZE];
char kprofile_desc[DESC_SIZE];
char warm_getppid, kprofile_getppid;

/*
 * The one syscall instruction of every call. noinline keeps it one
 * instruction at one address, which the label names for the debugger.
 * Returns the raw result: -errno on failure.
 */
static __attribute__((noinline)) long
marked_syscall(long nr, long a1, long a2, long a3, long a4, long a5)
{
	register long r10 asm("r10") = a4;
	register long r8 asm("r8") = a5;
	long ret;

	asm volatile(".globl kprofile_syscall\n"
		     "kprofile_syscall:\n\t"
		     "syscall"
		     : "=a"(ret)
		     : "a"(nr), "D"(a1), "S"(a2), "d"(a3), "r"(r10), "r"(r8)
		     : "rcx", "r11", "memory");
	return ret;
}

static void die(const char *what, long ret)
{
	printf("kprofile FAIL %s (returned %ld)\n", what, ret);
	exit(1);
}

/* Each failing request must fail with the errno it is meant to. */
static void fail_size1(struct perf_event_attr *attr)
{
	long ret;

	attr->size = 1;		/* the kernel writes the expected size back */
	ret = marked_syscall(SYS_perf_event_open, (long)attr, 0, -1, -1, 0);
	if (ret != -E2BIG)
		die("size1", ret);
}

static void fail_sigtrap(struct perf_event_attr *attr)
{
	long ret = marked_syscall(SYS_perf_event_open, (long)attr, 0, -1, -1, 0);

	if (ret != -EINVAL)
		die("sigtrap", ret);
}

static long fetch(char *buf)
{
	return marked_syscall(SYS_prctl, PR_GET_ERR_DESC, (long)buf, DESC_SIZE,
			      0, 0);
}

/* getppid() with a marker argument it ignores; the guest's init is 1. */
static void control(char *marker)
{
	long ret = marked_syscall(SYS_getppid, (long)marker, 0, 0, 0, 0);

	if (ret <= 0)
		die("getppid", ret);
}

/*
 * One call of each kind with these copies of the arguments (the warm-up's
 * or the profiled ones), and the fetch into @desc unless it is NULL.
 * Returns the fetched description's length.
 */
static long one_round(char *marker, struct perf_event_attr *size1,
		      struct perf_event_attr *sigtrap, char *desc)
{
	long ret;

	control(marker);
	fail_size1(size1);
	fail_sigtrap(sigtrap);
	if (!desc)
		return 0;
	ret = fetch(desc);
	if (ret <= 0)
		die("fetch", ret);
	return ret - 1;
}

int main(int argc, char **argv)
{
	int reps = argc > 1 ? atoi(argv[1]) : 3;
	long ret, len = 0;
	int patched, i;

	perf_sw_clock_attr(&warm_size1);
	perf_sw_clock_attr(&warm_sigtrap);
	warm_sigtrap.sigtrap = 1;	/* without remove_on_exec: EINVAL */
	kprofile_size1 = warm_size1;
	kprofile_sigtrap = warm_sigtrap;
	/*
	 * Fault the buffers in now: a first write by copy_to_user() would
	 * put a page fault into the profiled fetch.
	 */
	memset(warm_desc, 1, sizeof(warm_desc));
	memset(kprofile_desc, 1, sizeof(kprofile_desc));

	ret = marked_syscall(SYS_prctl, PR_GET_ERR_DESC, 0, 0, 0, 0);
	patched = ret != -EINVAL;
	printf("kprofile kernel=%s reps=%d warmup=%d\n",
	       patched ? "patched" : "unpatched", reps, WARMUP);

	for (i = 0; i < WARMUP; i++)
		one_round(&warm_getppid, &warm_size1, &warm_sigtrap,
			  patched ? warm_desc : NULL);
	/* Nothing but the profiled calls in these rounds: print afterwards. */
	for (i = 0; i < reps; i++)
		len = one_round(&kprofile_getppid, &kprofile_size1,
				&kprofile_sigtrap, patched ? kprofile_desc : NULL);
	if (patched)
		printf("kprofile desc_len=%ld desc=%s\n", len, kprofile_desc);
	printf("kprofile done\n");
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * kbench: the kernel-side cost of extended errors, run as PID 1 in a guest
 * booted by kernel/vm-run --icount. Under -icount shift=0 the guest clock
 * advances 1 ns per guest instruction, so CLOCK_MONOTONIC deltas are
 * instruction counts (deterministic; they include the user-space part of
 * each iteration and the loop itself, and the kernel entry/exit).
 *
 * For each case: WARMUP iterations, then REPS repetitions of N iterations
 * timed as a whole; prints the per-iteration value of every repetition
 * and their minimum:
 *
 *   kbench CASE min=<insns> reps=<r1>,<r2>,...
 *
 * Usage: kbench [--quick]
 * On a kernel without PR_GET_ERR_DESC the fetch cases are skipped.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <exterr.h>

#include "../../kernel/tests/guest/perf_sigtrap.h"

#define PR_GET_ERR_DESC 0x45525244

static int n_iter = 1000, n_reps = 7, n_warm = 100;
static char desc[4096];

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static long perf_open(struct perf_event_attr *attr)
{
	return syscall(SYS_perf_event_open, attr, 0, -1, -1, 0);
}

static struct perf_event_attr a_ok, a_sigtrap, a_size1, a_inhthr;

static void die(const char *what)
{
	printf("kbench FAIL %s (errno %d)\n", what, errno);
	exit(1);
}

/* The failing requests: each must fail with the errno it is meant to. */
static void fail_sigtrap(void)
{
	if (perf_open(&a_sigtrap) != -1 || errno != EINVAL)
		die("sigtrap");
}

static void fail_size1(void)
{
	a_size1.size = 1;	/* the kernel writes the expected size back */
	if (perf_open(&a_size1) != -1 || errno != E2BIG)
		die("size1");
}

static void fail_inhthr(void)
{
	if (perf_open(&a_inhthr) != -1 || errno != EINVAL)
		die("inherit_thread");
}

static void c_getppid(void)
{
	syscall(SYS_getppid);
}

static void c_open_close(void)
{
	long fd = perf_open(&a_ok);

	if (fd < 0)
		die("open");
	close(fd);
}

static void fetch(void)
{
	if (syscall(SYS_prctl, PR_GET_ERR_DESC, desc, sizeof(desc), 0, 0) <= 0)
		die("prctl(PR_GET_ERR_DESC)");
}

static void c_sigtrap(void) { fail_sigtrap(); }
static void c_size1(void) { fail_size1(); }
static void c_inhthr(void) { fail_inhthr(); }
static void c_sigtrap_fetch(void) { fail_sigtrap(); fetch(); }
static void c_size1_fetch(void) { fail_size1(); fetch(); }
static void c_inhthr_fetch(void) { fail_inhthr(); fetch(); }

static void c_sigtrap_fetch_parse(void)
{
	struct exterr *err;

	fail_sigtrap();
	if (exterr_fetch(&err))
		die("exterr_fetch");
	exterr_free(err);
}

/* prctl(PR_GET_ERR_DESC) with nothing pending: the bare call, -ENODATA. */
static void c_prctl_nodata(void)
{
	if (syscall(SYS_prctl, PR_GET_ERR_DESC, desc, sizeof(desc), 0, 0) != -1 ||
	    errno != ENODATA)
		die("prctl ENODATA");
}

/*
 * With a description pending, prctl(NULL, 0) returns the size and
 * prctl(buf, 1) fails with ERANGE: both build the whole description
 * (allocation, JSON) but copy nothing and leave it pending, so they
 * repeat without a new failure and split the fetch into its parts.
 */
static void c_size_query(void)
{
	if (syscall(SYS_prctl, PR_GET_ERR_DESC, NULL, 0, 0, 0) <= 0)
		die("prctl(PR_GET_ERR_DESC, NULL, 0)");
}

static void c_erange(void)
{
	if (syscall(SYS_prctl, PR_GET_ERR_DESC, desc, 1, 0, 0) != -1 ||
	    errno != ERANGE)
		die("prctl ERANGE");
}

/* Leave the description of @fail pending, and print its length. */
static void pend(const char *name, void (*fail)(void))
{
	long size;

	syscall(SYS_prctl, PR_GET_ERR_DESC, desc, sizeof(desc), 0, 0);
	fail();
	size = syscall(SYS_prctl, PR_GET_ERR_DESC, NULL, 0, 0, 0);
	if (size <= 0)
		die("size query");
	printf("kbench desc_len_%s=%ld\n", name, size - 1);
}

static void bench(const char *name, void (*fn)(void), int iters)
{
	long long best = -1, t;
	int r, i;

	for (i = 0; i < n_warm; i++)
		fn();
	printf("kbench %s", name);
	fflush(stdout);
	char reps[1024] = "";
	size_t off = 0;
	double bestd = 0;

	for (r = 0; r < n_reps; r++) {
		t = now_ns();
		for (i = 0; i < iters; i++)
			fn();
		t = now_ns() - t;
		off += snprintf(reps + off, sizeof(reps) - off, "%s%.1f",
				r ? "," : "", (double)t / iters);
		if (best < 0 || t < best) {
			best = t;
			bestd = (double)t / iters;
		}
	}
	printf(" min=%.1f reps=%s\n", bestd, reps);
}

/*
 * The boot line in which the kernel reports the memory its rendered
 * descriptions take ("exterr: N descriptions rendered in M bytes").
 */
static void print_rendered(void)
{
	static char log[1 << 17];
	unsigned long sites, bytes;
	int n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, log, sizeof(log) - 1);
	char *p;

	if (n <= 0)
		return;
	log[n] = '\0';
	for (p = log; (p = strstr(p, "exterr: ")); p++) {
		if (sscanf(p, "exterr: %lu descriptions rendered in %lu bytes",
			   &sites, &bytes) == 2) {
			printf("kbench rendered sites=%lu bytes=%lu\n", sites,
			       bytes);
			return;
		}
	}
}

int main(int argc, char **argv)
{
	int patched;

	if (argc > 1 && !strcmp(argv[1], "--quick")) {
		n_iter = 100;
		n_reps = 3;
		n_warm = 10;
	}
	perf_sw_clock_attr(&a_ok);
	perf_sw_clock_attr(&a_sigtrap);
	a_sigtrap.sigtrap = 1;		/* without remove_on_exec: EINVAL */
	perf_sw_clock_attr(&a_size1);
	perf_sw_clock_attr(&a_inhthr);
	a_inhthr.inherit_thread = 1;	/* without inherit: EINVAL */

	patched = !(syscall(SYS_prctl, PR_GET_ERR_DESC, NULL, 0, 0, 0) == -1 &&
		    errno == EINVAL);
	printf("kbench kernel=%s iters=%d reps=%d warmup=%d\n",
	       patched ? "patched" : "unpatched", n_iter, n_reps, n_warm);
	print_rendered();

	/* A clock read pair alone: the per-repetition overhead. */
	{
		long long t0 = now_ns(), t1 = now_ns();

		printf("kbench clock_pair=%lld\n", t1 - t0);
	}
	bench("getppid", c_getppid, n_iter);
	bench("open_close", c_open_close, n_iter / 4 ? n_iter / 4 : 1);
	bench("fail_sigtrap", c_sigtrap, n_iter);
	bench("fail_size1", c_size1, n_iter);
	bench("fail_inherit_thread", c_inhthr, n_iter);
	if (patched) {
		/* Drain what the failures above left pending. */
		syscall(SYS_prctl, PR_GET_ERR_DESC, desc, sizeof(desc), 0, 0);
		bench("prctl_nodata", c_prctl_nodata, n_iter);
		bench("fail_fetch_sigtrap", c_sigtrap_fetch, n_iter);
		bench("fail_fetch_size1", c_size1_fetch, n_iter);
		bench("fail_fetch_inherit_thread", c_inhthr_fetch, n_iter);
		bench("fail_fetch_parse_sigtrap", c_sigtrap_fetch_parse, n_iter);
		pend("sigtrap", fail_sigtrap);
		bench("size_query_sigtrap", c_size_query, n_iter);
		bench("erange_sigtrap", c_erange, n_iter);
		pend("size1", fail_size1);
		bench("size_query_size1", c_size_query, n_iter);
		pend("inherit_thread", fail_inhthr);
		bench("size_query_inherit_thread", c_size_query, n_iter);
		if (syscall(SYS_prctl, PR_GET_ERR_DESC, desc, sizeof(desc), 0, 0) < 0 &&
		    errno != ENODATA)
			die("final prctl");
		fail_sigtrap();
		if (syscall(SYS_prctl, PR_GET_ERR_DESC, desc, sizeof(desc), 0, 0) > 0)
			printf("kbench desc %s\n", desc);
	}
	printf("kbench done\n");
	return 0;
}

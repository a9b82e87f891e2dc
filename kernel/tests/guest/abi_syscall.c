// SPDX-License-Identifier: GPL-2.0
/*
 * A description names the system call by the caller's ABI: built with -m32
 * and run on an x86_64 kernel with IA32_EMULATION (or on an i386 kernel),
 * perf_event_open() is 336, as the program asked for it, not x86_64's 298.
 * Built for x86_64 the same checks expect 298. The values of a description
 * are u64 whatever the kernel's word size: 2^40 must come back whole from
 * an i386 kernel, which formats it with do_div().
 *
 * Exit status 0 when every check holds; the first failure is printed.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "check.h"
#include "err_desc.h"
#include "perf_sigtrap.h"

/* The numbers this program's ABI gives perf_event_open(). */
#if defined(__i386__)
#define ABI "i386"
#define WANT_NR 336
#elif defined(__x86_64__) && !defined(__ILP32__)
#define ABI "x86_64"
#define WANT_NR 298
#else
#error "an x86 ABI this test knows"
#endif

static char desc[4096];

/* The description of the last failed call, or "" when prctl() fails. */
static const char *fetch(void)
{
	long n = prctl(PR_GET_ERR_DESC, desc, sizeof(desc), 0, 0);

	if (n < 0) {
		printf("fetch: %s\n", strerror(errno));
		return "";
	}
	printf("%s: %s\n", ABI, desc);
	return desc;
}

static long perf_open(struct perf_event_attr *attr)
{
	return syscall(SYS_perf_event_open, attr, 0, -1, -1, 0);
}

int main(void)
{
	struct perf_event_attr attr;
	char want[64];
	const char *d;

	CHECK(err_desc_enable() == 0);
	/* The new option through this ABI's prctl() too. */
	CHECK(err_desc_enabled() == 1);
	CHECK(SYS_perf_event_open == WANT_NR);
	snprintf(want, sizeof(want), "\"syscall\":%d,", WANT_NR);

	/* size 1: E2BIG, with the size given and the largest accepted. */
	memset(&attr, 0, sizeof(attr));
	attr.size = 1;
	CHECK(perf_open(&attr) == -1 && errno == E2BIG);
	d = fetch();
	CHECK(strstr(d, "\"code\":-7,\"id\":\"perf.size.out_of_range\""));
	CHECK(strstr(d, want));
	CHECK(strstr(d, "\"values\":{\"size\":1,\"max\":"));

	/* A frequency above every limit: a u64 value that needs 41 bits. */
	perf_sw_clock_attr(&attr);
	attr.freq = 1;
	attr.sample_freq = 1ULL << 40;
	CHECK(perf_open(&attr) == -1 && errno == EINVAL);
	d = fetch();
	CHECK(strstr(d, "\"id\":\"perf.sample_freq.above_max_rate\""));
	CHECK(strstr(d, want));
	CHECK(strstr(d, "\"values\":{\"sample_freq\":1099511627776,"));

	/* Read once: nothing is left, and a success leaves nothing. */
	CHECK(prctl(PR_GET_ERR_DESC, desc, sizeof(desc), 0, 0) == -1 &&
	      errno == ENODATA);
	CHECK(getppid() >= 0);
	CHECK(prctl(PR_GET_ERR_DESC, desc, sizeof(desc), 0, 0) == -1 &&
	      errno == ENODATA);
	printf("%s: perf_event_open is %d in its descriptions\n", ABI, WANT_NR);
	return 0;
}

// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * record-perf: guest program for conformance/record. Makes a series of
 * perf_event_open() calls that the patched kernel rejects with a
 * description, and prints each one as
 *
 *	# exterr-json: <name> <json>
 *
 * Exits 1 when a call succeeds, fails without a description, or the
 * description is not the one of perf_event_open(): the recorded cases must
 * be what the kernel says about exactly these calls.
 *
 * Build: gcc -static -O2 -o record-perf record-perf.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../kernel/tests/guest/err_desc.h"

/* One attr of a page: room for the "bytes beyond the struct" case. */
static union {
	struct perf_event_attr attr;
	unsigned char bytes[4096];
} u;

/* A valid software event; each case breaks one thing in it. */
static void base(void)
{
	memset(&u, 0, sizeof(u));
	u.attr.size = sizeof(u.attr);
	u.attr.type = PERF_TYPE_SOFTWARE;
	u.attr.config = PERF_COUNT_SW_CPU_CLOCK;
	u.attr.exclude_kernel = 1;
}

static void size_1(void) { u.attr.size = 1; }
static void bytes_beyond(void)
{
	u.attr.size = sizeof(u.bytes);
	u.bytes[sizeof(u.bytes) - 1] = 1;
}
static void reserved_2(void) { u.attr.__reserved_2 = 1; }
static void sample_type_bit63(void) { u.attr.sample_type = 1ULL << 63; }
static void read_format_bit5(void) { u.attr.read_format = 1ULL << 5; }
static void branch_unknown_bits(void)
{
	u.attr.sample_type = PERF_SAMPLE_BRANCH_STACK;
	u.attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | 1ULL << 63;
}
static void branch_no_type(void)
{
	u.attr.sample_type = PERF_SAMPLE_BRANCH_STACK;
	u.attr.branch_sample_type = PERF_SAMPLE_BRANCH_USER;
}
static void stack_user_7(void)
{
	u.attr.sample_type = PERF_SAMPLE_STACK_USER;
	u.attr.sample_stack_user = 7;
}
static void stack_user_65535(void)
{
	u.attr.sample_type = PERF_SAMPLE_STACK_USER;
	u.attr.sample_stack_user = 65535;
}
static void weight_and_struct(void)
{
	u.attr.sample_type = PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT;
}
static void cgroup_sample(void) { u.attr.sample_type = PERF_SAMPLE_CGROUP; }
static void inherit_thread_alone(void) { u.attr.inherit_thread = 1; }
static void remove_and_enable_on_exec(void)
{
	u.attr.remove_on_exec = 1;
	u.attr.enable_on_exec = 1;
}
static void sigtrap_alone(void) { u.attr.sigtrap = 1; }

static const struct {
	const char *name;
	void (*breaks)(void);
} cases[] = {
	{ "perf-size-1", size_1 },
	{ "perf-bytes-beyond-attr", bytes_beyond },
	{ "perf-reserved-2", reserved_2 },
	{ "perf-sample-type-bit-63", sample_type_bit63 },
	{ "perf-read-format-bit-5", read_format_bit5 },
	{ "perf-branch-sample-type-unknown-bits", branch_unknown_bits },
	{ "perf-branch-sample-type-no-branch", branch_no_type },
	{ "perf-sample-stack-user-7", stack_user_7 },
	{ "perf-sample-stack-user-65535", stack_user_65535 },
	{ "perf-sample-weight-and-weight-struct", weight_and_struct },
	{ "perf-sample-cgroup", cgroup_sample },
	{ "perf-inherit-thread-without-inherit", inherit_thread_alone },
	{ "perf-remove-on-exec-and-enable-on-exec", remove_and_enable_on_exec },
	{ "perf-sigtrap-without-remove-on-exec", sigtrap_alone },
};

int main(void)
{
	static char desc[65536];
	char want[32];
	int failed = 0, ret;
	size_t i;

	/* The kernel records descriptions only for processes that ask. */
	ret = err_desc_enable();
	if (ret) {
		printf("# record-perf: cannot enable descriptions: %s\n",
		       strerror(-ret));
		return 1;
	}
	snprintf(want, sizeof(want), "\"syscall\":%d,", SYS_perf_event_open);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		long fd, n;
		int e;

		base();
		cases[i].breaks();
		fd = syscall(SYS_perf_event_open, &u.attr, 0, -1, -1, 0UL);
		e = errno;
		if (fd >= 0) {
			printf("# record-perf: %s: call succeeded\n", cases[i].name);
			close((int)fd);
			failed = 1;
			continue;
		}
		n = prctl(PR_GET_ERR_DESC, desc, sizeof(desc), 0, 0);
		if (n < 0) {
			printf("# record-perf: %s: %s, then no description: %s\n",
			       cases[i].name, strerror(e), strerror(errno));
			failed = 1;
			continue;
		}
		if (!strstr(desc, want)) {
			printf("# record-perf: %s: not perf_event_open's: %s\n",
			       cases[i].name, desc);
			failed = 1;
			continue;
		}
		printf("# exterr-json: %s %s\n", cases[i].name, desc);
	}
	fflush(stdout);
	return failed;
}

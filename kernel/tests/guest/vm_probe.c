// SPDX-License-Identifier: GPL-2.0
/*
 * Small guest programs that check kernel/vm-run itself; the first argument
 * picks one.
 *   exit N       exit with status N
 *   hang         never finish (vm-run must time out)
 *   crash        crash the kernel with sysrq-c (vm-run must fail)
 *   count        print the guest clock's nanoseconds for 1000 getppid()
 *                calls, the minimum of 5 rounds (under --icount:
 *                instructions; equal between runs to within a timer
 *                tick's rounding, see kernel/tests/run)
 *   no-interface prctl(PR_GET_ERR_DESC), and the opt-in's
 *                PR_SET_ERR_DESC_ENABLED and PR_GET_ERR_DESC_ENABLED,
 *                must fail with EINVAL: the answer by which programs
 *                tell a kernel without the interface
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "err_desc.h"

/* 0 if prctl(@option, @arg2, 0, 0, 0) fails with EINVAL, else 1. */
static int no_interface(const char *name, unsigned long option,
			unsigned long arg2)
{
	long r = syscall(SYS_prctl, option, arg2, 0UL, 0UL, 0UL);
	int err = r == -1 ? errno : 0;

	printf("prctl(%s) = %ld, errno %d\n", name, r, err);
	return r == -1 && err == EINVAL ? 0 : 1;
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "";

	if (!strcmp(what, "exit") && argc > 2)
		return atoi(argv[2]);
	if (!strcmp(what, "hang"))
		for (;;)
			pause();
	if (!strcmp(what, "crash")) {
		int fd = open("/proc/sysrq-trigger", O_WRONLY);

		if (fd < 0 || write(fd, "c", 1) != 1)
			perror("sysrq");
		return 0;
	}
	if (!strcmp(what, "count")) {
		long long t0, t1, best = -1;
		int i, round;

		/* Warm up caches and the vDSO first. */
		for (i = 0; i < 100; i++)
			syscall(SYS_getppid);
		/*
		 * A timer interrupt landing inside the loop adds its own
		 * instructions; the minimum of a few rounds leaves it out.
		 */
		for (round = 0; round < 5; round++) {
			t0 = now_ns();
			for (i = 0; i < 1000; i++)
				syscall(SYS_getppid);
			t1 = now_ns();
			if (best < 0 || t1 - t0 < best)
				best = t1 - t0;
		}
		printf("count: %lld\n", best);
		return 0;
	}
	if (!strcmp(what, "no-interface")) {
		int bad = no_interface("PR_GET_ERR_DESC", PR_GET_ERR_DESC, 0);

		bad |= no_interface("PR_SET_ERR_DESC_ENABLED",
				    PR_SET_ERR_DESC_ENABLED, 1);
		bad |= no_interface("PR_GET_ERR_DESC_ENABLED",
				    PR_GET_ERR_DESC_ENABLED, 0);
		return bad;
	}
	fprintf(stderr, "usage: vm_probe exit N|hang|crash|count|no-interface\n");
	return 2;
}

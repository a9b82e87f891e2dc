// SPDX-License-Identifier: MIT
/*
 * Ask perf for an impossible sampling frequency and show what the kernel
 * says about it. On a kernel with exterr:
 *
 *   perf_event_open: Invalid argument
 *   Invalid argument: sample_freq above kernel.perf_event_max_sample_rate
 *   [perf attr_field=sample_freq] (kernel/events/core.c:12883)
 *
 * Elsewhere only the first line (perror() behaviour).
 *
 * Build: cc perf_open.c $(pkg-config --cflags --libs exterr)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <exterr.h>

int main(void)
{
	struct perf_event_attr attr;
	struct exterr *err;
	char line[512];
	long fd;
	int ret;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_CPU_CLOCK;
	attr.freq = 1;
	attr.sample_freq = 1ULL << 62;
	attr.disabled = 1;

	fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd >= 0) {
		printf("perf_event_open unexpectedly succeeded\n");
		close((int)fd);
		return 0;
	}

	/* The short way: perror() plus the description, if any. */
	exterr_perror("perf_event_open");

	/* The long way, for programs that log differently. */
	errno = EINVAL;
	syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	ret = exterr_fetch(&err);
	if (ret == -EOPNOTSUPP) {
		printf("libexterr %s: this kernel has no exterr\n",
		       exterr_version());
		return 0;
	}
	if (ret) {
		printf("no description: %s\n", strerror(-ret));
		return 0;
	}
	exterr_format(err, line, sizeof(line));
	printf("%s\n", line);
	if (exterr_field(err, "attr_field"))
		printf("offending field: %s\n",
		       exterr_field(err, "attr_field"));
	exterr_free(err);
	return 0;
}

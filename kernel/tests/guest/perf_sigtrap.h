/* SPDX-License-Identifier: GPL-2.0 */
/* A perf_event_open() request the patched kernel rejects with a description. */
#ifndef EXTERR_PERF_SIGTRAP_H
#define EXTERR_PERF_SIGTRAP_H

#include <linux/perf_event.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* A user-only software cpu-clock event: what an unprivileged task may open. */
static inline void perf_sw_clock_attr(struct perf_event_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = PERF_TYPE_SOFTWARE;
	attr->config = PERF_COUNT_SW_CPU_CLOCK;
	attr->exclude_kernel = 1;
}

/* sigtrap without remove_on_exec: EINVAL from perf_copy_attr(). */
static inline long open_sigtrap_event(void)
{
	struct perf_event_attr attr;

	perf_sw_clock_attr(&attr);
	attr.sigtrap = 1;
	return syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
}

#endif

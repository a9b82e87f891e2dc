// SPDX-License-Identifier: GPL-2.0
/*
 * The exterr:exterr_described tracepoint, read through tracefs as a tracer
 * would: enable it, let child processes make calls, read the trace.
 *
 *  - a described failure (perf_event_open() with sample_freq 2^40) gives
 *    exactly one event, in the child's name, with its system call number,
 *    errno, id, module, message and values;
 *  - an undescribed failure, a success, and an error the kernel recorded
 *    and then handled (test_exterr's "handled" case) give none;
 *  - the event does not consume the description: the child still reads
 *    it with prctl();
 *  - disabled again, the same failure gives no event.
 *
 * With --unpatched: tracefs is there and has no exterr events.
 * Exit status 0 when every check holds; the first failure is printed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "check.h"
#include "err_desc.h"
#include "perf_sigtrap.h"
#include "test_module.h"

#define TRACEFS "/sys/kernel/tracing"
#define EVENT TRACEFS "/events/exterr/exterr_described"
#define RAISE "/sys/kernel/debug/test_exterr/raise"

static char trace[1 << 16];

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_TRUNC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* The whole file into trace[], NUL-terminated; its length or -1. */
static ssize_t read_file(const char *path)
{
	int fd = open(path, O_RDONLY);
	ssize_t n = 0, r;

	if (fd < 0)
		return -1;
	while ((r = read(fd, trace + n, sizeof(trace) - 1 - n)) > 0)
		n += r;
	close(fd);
	trace[n] = '\0';
	return r < 0 ? -1 : n;
}

/* Event lines of the trace (comment lines start with '#'). */
static int count_events(void)
{
	const char *p = trace;
	int n = 0;

	if (read_file(TRACEFS "/trace") < 0)
		return -1;
	while (*p) {
		const char *end = strchrnul(p, '\n');

		if (*p != '#' && strstr(p, "exterr_described:") &&
		    strstr(p, "exterr_described:") < end)
			n++;
		p = *end ? end + 1 : end;
	}
	return n;
}

static long perf_open(struct perf_event_attr *attr)
{
	return syscall(SYS_perf_event_open, attr, 0, -1, -1, 0);
}

/*
 * In a child: the described failure, then (with @check_desc) the proof that
 * tracing left the description to the thread.
 */
static int child_described(int check_desc)
{
	struct perf_event_attr attr;
	static char desc[4096];

	perf_sw_clock_attr(&attr);
	attr.freq = 1;
	attr.sample_freq = 1ULL << 40;
	if (perf_open(&attr) != -1 || errno != EINVAL)
		return 2;
	if (check_desc &&
	    (prctl(PR_GET_ERR_DESC, desc, sizeof(desc), 0, 0) < 0 ||
	     !strstr(desc, "\"id\":\"perf.sample_freq.above_max_rate\"")))
		return 3;
	return 0;
}

/* In a child: calls that must not fire. */
static int child_quiet(void)
{
	int fd;

	if (close(-1) != -1 || errno != EBADF)	/* undescribed failure */
		return 2;
	if (getppid() < 0)			/* success */
		return 3;
	fd = open(RAISE, O_WRONLY);		/* recorded, then handled */
	if (fd < 0)
		return 5;
	if (write(fd, "handled", 7) != -1 || errno != ENOENT)
		return 4;
	close(fd);
	return 0;
}

static pid_t run(int (*fn)(int), int arg, int *status)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(fn(arg));
	if (pid < 0 || waitpid(pid, status, 0) != pid)
		return -1;
	return pid;
}

static int quiet(int unused)
{
	(void)unused;
	return child_quiet();
}

int main(int argc, char **argv)
{
	int unpatched = argc > 1 && !strcmp(argv[1], "--unpatched");
	char want[64];
	int status;
	pid_t pid;

	mkdir(TRACEFS, 0755);
	CHECK(!mount("tracefs", TRACEFS, "tracefs", 0, NULL) || errno == EBUSY);
	CHECK(access(TRACEFS "/trace", R_OK) == 0);
	if (unpatched) {
		CHECK(access(TRACEFS "/events/exterr", F_OK) == -1 &&
		      errno == ENOENT);
		printf("no exterr events on this kernel\n");
		return 0;
	}
	/* The children that make the calls inherit it. */
	CHECK(err_desc_enable() == 0);
	CHECK(read_file(EVENT "/format") > 0);
	printf("%s", trace);
	CHECK(strstr(trace, "field:int syscall;"));
	CHECK(strstr(trace, "field:int code;"));
	CHECK(strstr(trace, "field:u64 values[2];"));
	CHECK(strstr(trace, "field:__data_loc char[] id;"));
	CHECK(load_test_exterr() == 0);
	CHECK(access(RAISE, W_OK) == 0);

	/* Enabled: one event for the described failure, none otherwise. */
	CHECK(write_file(TRACEFS "/trace", "") == 0);
	CHECK(write_file(EVENT "/enable", "1") == 0);
	pid = run(child_described, 1, &status);
	CHECK(pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK(count_events() == 1);
	printf("%s", trace);
	snprintf(want, sizeof(want), "-%d ", (int)pid);
	CHECK(strstr(trace, want));
	snprintf(want, sizeof(want), "syscall=%d code=%d ",
		 (int)SYS_perf_event_open, -EINVAL);
	CHECK(strstr(trace, want));
	CHECK(strstr(trace, " id=perf.sample_freq.above_max_rate module=perf "));
	CHECK(strstr(trace, " values=\"sample_freq=1099511627776 limit="));
	CHECK(strstr(trace,
		     " message=\"sample_freq above kernel.perf_event_max_sample_rate\""));

	CHECK(run(quiet, 0, &status) > 0);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK(count_events() == 1);

	/* Disabled again: nothing, and the description is still there. */
	CHECK(write_file(EVENT "/enable", "0") == 0);
	CHECK(write_file(TRACEFS "/trace", "") == 0);
	pid = run(child_described, 1, &status);
	CHECK(pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK(count_events() == 0);
	printf("exterr_described: one event per described call, none otherwise\n");
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Guest side of the strace test: run upstream strace (/strace-upstream)
 * and the patched one (/strace-patched, with and without
 * --kernel-errors) on kerr_workload and on the perf and V4L2 selftests,
 * and print each run's trace and output between markers for the host
 * (compare.py) to check. The same program runs on the patched and the
 * unpatched kernel. Usage: strace_cases
 *
 * strace_cases --overhead N REPEAT: time (the guest clock: instructions
 * under vm-run --icount) N calls of each kind of kerr_workload --loop,
 * untraced and under each strace, the best of REPEAT runs, and print
 * "=== OVERHEAD KIND TRACER NANOSECONDS".
 *
 * Each run: "=== BEGIN NAME", the trace ("T " + line), the traced
 * program's output ("O " + line), "=== END NAME status N".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../guest/vivid.h"

#ifndef PR_GET_ERR_DESC
#define PR_GET_ERR_DESC	0x45525244
#endif
#define RUN_TIMEOUT	300
#define MAX_ARGS	32
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* The workload's calls: nothing else it makes is traced. */
#define TRACED		"trace=perf_event_open,ioctl,close,lseek"

static char node[32] = "-";
static int exterr_kernel;

static void print_file(const char *path, const char *prefix)
{
	char line[16384];
	FILE *f = fopen(path, "r");
	size_t len;

	while (f && fgets(line, sizeof(line), f)) {
		len = strlen(line);
		printf("%s%s%s", prefix, line,
		       len && line[len - 1] == '\n' ? "" : "\n");
	}
	if (f)
		fclose(f);
}

/* Start argv (NULL-terminated) with its output in @out; its pid. */
static pid_t spawn(char **argv, const char *out)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		exit(2);
	if (!pid) {
		int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
			_exit(126);
		alarm(RUN_TIMEOUT);
		execv(argv[0], argv);
		_exit(127);
	}
	return pid;
}

/* Wait for @pid and print case @name: @trace (if any), @out, the status. */
static void end_case(const char *name, pid_t pid, const char *trace,
		     const char *out)
{
	int status;

	if (waitpid(pid, &status, 0) != pid)
		exit(2);
	printf("=== BEGIN %s\n", name);
	if (trace)
		print_file(trace, "T ");
	print_file(out, "O ");
	printf("=== END %s status %d\n", name,
	       WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
}

/* Run argv (NULL-terminated) with its output in /tmp/out; print both. */
static void run(const char *name, char **argv)
{
	unlink("/tmp/trace");
	end_case(name, spawn(argv, "/tmp/out"), "/tmp/trace", "/tmp/out");
}

/*
 * Run @strace with @opts (NULL-terminated, then the traced command,
 * NULL-terminated) as case @name.
 */
static void run_strace(const char *name, const char *strace, ...)
{
	char *argv[MAX_ARGS + 1];
	int argc = 0, nulls = 0;
	const char *a;
	va_list ap;

	argv[argc++] = (char *)strace;
	argv[argc++] = "-o";
	argv[argc++] = "/tmp/trace";
	va_start(ap, strace);
	while (nulls < 2 && argc < MAX_ARGS) {
		a = va_arg(ap, const char *);
		if (!a) {
			nulls++;
			continue;
		}
		argv[argc++] = (char *)a;
	}
	va_end(ap);
	argv[argc] = NULL;
	run(name, argv);
}

/*
 * strace -p: the workload started on its own (it never enables
 * descriptions), then @strace attached to it as case @name; the
 * workload's own output is case @name-workload. It waits to make its
 * calls until its process records, which the patched strace arranges at
 * its first stop (PTRACE_SET_ERR_DESC_ENABLED), so that every call is
 * traced and can be described.
 */
static void run_attach(const char *name, const char *strace)
{
	char *argv[] = { "/kerr_workload", "--attached", node, NULL };
	char pid_arg[16], wname[64];
	pid_t pid;

	pid = spawn(argv, "/tmp/attached");
	snprintf(pid_arg, sizeof(pid_arg), "%d", (int)pid);
	run_strace(name, strace, "-qq", "-e", "signal=none", "-e", TRACED,
		   "-p", pid_arg, NULL, NULL);
	snprintf(wname, sizeof(wname), "%s-workload", name);
	end_case(wname, pid, NULL, "/tmp/attached");
}

/* The selftests' flag for a kernel without exterr. */
static char *selftest_flag(void)
{
	return exterr_kernel ? NULL : "--no-exterr";
}

static void find_node(void)
{
	int fd, i;

	if (vivid_load())
		return;
	fd = vivid_open_capture();
	if (fd < 0)
		return;
	/* vivid_open_capture() tried /dev/video0.. in order: find which. */
	for (i = 0; i < 64; i++) {
		char path[32];
		struct stat a, b;

		snprintf(path, sizeof(path), "/dev/video%d", i);
		if (!stat(path, &a) && !fstat(fd, &b) && a.st_rdev == b.st_rdev) {
			strcpy(node, path);
			break;
		}
	}
	close(fd);
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Run argv with its output to /dev/null; the time it took, or -1. */
static long long time_run(char **argv)
{
	long long start = now_ns();
	int status;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		int fd = open("/dev/null", O_WRONLY);

		if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
			_exit(126);
		execv(argv[0], argv);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		return -1;
	return now_ns() - start;
}

static int overhead(char *n, int repeat)
{
	static char *const kinds[] = { "described", "undescribed", "ok" };
	/* A name, then the tracer's command line (none: untraced). */
	static char *const tracers[][6] = {
		{ "none" },
		{ "upstream", "/strace-upstream", "-o", "/dev/null" },
		{ "patched", "/strace-patched", "-o", "/dev/null" },
		{ "off", "/strace-patched", "--kernel-errors=no", "-o", "/dev/null" },
	};
	unsigned int k, t, i;
	int r;

	for (k = 0; k < ARRAY_SIZE(kinds); k++) {
		for (t = 0; t < ARRAY_SIZE(tracers); t++) {
			long long best = -1, ns;
			char *argv[12];
			int argc = 0;

			for (i = 1; i < 6 && tracers[t][i]; i++)
				argv[argc++] = tracers[t][i];
			argv[argc++] = "/kerr_workload";
			argv[argc++] = "--loop";
			argv[argc++] = kinds[k];
			argv[argc++] = n;
			argv[argc] = NULL;
			for (r = 0; r < repeat; r++) {
				ns = time_run(argv);
				if (ns < 0)
					return 1;
				if (best < 0 || ns < best)
					best = ns;
			}
			printf("=== OVERHEAD %s %s %lld\n", kinds[k],
			       tracers[t][0], best);
		}
	}
	printf("=== DONE\n");
	return 0;
}

int main(int argc, char **argv)
{
	static const char *const straces[][2] = {
		{ "upstream", "/strace-upstream" },
		{ "patched", "/strace-patched" },
	};
	char name[64];
	unsigned int i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 4 && !strcmp(argv[1], "--overhead"))
		return overhead(argv[2], atoi(argv[3]));
	/*
	 * An exterr kernel answers ENODATA: nothing pending (nor recorded:
	 * this program never enables descriptions, since every process it
	 * starts would inherit that, upstream strace's tracees too; the
	 * patched strace is to enable them for its own).
	 */
	exterr_kernel = prctl(PR_GET_ERR_DESC, NULL, 0, 0, 0) < 0 &&
			errno == ENODATA;
	find_node();
	printf("=== KERNEL %s node %s\n", exterr_kernel ? "exterr" : "plain", node);

	for (i = 0; i < 2; i++) {
		const char *s = straces[i][1];

		snprintf(name, sizeof(name), "work-%s", straces[i][0]);
		run_strace(name, s, "-qq", "-e", "signal=none", "-e", TRACED,
			   NULL, "/kerr_workload", node, NULL);
		snprintf(name, sizeof(name), "full-%s", straces[i][0]);
		run_strace(name, s, NULL, "/kerr_workload", node, NULL);
		snprintf(name, sizeof(name), "perf-%s", straces[i][0]);
		run_strace(name, s, "-f", "-qq", "-e", "signal=none", "-e",
			   "trace=perf_event_open", NULL, "/perf_test",
			   selftest_flag(), NULL);
		snprintf(name, sizeof(name), "v4l2-%s", straces[i][0]);
		run_strace(name, s, "-f", "-qq", "-e", "signal=none", "-e",
			   "trace=ioctl", NULL, "/v4l2_test", selftest_flag(),
			   NULL);
	}
	run_strace("work-off", "/strace-patched", "--kernel-errors=no", "-qq",
		   "-e", "signal=none", "-e", TRACED, NULL,
		   "/kerr_workload", node, NULL);
	run_strace("work-verbose", "/strace-patched", "--kernel-errors=verbose",
		   "-qq", "-e", "signal=none", "-e", TRACED, NULL,
		   "/kerr_workload", node, NULL);
	run_strace("full-off", "/strace-patched", "--kernel-errors=no", NULL,
		   "/kerr_workload", node, NULL);
	run_strace("full-verbose", "/strace-patched", "--kernel-errors=verbose",
		   NULL, "/kerr_workload", node, NULL);
	run_strace("perf-off", "/strace-patched", "--kernel-errors=no", "-f",
		   "-qq", "-e", "signal=none", "-e", "trace=perf_event_open",
		   NULL, "/perf_test", selftest_flag(), NULL);
	run_strace("v4l2-off", "/strace-patched", "--kernel-errors=no", "-f",
		   "-qq", "-e", "signal=none", "-e", "trace=ioctl", NULL,
		   "/v4l2_test", selftest_flag(), NULL);
	/* Only where the patched strace can enable descriptions. */
	if (exterr_kernel)
		run_attach("attach-patched", "/strace-patched");
	/*
	 * How many PTRACE_GET_ERR_DESC requests (0x4212) the patched strace
	 * makes: upstream strace traces the patched one (not its tracee).
	 */
	run_strace("probe-yes", "/strace-upstream", "-qq", "-e", "signal=none",
		   "-e", "trace=ptrace", NULL, "/strace-patched", "-o",
		   "/tmp/inner", "-e", TRACED, "/kerr_workload", node, NULL);
	run_strace("probe-verbose", "/strace-upstream", "-qq", "-e",
		   "signal=none", "-e", "trace=ptrace", NULL, "/strace-patched",
		   "--kernel-errors=verbose", "-o", "/tmp/inner", "-e", TRACED,
		   "/kerr_workload", node, NULL);
	run_strace("probe-off", "/strace-upstream", "-qq", "-e", "signal=none",
		   "-e", "trace=ptrace", NULL, "/strace-patched",
		   "--kernel-errors=no", "-o", "/tmp/inner", "-e", TRACED,
		   "/kerr_workload", node, NULL);
	printf("=== DONE\n");
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The program strace traces in the strace test: a fixed sequence of
 * perf_event_open(), ioctl() on vivid, close() and lseek() calls that
 * fail with and without a description from the kernel, succeed, and
 * succeed with a note. After each call it reads the description itself
 * with prctl(PR_GET_ERR_DESC, ..., PR_ERR_DESC_NOTES), which also shows
 * that strace did not take it away. It prints nothing until all calls
 * are made (so stdio adds no traced call in between) and then one line
 * per call, in the order of the calls:
 *
 *   CALL <name> <return value> <errno or 0> <JSON or "-">
 *
 * It does not enable descriptions itself (they are opt-in per process):
 * under the patched strace it gets them from strace, which enables them
 * for itself and so for the processes it starts; that is what the test
 * checks. Under upstream strace it reads none, on either kernel. The
 * --loop mode enables them, so that its described failures are recorded
 * under every tracer alike. The --attached mode is for strace -p: the
 * workload starts on its own and makes its calls once its process records,
 * which the patched strace arranges when it attaches.
 *
 * Usage: kerr_workload VIDEO_NODE    (vivid's capture node; "-": none)
 *        kerr_workload --attached VIDEO_NODE
 *                                    (the same, once descriptions are on:
 *                                     it waits for that up to 60 s)
 *        kerr_workload --loop KIND N (KIND described, undescribed or ok:
 *                                     N such calls, for the overhead)
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <linux/videodev2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "../guest/err_desc.h"

#define PR_ERR_DESC_NOTES	1
#define MAX_CALLS		32

struct record {
	const char *name;
	long ret;
	int err;
	char json[1024];
};

static struct record records[MAX_CALLS];
static unsigned int nrecords;

/* Note the result of the call just made, with what the kernel says. */
static void note(const char *name, long ret)
{
	struct record *r = &records[nrecords++];
	int err = ret < 0 ? errno : 0;

	r->name = name;
	r->ret = ret;
	r->err = err;
	if (prctl(PR_GET_ERR_DESC, r->json, sizeof(r->json),
		  PR_ERR_DESC_NOTES, 0) < 0)
		strcpy(r->json, "-");
}

static long perf_open(struct perf_event_attr *attr)
{
	attr->size = sizeof(*attr);
	return syscall(SYS_perf_event_open, attr, 0, -1, -1, 0);
}

static void perf_calls(void)
{
	struct perf_event_attr attr;
	long fd;

	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_CPU_CLOCK;
	attr.freq = 1;
	attr.sample_freq = 1ULL << 40;
	note("perf_event_open", perf_open(&attr));
	/* Another error: the description above must not show again. */
	note("close", close(-1));

	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_CPU_CLOCK;
	attr.sample_period = 1ULL << 63;
	note("perf_event_open", perf_open(&attr));
	/* The same errno with no description of its own. */
	note("lseek", lseek(1, 0, 99));

	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = 99;
	note("perf_event_open", perf_open(&attr));

	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_BREAKPOINT;
	attr.bp_type = HW_BREAKPOINT_W;
	attr.bp_addr = 0x1000;
	attr.bp_len = 3;
	note("perf_event_open", perf_open(&attr));

	/* Success, then a success that closes it. */
	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_TASK_CLOCK;
	attr.disabled = 1;
	fd = perf_open(&attr);
	note("perf_event_open", fd);
	if (fd >= 0)
		note("close", close(fd));
}

static void v4l2_calls(const char *node)
{
	struct v4l2_format fmt;
	struct v4l2_input input;
	int fd, index = 99;

	fd = open(node, O_RDWR);
	if (fd < 0)
		return;
	memset(&input, 0, sizeof(input));
	input.index = 99;
	note("ioctl", ioctl(fd, VIDIOC_ENUMINPUT, &input));
	note("ioctl", ioctl(fd, VIDIOC_S_INPUT, &index));

	memset(&fmt, 0, sizeof(fmt));
	fmt.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	note("ioctl", ioctl(fd, VIDIOC_G_FMT, &fmt));
	/* An unknown pixelformat: replaced, and a note says so. */
	fmt.fmt.pix.pixelformat = v4l2_fourcc('X', 'X', 'X', 'X');
	note("ioctl", ioctl(fd, VIDIOC_S_FMT, &fmt));
	/* A failure right after a note. */
	note("close", close(-1));
	note("close", close(fd));
}

/* Many calls of one kind, nothing else, for the overhead measurement. */
static int loop(const char *kind, long n)
{
	struct perf_event_attr attr;
	long i;

	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_CPU_CLOCK;
	attr.freq = 1;
	attr.sample_freq = 1ULL << 40;
	attr.size = sizeof(attr);
	/* Untraced and under any strace alike; EINVAL without exterr. */
	err_desc_enable();
	for (i = 0; i < n; i++) {
		if (!strcmp(kind, "described"))
			syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
		else if (!strcmp(kind, "undescribed"))
			close(-1);
		else
			getppid();
	}
	return 0;
}

/*
 * Until a tracer enables descriptions for this process (or 60 s have
 * passed): asleep, with calls no test traces. The milliseconds waited.
 */
static long wait_enabled(void)
{
	struct timespec nap = { .tv_nsec = 10000000 };
	long waited;

	for (waited = 0; waited < 60000 && err_desc_enabled() != 1;
	     waited += 10)
		nanosleep(&nap, NULL);
	return waited;
}

int main(int argc, char **argv)
{
	long waited = -1;
	unsigned int i;

	if (argc == 4 && !strcmp(argv[1], "--loop"))
		return loop(argv[2], atol(argv[3]));
	if (argc == 3 && !strcmp(argv[1], "--attached")) {
		waited = wait_enabled();
		argv++;
		argc--;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: kerr_workload [--attached] VIDEO_NODE|-\n");
		return 2;
	}
	perf_calls();
	if (strcmp(argv[1], "-"))
		v4l2_calls(argv[1]);
	if (waited >= 0)
		printf("ENABLED %s after %ld ms\n",
		       err_desc_enabled() == 1 ? "yes" : "no", waited);
	for (i = 0; i < nrecords; i++)
		printf("CALL %s %ld %d %s\n", records[i].name, records[i].ret,
		       records[i].err, records[i].json);
	return 0;
}

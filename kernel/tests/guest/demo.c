// SPDX-License-Identifier: GPL-2.0
/*
 * The README's demo: a failing perf_event_open() and a failing
 * VIDIOC_S_FMT (vivid, loaded as a module), each with the bare errno that
 * every kernel gives next to what the exterr kernel adds.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <exterr.h>

#include "perf_sigtrap.h"
#include "vivid.h"

/* Print errno @e and the pending description; 0 when they agree. */
static int show(int e)
{
	struct exterr *err;
	char line[512];
	int ret;

	printf("  errno alone:   %s (%s)\n", strerrorname_np(e), strerror(e));
	ret = exterr_fetch(&err);
	if (ret) {
		printf("  extended:      none (%s)\n", strerror(-ret));
		return 1;
	}
	exterr_format(err, line, sizeof(line));
	printf("  extended:      %s\n", line);
	printf("  raw JSON:      %s\n\n", err->json);
	ret = err->error == e ? 0 : 1;
	exterr_free(err);
	return ret;
}

int main(void)
{
	struct v4l2_format fmt = { .type = V4L2_BUF_TYPE_VIDEO_OUTPUT };
	int fd, bad;

	if (open_sigtrap_event() >= 0) {
		printf("perf_event_open() unexpectedly succeeded\n");
		return 1;
	}
	printf("\nperf_event_open(sigtrap=1, remove_on_exec=0) = -1\n");
	bad = show(errno);

	fd = vivid_load() ? -1 : vivid_open_capture();
	if (fd < 0) {
		printf("vivid: no video capture node\n");
		return 1;
	}
	if (!ioctl(fd, VIDIOC_S_FMT, &fmt)) {
		printf("VIDIOC_S_FMT unexpectedly succeeded\n");
		return 1;
	}
	printf("ioctl(/dev/video (vivid capture), VIDIOC_S_FMT, type=VIDEO_OUTPUT) = -1\n");
	bad |= show(errno);
	close(fd);
	return bad;
}

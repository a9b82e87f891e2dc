// SPDX-License-Identifier: GPL-2.0
/*
 * The README's demo: a failing perf_event_open(), with the bare errno that
 * every kernel gives next to what the exterr kernel adds.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <exterr.h>

#include "perf_sigtrap.h"

int main(void)
{
	struct exterr *err;
	char line[512];
	int e, ret;

	if (open_sigtrap_event() >= 0) {
		printf("perf_event_open() unexpectedly succeeded\n");
		return 1;
	}
	e = errno;
	printf("\nperf_event_open(sigtrap=1, remove_on_exec=0) = -1\n");
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

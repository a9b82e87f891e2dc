// SPDX-License-Identifier: GPL-2.0
/*
 * libexterr against a real kernel: on the patched kernel exterr_fetch()
 * must return the perf description (and then -ENODATA), and the formatted
 * line must name the field; with --expect-unsupported (the unpatched
 * kernel) it must return -EOPNOTSUPP and leave errno alone.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <exterr.h>

#include "perf_sigtrap.h"
#include "check.h"

static int expect_unsupported(void)
{
	struct exterr *err = (struct exterr *)1;

	CHECK(open_sigtrap_event() == -1 && errno == EINVAL);
	errno = EINVAL;
	CHECK(exterr_fetch(&err) == -EOPNOTSUPP);
	CHECK(err == NULL);
	CHECK(errno == EINVAL);
	printf("ok unpatched kernel: exterr_fetch() = -EOPNOTSUPP\n");
	return 0;
}

int main(int argc, char **argv)
{
	struct exterr *err = NULL;
	char line[512];
	int n;

	if (argc > 1 && !strcmp(argv[1], "--expect-unsupported"))
		return expect_unsupported();

	CHECK(exterr_fetch(&err) == -ENODATA);
	CHECK(open_sigtrap_event() == -1 && errno == EINVAL);
	CHECK(exterr_fetch(&err) == 0);
	CHECK(err->error == EINVAL);
	CHECK(!strcmp(err->module, "perf"));
	CHECK(!strcmp(err->file, "kernel/events/core.c"));
	CHECK(err->line > 0);
	CHECK(err->syscall == SYS_perf_event_open);
	CHECK(exterr_field(err, "attr_field") &&
	      !strcmp(exterr_field(err, "attr_field"), "sigtrap"));
	n = exterr_format(err, line, sizeof(line));
	CHECK(n > 0 && (size_t)n < sizeof(line));
	CHECK(strstr(line, "Invalid argument: sigtrap requires remove_on_exec [perf attr_field=sigtrap] (kernel/events/core.c:") == line);
	printf("ok %s\n", line);
	exterr_free(err);
	/* Fetching consumed it. */
	CHECK(exterr_fetch(&err) == -ENODATA);
	printf("ok exterr_fetch() consumed the description\n");
	return 0;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Error cases shared by the reliability programs (rel_stress, rel_faults,
 * rel_hostile): system calls the patched kernel fails with a description,
 * through test_exterr.ko's debugfs file and through perf_event_open().
 *
 * rel_calibrate() records, single-threaded, the one description each case
 * produces; later checks compare fetched descriptions with it byte for
 * byte, so a stale description or another thread's shows up as a mismatch.
 */
#ifndef EXTERR_REL_CASES_H
#define EXTERR_REL_CASES_H

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <exterr.h>

#include "err_desc.h"
#include "perf_sigtrap.h"

#define REL_RAISE "/sys/kernel/debug/test_exterr/raise"
#define REL_MODULE "test_exterr"
#define REL_MODULE_KO "/modules/test_exterr.ko"

/* Print a failure with its place and give up: the host sees the status. */
#define REL_FAIL(...) do {						\
	fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);		\
	fprintf(stderr, __VA_ARGS__);					\
	fputc('\n', stderr);						\
	exit(1);							\
} while (0)

#define REL_CHECK(cond) do {						\
	if (!(cond))							\
		REL_FAIL("%s (errno %d)", #cond, errno);		\
} while (0)

static inline long rel_prctl(void *buf, unsigned long size,
			     unsigned long a4, unsigned long a5)
{
	return syscall(SYS_prctl, PR_GET_ERR_DESC, buf, size, a4, a5);
}

/*
 * Descriptions are opt-in. These programs run on the patched kernel only
 * and every check of theirs needs them: enable them first in main(), for
 * every thread and child to come. (libexterr's constructor would, but
 * only exterr_parse() is linked here, whose object file has none.)
 */
static inline void rel_enable(void)
{
	REL_CHECK(err_desc_enable() == 0);
	REL_CHECK(err_desc_enabled() == 1);
}

struct rel_case {
	const char *name;
	/* test_exterr case name, or NULL for a perf case */
	const char *raise;
	void (*perf)(struct perf_event_attr *attr);
	int err;		/* the errno the call fails with */
};

static void perf_size_1(struct perf_event_attr *a)
{
	a->size = 1;
}

static void perf_type_1234(struct perf_event_attr *a)
{
	a->type = 1234;
}

static void perf_reserved_2(struct perf_event_attr *a)
{
	a->__reserved_2 = 1;
}

static void perf_sample_63(struct perf_event_attr *a)
{
	a->sample_type = 1ULL << 63;
}

static void perf_read_5(struct perf_event_attr *a)
{
	a->read_format = 1ULL << 5;
}

static void perf_sigtrap(struct perf_event_attr *a)
{
	a->sigtrap = 1;
}

static void perf_inherit_thread(struct perf_event_attr *a)
{
	a->inherit_thread = 1;
}

static void perf_clockid(struct perf_event_attr *a)
{
	a->use_clockid = 1;
	a->clockid = 1234;
}

static void perf_stack_7(struct perf_event_attr *a)
{
	a->sample_type = PERF_SAMPLE_STACK_USER;
	a->sample_stack_user = 7;
}

static void perf_sw_config(struct perf_event_attr *a)
{
	a->config = 99;		/* no such software event */
}

/* Every case has its own site, so every description differs. */
static const struct rel_case rel_cases[] = {
	{ "einval", "einval", NULL, EINVAL },
	{ "enoent", "enoent", NULL, ENOENT },
	{ "e2big", "e2big", NULL, E2BIG },
	{ "hostile", "hostile", NULL, EINVAL },
	{ "long", "long", NULL, EMSGSIZE },
	{ "unknown", "no-such-case", NULL, EOPNOTSUPP },
	{ "perf-size-1", NULL, perf_size_1, E2BIG },
	{ "perf-type-1234", NULL, perf_type_1234, ENOENT },
	{ "perf-reserved-2", NULL, perf_reserved_2, EINVAL },
	{ "perf-sample-63", NULL, perf_sample_63, EINVAL },
	{ "perf-read-5", NULL, perf_read_5, EINVAL },
	{ "perf-sigtrap", NULL, perf_sigtrap, EINVAL },
	{ "perf-inherit-thread", NULL, perf_inherit_thread, EINVAL },
	{ "perf-clockid", NULL, perf_clockid, EINVAL },
	{ "perf-stack-7", NULL, perf_stack_7, EINVAL },
	{ "perf-sw-config", NULL, perf_sw_config, ENOENT },
};

#define REL_NCASES (sizeof(rel_cases) / sizeof(rel_cases[0]))

/* What each case's description must be, from rel_calibrate(). */
static char *rel_expected[REL_NCASES];

static inline long rel_perf_open(const struct rel_case *c)
{
	struct perf_event_attr attr;

	perf_sw_clock_attr(&attr);
	attr.exclude_hv = 1;
	c->perf(&attr);
	return syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
}

/*
 * Make the case's system call fail. Returns its errno (0 if it did not
 * fail), or -1 when the test module is not loaded. A module case leaves
 * the debugfs file open in *fdp, which pins the module until
 * rel_done() closes it, so the description cannot go away meanwhile.
 */
static inline int rel_cause(const struct rel_case *c, int *fdp)
{
	long r;

	*fdp = -1;
	if (c->raise) {
		*fdp = open(REL_RAISE, O_WRONLY);
		if (*fdp < 0)
			return -1;
		r = write(*fdp, c->raise, strlen(c->raise));
	} else {
		r = rel_perf_open(c);
		if (r >= 0)
			close(r);
	}
	return r < 0 ? errno : 0;
}

static inline void rel_done(int fd)
{
	if (fd >= 0)
		close(fd);
}

/*
 * Fetch the pending description the way libexterr does (ask the size,
 * then copy). Returns a malloc()ed string, or NULL with errno set.
 */
static inline char *rel_fetch(void)
{
	long size = rel_prctl(NULL, 0, 0, 0), len;
	char *buf;

	if (size < 0)
		return NULL;
	buf = malloc(size);
	REL_CHECK(buf);
	len = rel_prctl(buf, size, 0, 0);
	if (len < 0) {
		free(buf);
		return NULL;
	}
	if (len != size - 1 || strlen(buf) != (size_t)len)
		REL_FAIL("length %ld for size %ld", len, size);
	return buf;
}

/* The description must be exactly case i's; then nothing is pending. */
static inline void rel_expect(size_t i, const char *who)
{
	char *got = rel_fetch();

	if (!got)
		REL_FAIL("%s: %s: no description (errno %d)", who,
			 rel_cases[i].name, errno);
	if (strcmp(got, rel_expected[i]))
		REL_FAIL("%s: %s: got %s, want %s", who, rel_cases[i].name,
			 got, rel_expected[i]);
	free(got);
	errno = 0;
	if (rel_prctl(NULL, 0, 0, 0) != -1 || errno != ENODATA)
		REL_FAIL("%s: %s: still pending after the fetch", who,
			 rel_cases[i].name);
}

static inline int rel_load_module(void)
{
	int fd = open(REL_MODULE_KO, O_RDONLY), r;

	if (fd < 0)
		return -errno;
	r = syscall(SYS_finit_module, fd, "", 0);
	if (r)
		r = -errno;
	close(fd);
	return r == -EEXIST ? 0 : r;
}

/* Drop whatever is pending, so that the next fetch is the next error. */
static inline void rel_drain(void)
{
	free(rel_fetch());
}

/*
 * Record every case's description once, check it with libexterr's strict
 * parser (code, syscall), check all are distinct, and print each for the
 * host's scan of descriptions.
 */
static inline void rel_calibrate(void)
{
	struct exterr *e;
	size_t i, j;
	int fd, err;

	REL_CHECK(rel_load_module() == 0);
	rel_drain();
	for (i = 0; i < REL_NCASES; i++) {
		const struct rel_case *c = &rel_cases[i];
		long want_nr = c->raise ? SYS_write : SYS_perf_event_open;

		err = rel_cause(c, &fd);
		if (err != c->err)
			REL_FAIL("%s: errno %d, want %d", c->name, err, c->err);
		rel_expected[i] = rel_fetch();
		rel_done(fd);
		if (!rel_expected[i])
			REL_FAIL("%s: no description (errno %d)", c->name, errno);
		printf("# exterr-json: %s\n", rel_expected[i]);
		err = exterr_parse(rel_expected[i], strlen(rel_expected[i]), &e);
		if (err)
			REL_FAIL("%s: libexterr rejects it: %d", c->name, err);
		if (e->error != c->err || e->syscall != want_nr)
			REL_FAIL("%s: error %d syscall %d", c->name, e->error,
				 e->syscall);
		exterr_free(e);
		for (j = 0; j < i; j++)
			if (!strcmp(rel_expected[i], rel_expected[j]))
				REL_FAIL("%s and %s describe alike", c->name,
					 rel_cases[j].name);
	}
	printf("calibrated %zu distinct descriptions\n", REL_NCASES);
}

#endif

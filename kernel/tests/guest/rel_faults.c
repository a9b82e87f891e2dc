// SPDX-License-Identifier: GPL-2.0
/*
 * Allocation failures (FAILSLAB with fail-nth) against the mechanism.
 *
 * 1. prctl(PR_GET_ERR_DESC): for every case and for both the size query
 *    and the copy, fail its 1st, 2nd, ... slab allocation until the call
 *    no longer allocates that many. Each injected failure must give
 *    -1/ENOMEM and leave the description pending: the next fetch gets it
 *    whole. ("long" needs a second, larger buffer: that is the 2nd.)
 * 2. perf_event_open() of a valid event, failing each of its allocations
 *    in turn: whatever it returns, a description left pending must be one
 *    of that call's, with its errno (never a made-up or an older one).
 *
 * Needs CONFIG_FAILSLAB, CONFIG_FAULT_INJECTION_DEBUG_FS and debugfs.
 */
#include "rel_cases.h"

#define FAILSLAB "/sys/kernel/debug/failslab/"
#define MAX_NTH 64

static unsigned long injected, fetch_calls, perf_calls;

static void write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		REL_FAIL("writing %s to %s: %s", text, path, strerror(errno));
	close(fd);
}

static int fail_nth_fd(void)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/proc/self/task/%ld/fail-nth",
		 (long)syscall(SYS_gettid));
	fd = open(path, O_RDWR);
	REL_CHECK(fd >= 0);
	return fd;
}

/* Fail the nth slab allocation from now on in this thread. */
static void arm(int fd, int nth)
{
	char text[16];
	int len = snprintf(text, sizeof(text), "%d", nth);

	REL_CHECK(pwrite(fd, text, len, 0) == len);
}

/* Disarm; return whether the armed failure happened. */
static int disarm(int fd)
{
	char text[16] = "";
	int left;

	REL_CHECK(pread(fd, text, sizeof(text) - 1, 0) > 0);
	left = atoi(text);
	REL_CHECK(pwrite(fd, "0", 1, 0) == 1);
	if (left == 0)
		injected++;
	return left == 0;
}

/* One prctl() call with allocation nth failing; 1 if it was injected. */
static int fault_fetch(int nthfd, size_t i, int nth, int query)
{
	long len = strlen(rel_expected[i]), r;
	char buf[4096];
	int hit, fd;

	REL_CHECK(rel_cause(&rel_cases[i], &fd) == rel_cases[i].err);
	arm(nthfd, nth);
	r = query ? rel_prctl(NULL, 0, 0, 0) : rel_prctl(buf, sizeof(buf), 0, 0);
	hit = disarm(nthfd);
	fetch_calls++;
	if (hit) {
		if (r != -1 || errno != ENOMEM)
			REL_FAIL("%s nth %d: %ld errno %d, want ENOMEM",
				 rel_cases[i].name, nth, r, errno);
		/* Still pending, whole. */
		rel_expect(i, "after ENOMEM");
	} else if (query) {
		REL_CHECK(r == len + 1);
		rel_expect(i, "after the size query");
	} else {
		REL_CHECK(r == len && !strcmp(buf, rel_expected[i]));
		errno = 0;
		REL_CHECK(rel_prctl(NULL, 0, 0, 0) == -1 && errno == ENODATA);
	}
	rel_done(fd);
	return hit;
}

static void fault_fetches(int nthfd)
{
	int nth, query, hits;
	size_t i;

	for (i = 0; i < REL_NCASES; i++) {
		for (query = 0; query <= 1; query++) {
			hits = 0;
			for (nth = 1; nth <= MAX_NTH; nth++) {
				if (!fault_fetch(nthfd, i, nth, query))
					break;
				hits++;
			}
			REL_CHECK(nth <= MAX_NTH);
			/* Each fetch allocates; "long" twice. */
			if (hits != (strlen(rel_expected[i]) >= 512 ? 2 : 1))
				REL_FAIL("%s: %d allocations in prctl",
					 rel_cases[i].name, hits);
		}
	}
}

/* perf_event_open() with allocation nth failing; 1 if it was injected. */
static int fault_perf(int nthfd, int nth)
{
	struct perf_event_attr attr;
	struct exterr *e;
	char *desc;
	int hit, saved;
	long fd;

	perf_sw_clock_attr(&attr);
	attr.config = PERF_COUNT_SW_TASK_CLOCK;
	attr.exclude_hv = 1;
	rel_drain();
	arm(nthfd, nth);
	fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	saved = errno;
	hit = disarm(nthfd);
	perf_calls++;
	if (fd >= 0) {
		close(fd);
		/* A success records nothing. */
		errno = 0;
		REL_CHECK(rel_prctl(NULL, 0, 0, 0) == -1 && errno == ENODATA);
		return hit;
	}
	if (!hit)
		REL_FAIL("perf_event_open failed (%d) with no fault", saved);
	desc = rel_fetch();
	if (!desc)
		return hit;
	printf("# exterr-json: %s\n", desc);
	REL_CHECK(exterr_parse(desc, strlen(desc), &e) == 0);
	if (e->error != saved || e->syscall != SYS_perf_event_open)
		REL_FAIL("errno %d but described %s", saved, desc);
	exterr_free(e);
	free(desc);
	return hit;
}

int main(void)
{
	int nthfd, nth;

	setvbuf(stdout, NULL, _IOLBF, 0);
	rel_calibrate();
	/* Let fail-nth fail GFP_KERNEL allocations too, quietly. */
	write_file(FAILSLAB "ignore-gfp-wait", "N");
	write_file(FAILSLAB "verbose", "0");
	nthfd = fail_nth_fd();

	fault_fetches(nthfd);
	printf("prctl: %lu calls, %lu allocation failures injected\n",
	       fetch_calls, injected);

	for (nth = 1; nth <= MAX_NTH; nth++)
		if (!fault_perf(nthfd, nth))
			break;
	REL_CHECK(nth > 1 && nth <= MAX_NTH);
	printf("perf_event_open: %lu calls, %d allocation failures injected\n",
	       perf_calls, nth - 1);
	printf("faults: %lu injected in all\n", injected);
	printf("ok faults\n");
	return 0;
}

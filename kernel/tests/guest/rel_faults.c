// SPDX-License-Identifier: GPL-2.0
/*
 * Allocation failures (FAILSLAB with fail-nth) against the mechanism.
 *
 * 0. prctl(PR_SET_ERR_DESC_ENABLED), the opt-in, with its 1st, 2nd, ...
 *    slab allocation failing: each injected failure gives either -1/ENOMEM
 *    with the process still not enabled, or success with it enabled;
 *    once no allocation is left to fail, it succeeds.
 * 1. prctl(PR_GET_ERR_DESC): a site's description is rendered at its
 *    first fetch and kept, so no later fetch (size query or copy)
 *    allocates: with the 1st slab allocation armed to fail, each still
 *    succeeds. The first fetch of each site of a freshly loaded module
 *    allocates once: failing it gives -1/ENOMEM with the description
 *    still pending and whole, and the next fetch renders it.
 * 2. Loading the test module with its 1st, 2nd, ... allocation failing:
 *    a load may fail, but one that succeeds although an allocation failed
 *    (the rendered descriptions' table: the module loads without it) must
 *    describe its errors exactly as before, by rendering them at each
 *    fetch. There, fail the fetch's 1st, 2nd, ... allocation as in 1: each
 *    injected failure gives -1/ENOMEM with the description still pending
 *    and whole. ("long" needs a second, larger buffer: that is the 2nd.)
 * 3. perf_event_open() of a valid event, failing each of its allocations
 *    in turn: whatever it returns, a description left pending must be one
 *    of that call's, with its errno (never a made-up or an older one).
 *
 * Needs CONFIG_FAILSLAB, CONFIG_FAULT_INJECTION_DEBUG_FS and debugfs.
 */
#include "rel_cases.h"

#define FAILSLAB "/sys/kernel/debug/failslab/"
#define MAX_NTH 64
/* Loading a module allocates far more often than a system call. */
#define MAX_LOAD_NTH 2000

static unsigned long injected, enable_faults, fetch_calls, perf_calls;

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

/*
 * Enable descriptions with the 1st, 2nd, ... allocation failing until one
 * call succeeds. First thing in the program, since everything after needs
 * the process enabled; counts the failures injected in enable_faults.
 */
static void fault_enable(int nthfd)
{
	int nth, hit, err;
	long r;

	for (nth = 1; nth <= MAX_NTH; nth++) {
		REL_CHECK(err_desc_enabled() == 0);
		arm(nthfd, nth);
		r = prctl(PR_SET_ERR_DESC_ENABLED, 1UL, 0UL, 0UL, 0UL);
		err = errno;
		hit = disarm(nthfd);
		enable_faults += hit;
		if (r == 0)
			break;
		if (!hit || err != ENOMEM)
			REL_FAIL("enable, nth %d: errno %d, %s", nth, err,
				 hit ? "want ENOMEM" : "nothing injected");
	}
	REL_CHECK(nth <= MAX_NTH);
	REL_CHECK(err_desc_enabled() == 1);
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

/* Cause case @i and fetch its description, with nothing armed. */
static void fetch_once(size_t i)
{
	char buf[4096];
	int fd;

	REL_CHECK(rel_cause(&rel_cases[i], &fd) == rel_cases[i].err);
	REL_CHECK(rel_prctl(buf, sizeof(buf), 0, 0) ==
		  (long)strlen(rel_expected[i]));
	rel_done(fd);
}

/*
 * Fail each allocation of every fetch of the cases (those of the test
 * module only, with @module_only) in turn, after one fetch of each that
 * keeps its description; @allocs is how many a later fetch of a
 * description shorter than 512 bytes makes: 0 when it is kept, 1 when it
 * is rendered at each fetch ("long" then needs 2).
 */
static void fault_fetches(int nthfd, int module_only, int allocs)
{
	int nth, query, hits, want;
	size_t i;

	for (i = 0; i < REL_NCASES; i++) {
		if (module_only && !rel_cases[i].raise)
			continue;
		fetch_once(i);
		want = allocs && strlen(rel_expected[i]) >= 512 ? 2 : allocs;
		for (query = 0; query <= 1; query++) {
			hits = 0;
			for (nth = 1; nth <= MAX_NTH; nth++) {
				if (!fault_fetch(nthfd, i, nth, query))
					break;
				hits++;
			}
			REL_CHECK(nth <= MAX_NTH);
			if (hits != want)
				REL_FAIL("%s: %d allocations in prctl, want %d",
					 rel_cases[i].name, hits, want);
		}
	}
}

static void unload_module(void)
{
	int tries;

	for (tries = 0; syscall(SYS_delete_module, REL_MODULE, O_NONBLOCK);
	     tries++) {
		if (errno == ENOENT)
			return;
		/* Module loading may still hold a reference for a moment. */
		REL_CHECK((errno == EAGAIN || errno == EBUSY) && tries < 1000);
		usleep(1000);
	}
}

/*
 * Whether the test module's descriptions are rendered at each fetch (it
 * has no table): then a fetch with its first allocation failing gets
 * ENOMEM even after a fetch that would have kept the description.
 */
static int module_renders_at_fetch(int nthfd)
{
	size_t i;

	for (i = 0; i < REL_NCASES && !rel_cases[i].raise; i++)
		;
	REL_CHECK(i < REL_NCASES);
	fetch_once(i);
	return fault_fetch(nthfd, i, 1, 0);
}

/*
 * A freshly loaded module's sites: the first fetch of each allocates its
 * description once (failing it leaves the description pending and whole;
 * fault_fetch() then fetches it, which keeps it), and a fetch after that
 * allocates nothing.
 */
static unsigned long first_fetches(int nthfd)
{
	unsigned long sites = 0;
	size_t i;

	unload_module();
	REL_CHECK(rel_load_module() == 0);
	for (i = 0; i < REL_NCASES; i++) {
		if (!rel_cases[i].raise)
			continue;
		if (!fault_fetch(nthfd, i, 1, 0))
			REL_FAIL("%s: the first fetch did not allocate",
				 rel_cases[i].name);
		if (fault_fetch(nthfd, i, 1, 0))
			REL_FAIL("%s: a fetch allocated after the first",
				 rel_cases[i].name);
		sites++;
	}
	REL_CHECK(sites > 0);
	return sites;
}

/*
 * Load the test module with its nth allocation failing, for every nth the
 * load makes. Returns how many loads succeeded without their table; counts
 * the loads and the failures injected into them.
 */
static int fault_module_loads(int nthfd, unsigned long *loads,
			      unsigned long *faults)
{
	int nth, r, hit, without = 0;

	for (nth = 1; nth <= MAX_LOAD_NTH; nth++) {
		unload_module();
		arm(nthfd, nth);
		r = rel_load_module();
		hit = disarm(nthfd);
		(*loads)++;
		*faults += hit;
		if (!hit) {
			/* The load makes fewer allocations: done. */
			REL_CHECK(r == 0);
			break;
		}
		if (r)
			continue;
		/*
		 * Loaded although an allocation failed: the table's, or one
		 * the module does without (its debugfs file, say: then it
		 * cannot raise errors, and there is nothing to check).
		 */
		if (access(REL_RAISE, W_OK) || !module_renders_at_fetch(nthfd))
			continue;
		without++;
		fault_fetches(nthfd, 1, 1);
	}
	REL_CHECK(nth <= MAX_LOAD_NTH);
	/* Leave a module with its table, for what follows. */
	REL_CHECK(!module_renders_at_fetch(nthfd));
	return without;
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
	unsigned long loads = 0, load_faults = 0, calls;
	int nthfd, nth, without;

	setvbuf(stdout, NULL, _IOLBF, 0);
	/* Let fail-nth fail GFP_KERNEL allocations too, quietly. */
	write_file(FAILSLAB "ignore-gfp-wait", "N");
	write_file(FAILSLAB "verbose", "0");
	nthfd = fail_nth_fd();

	fault_enable(nthfd);
	printf("enable: %lu allocation failures injected\n", enable_faults);
	rel_calibrate();

	fault_fetches(nthfd, 0, 0);
	printf("prctl: %lu calls, none allocates after the first\n",
	       fetch_calls);

	calls = fetch_calls;
	without = fault_module_loads(nthfd, &loads, &load_faults);
	/*
	 * The table's allocation is one of those a load survives, but only
	 * while the table fits a page: kvzalloc() of a larger one falls back
	 * to vmalloc() when kmalloc() fails, and fail-nth fails one
	 * allocation only. The test module's fits, so a load without its
	 * table must have happened, or the part of this test that checks
	 * such a module's descriptions checked nothing.
	 */
	REL_CHECK(without >= 1);
	printf("module loads: %lu, %lu with an allocation failing, %d without their table; there prctl: %lu calls, %lu allocation failures injected\n",
	       loads, load_faults, without, fetch_calls - calls,
	       injected - load_faults - enable_faults);
	printf("first fetches: %lu sites of a fresh module, each allocated once\n",
	       first_fetches(nthfd));

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

// SPDX-License-Identifier: MIT
/*
 * What exterr_parse() costs on top of the JSON parse it is built on: time
 * and allocations per description, against a bare json_loads() of the same
 * text, in the same run. Allocations are counted by wrapping the library's
 * malloc()/calloc() at link time and jansson's through json_set_alloc_funcs.
 *
 *   bench_parse            time and allocations, one table row per fixture
 *   bench_parse callgrind  under valgrind --tool=callgrind: dumps one cost
 *                          section per fixture and parser (see bench/run)
 *
 * With files (conformance cases, for the project's bench/run), each named
 * by its case folder:
 *   bench_parse time ROUNDS ITERS FILE...
 *                          "c exterr|jansson NAME min=<ns> median=<ns>
 *                          allocs=<n>" per file and parser
 *   bench_parse callgrind FILE...
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>
#include <valgrind/callgrind.h>
#include <exterr.h>

static const struct {
	const char *name, *json;
} fixtures[] = {
	{ "perf", "{\"code\":-22,\"module\":\"perf\",\"file\":\"kernel/events/core.c\",\"line\":12883,\"message\":\"sample_freq above kernel.perf_event_max_sample_rate\",\"syscall\":298,\"attr_field\":\"sample_freq\"}" },
	{ "minimal", "{\"code\":-2,\"module\":\"vfs\",\"file\":\"fs/namei.c\",\"line\":2480,\"message\":\"no such entry\"}" },
	{ "v4l2", "{\"code\":-22,\"module\":\"v4l2\",\"file\":\"drivers/media/v4l2-core/v4l2-ioctl.c\",\"line\":1630,\"message\":\"width not a multiple of 16\",\"syscall\":16,\"ioctl\":\"VIDIOC_S_FMT\",\"field\":\"fmt.pix.width\",\"value\":1921}" },
	{ "nested", "{\"code\":-34,\"module\":\"bpf\",\"file\":\"kernel/bpf/verifier.c\",\"line\":19020,\"message\":\"program too large\",\"syscall\":321,\"limits\":{\"insns\":1000000,\"used\":1000001,\"ratio\":1.000001},\"path\":[0,4,17,42],\"jited\":false}" },
	{ "escaped", "{\"code\":-95,\"module\":\"mount\",\"file\":\"fs/fs_context.c\",\"line\":150,\"message\":\"option \\\"x-gvfs\\\\show\\\" unknown\\n\\u00e9\\ud83d\\ude00\",\"syscall\":429,\"option\":\"x-gvfs\\\\show\"}" },
};
#define NR_FIXTURES (sizeof(fixtures) / sizeof(fixtures[0]))

static long allocs;

void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t size);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t size);

void *__wrap_malloc(size_t size)
{
	allocs++;
	return __real_malloc(size);
}

void *__wrap_calloc(size_t n, size_t size)
{
	allocs++;
	return __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t size)
{
	allocs++;
	return __real_realloc(p, size);
}

static void *json_malloc(size_t size)
{
	allocs++;
	return __real_malloc(size);
}

static __attribute__((noinline)) void run_exterr(const char *s, size_t len)
{
	struct exterr *err;

	if (exterr_parse(s, len, &err)) {
		fprintf(stderr, "fixture does not parse: %s\n", s);
		exit(1);
	}
	exterr_free(err);
}

static __attribute__((noinline)) void run_jansson(const char *s, size_t len)
{
	json_error_t e;
	json_t *root = json_loadb(s, len, 0, &e);

	if (!root) {
		fprintf(stderr, "jansson: %s\n", e.text);
		exit(1);
	}
	json_decref(root);
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* Best of a few rounds: the machine is shared, the minimum is the signal. */
static double time_ns(void (*fn)(const char *, size_t), const char *s,
		      size_t len, long iters)
{
	double best = 1e300;
	int round;
	long i;

	for (round = 0; round < 5; round++) {
		double t = now_ns();

		for (i = 0; i < iters; i++)
			fn(s, len);
		t = (now_ns() - t) / iters;
		if (t < best)
			best = t;
	}
	return best;
}

static long count_allocs(void (*fn)(const char *, size_t), const char *s,
			size_t len)
{
	allocs = 0;
	fn(s, len);
	return allocs;
}

/* Two callgrind cost sections for one fixture: 100 parses each. */
static void callgrind_one(const char *name, const char *s, size_t len)
{
	char label[300];
	int k;

	CALLGRIND_ZERO_STATS;
	for (k = 0; k < 100; k++)
		run_exterr(s, len);
	snprintf(label, sizeof(label), "exterr %s", name);
	CALLGRIND_DUMP_STATS_AT(label);
	for (k = 0; k < 100; k++)
		run_jansson(s, len);
	snprintf(label, sizeof(label), "jansson %s", name);
	CALLGRIND_DUMP_STATS_AT(label);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Min and median over ROUNDS rounds, after a warm-up, plus allocations. */
static void time_stats(const char *label, const char *name,
		       void (*fn)(const char *, size_t), const char *s,
		       size_t len, int rounds, long iters)
{
	double *t = calloc(rounds, sizeof(*t));
	int r;
	long i;

	if (!t) {
		perror("calloc");
		exit(1);
	}
	for (i = 0; i < iters / 10 + 1; i++)
		fn(s, len);
	for (r = 0; r < rounds; r++) {
		double t0 = now_ns();

		for (i = 0; i < iters; i++)
			fn(s, len);
		t[r] = (now_ns() - t0) / iters;
	}
	qsort(t, rounds, sizeof(*t), cmp_double);
	printf("c %s %s min=%.1f median=%.1f allocs=%ld\n", label, name, t[0],
	       t[rounds / 2], count_allocs(fn, s, len));
	free(t);
}

/* The whole file (fixtures are at most EXTERR_MAX_JSON + 1 bytes). */
static char *slurp(const char *path, size_t *len)
{
	size_t max = EXTERR_MAX_JSON + 1;
	FILE *f = fopen(path, "rb");
	char *buf = malloc(max);

	if (!f || !buf) {
		perror(path);
		exit(1);
	}
	*len = fread(buf, 1, max, f);
	fclose(f);
	return buf;
}

/* .../cases/NAME/input -> NAME */
static void case_name(const char *path, char *name, size_t size)
{
	const char *end = strrchr(path, '/'), *start;

	if (!end) {
		snprintf(name, size, "%s", path);
		return;
	}
	for (start = end; start > path && start[-1] != '/'; start--)
		;
	snprintf(name, size, "%.*s", (int)(end - start), start);
}

/* "callgrind FILE..." or "time ROUNDS ITERS FILE...": one line per file. */
static int files_main(int argc, char **argv)
{
	int timing = !strcmp(argv[1], "time");
	int first = timing ? 4 : 2, rounds, i;
	long iters;

	if (argc <= first) {
		fprintf(stderr, "usage: bench_parse time ROUNDS ITERS FILE... | callgrind FILE...\n");
		return 2;
	}
	rounds = timing ? atoi(argv[2]) : 0;
	iters = timing ? atol(argv[3]) : 0;
	if (timing && (rounds < 1 || iters < 1)) {
		fprintf(stderr, "bench_parse: ROUNDS and ITERS must be positive\n");
		return 2;
	}
	for (i = first; i < argc; i++) {
		char name[256];
		size_t len;
		char *s = slurp(argv[i], &len);

		case_name(argv[i], name, sizeof(name));
		if (timing) {
			time_stats("exterr", name, run_exterr, s, len, rounds, iters);
			time_stats("jansson", name, run_jansson, s, len, rounds, iters);
		} else {
			callgrind_one(name, s, len);
		}
		free(s);
	}
	return 0;
}

int main(int argc, char **argv)
{
	long iters = argc > 2 ? atol(argv[2]) : 20000;
	size_t i;

	json_set_alloc_funcs(json_malloc, free);
	if (argc > 1 && (!strcmp(argv[1], "time") ||
			 (!strcmp(argv[1], "callgrind") && argc > 2)))
		return files_main(argc, argv);
	if (argc > 1 && !strcmp(argv[1], "callgrind")) {
		for (i = 0; i < NR_FIXTURES; i++)
			callgrind_one(fixtures[i].name, fixtures[i].json,
				      strlen(fixtures[i].json));
		return 0;
	}
	printf("%-8s %6s %10s %10s %6s %8s %8s %6s\n", "fixture", "bytes",
	       "exterr ns", "jansson ns", "ratio", "exterr", "jansson",
	       "ratio");
	printf("%-8s %6s %10s %10s %6s %8s %8s %6s\n", "", "", "/parse",
	       "/parse", "time", "allocs", "allocs", "allocs");
	for (i = 0; i < NR_FIXTURES; i++) {
		const char *s = fixtures[i].json;
		size_t len = strlen(s);
		double te = time_ns(run_exterr, s, len, iters);
		double tj = time_ns(run_jansson, s, len, iters);
		long ae = count_allocs(run_exterr, s, len);
		long aj = count_allocs(run_jansson, s, len);

		printf("%-8s %6zu %10.0f %10.0f %6.2f %8ld %8ld %6.2f\n",
		       fixtures[i].name, len, te, tj, te / tj, ae, aj,
		       (double)ae / (double)aj);
	}
	return 0;
}

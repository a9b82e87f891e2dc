// SPDX-License-Identifier: MIT
/*
 * parse_bench: exterr_parse() (+ exterr_free()) against a bare json_loadb()
 * (+ json_decref()) of the same bytes, on conformance fixture files.
 *
 *   parse_bench time ROUNDS ITERS FILE...
 *       per fixture: "c exterr|jansson NAME min=<ns> median=<ns> allocs=<n>"
 *       (ns per parse over ROUNDS rounds of ITERS parses)
 *   parse_bench callgrind FILE...
 *       under valgrind --tool=callgrind: one dump per fixture and parser,
 *       100 parses each, labelled "exterr NAME" / "jansson NAME"
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>
#include <valgrind/callgrind.h>
#include <exterr.h>

static long allocs;
void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t size);
void *__wrap_malloc(size_t size) { allocs++; return __real_malloc(size); }
void *__wrap_calloc(size_t n, size_t size) { allocs++; return __real_calloc(n, size); }
void *__wrap_realloc(void *p, size_t size) { allocs++; return __real_realloc(p, size); }
static void *json_malloc(size_t size) { allocs++; return __real_malloc(size); }

static __attribute__((noinline)) void run_exterr(const char *s, size_t len)
{
	struct exterr *err;

	if (exterr_parse(s, len, &err)) {
		fprintf(stderr, "fixture does not parse\n");
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

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = malloc(1 << 17);

	if (!f || !buf) {
		perror(path);
		exit(1);
	}
	*len = fread(buf, 1, 1 << 17, f);
	fclose(f);
	return buf;
}

static const char *name_of(const char *path)
{
	/* .../cases/NAME/input -> NAME */
	static char name[256];
	const char *end = strrchr(path, '/'), *start;

	if (!end)
		return path;
	for (start = end; start > path && start[-1] != '/'; start--)
		;
	snprintf(name, sizeof(name), "%.*s", (int)(end - start), start);
	return name;
}

static void timed(const char *label, const char *name,
		  void (*fn)(const char *, size_t), const char *s, size_t len,
		  int rounds, long iters)
{
	double *t = calloc(rounds, sizeof(*t));
	int r;
	long i;

	for (i = 0; i < iters / 10 + 1; i++)
		fn(s, len);
	for (r = 0; r < rounds; r++) {
		double t0 = now_ns();

		for (i = 0; i < iters; i++)
			fn(s, len);
		t[r] = (now_ns() - t0) / iters;
	}
	qsort(t, rounds, sizeof(*t), cmp);
	allocs = 0;
	fn(s, len);
	printf("c %s %s min=%.1f median=%.1f allocs=%ld\n", label, name, t[0],
	       t[rounds / 2], allocs);
	free(t);
}

int main(int argc, char **argv)
{
	int i, k, first;
	char label[300];

	json_set_alloc_funcs(json_malloc, free);
	if (argc > 2 && !strcmp(argv[1], "callgrind")) {
		for (i = 2; i < argc; i++) {
			size_t len;
			char *s = slurp(argv[i], &len);

			CALLGRIND_ZERO_STATS;
			for (k = 0; k < 100; k++)
				run_exterr(s, len);
			snprintf(label, sizeof(label), "exterr %s", name_of(argv[i]));
			CALLGRIND_DUMP_STATS_AT(label);
			for (k = 0; k < 100; k++)
				run_jansson(s, len);
			snprintf(label, sizeof(label), "jansson %s", name_of(argv[i]));
			CALLGRIND_DUMP_STATS_AT(label);
			free(s);
		}
		return 0;
	}
	if (argc < 5 || strcmp(argv[1], "time")) {
		fprintf(stderr, "usage: parse_bench time ROUNDS ITERS FILE... | callgrind FILE...\n");
		return 2;
	}
	first = 4;
	for (i = first; i < argc; i++) {
		size_t len;
		char *s = slurp(argv[i], &len);
		char name[256];

		snprintf(name, sizeof(name), "%s", name_of(argv[i]));
		timed("exterr", name, run_exterr, s, len, atoi(argv[2]), atol(argv[3]));
		timed("jansson", name, run_jansson, s, len, atoi(argv[2]), atol(argv[3]));
		free(s);
	}
	return 0;
}

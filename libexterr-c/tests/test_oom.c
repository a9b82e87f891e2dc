// SPDX-License-Identifier: MIT
/*
 * Every allocation in exterr_parse() and exterr_format()'s callers failing
 * in turn: the result is -ENOMEM or success, never a crash or a leak
 * (the sanitizer and valgrind runs of this test check the leaks). The
 * library's own malloc()/calloc()/realloc() are wrapped at link time; jansson's go
 * through json_set_alloc_funcs().
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <exterr.h>
#include "t.h"

static long countdown = -1;	/* fail when it reaches 0; -1: never */
static long failed, failed_in_jansson;

void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t size);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t size);

static int should_fail(void)
{
	if (countdown < 0)
		return 0;
	if (countdown-- == 0) {
		failed++;
		return 1;
	}
	return 0;
}

void *__wrap_malloc(size_t size)
{
	return should_fail() ? NULL : __real_malloc(size);
}

void *__wrap_calloc(size_t n, size_t size)
{
	return should_fail() ? NULL : __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t size)
{
	return should_fail() ? NULL : __real_realloc(p, size);
}

static void *json_malloc(size_t size)
{
	if (should_fail()) {
		failed_in_jansson++;
		return NULL;
	}
	return __real_malloc(size);
}

static const char *const inputs[] = {
	"{\"code\":-22,\"id\":\"perf.x.y\",\"module\":\"perf\",\"file\":\"f\",\"line\":1,\"message\":\"m\",\"values\":{\"a\":18446744073709551615,\"b\":-1,\"c\":3},\"attr_field\":\"x\"}",
	"{\"code\":0,\"severity\":\"info\",\"module\":\"m\",\"file\":\"f\",\"line\":1,\"message\":\"m\",\"values\":{\"a\":1.5}}",
	"{\"code\":-22,\"module\":\"perf\",\"file\":\"kernel/events/core.c\",\"line\":12883,\"message\":\"sample_freq above kernel.perf_event_max_sample_rate\",\"syscall\":298,\"attr_field\":\"sample_freq\"}",
	"{\"code\":-25,\"module\":\"v4l2\",\"file\":\"f.c\",\"line\":3,\"message\":\"m\",\"o\":{\"a\":[1,2.5,{\"b\":null}],\"c\":\"d\"},\"r\":0.1,\"t\":true,\"i\":7}",
	"{\"code\":-22,\"module\":\"m\",\"file\":\"f\",\"line\":1,\"message\":\"m\",\"x\":1,\"x\":2}",
	"{\"code\":-22,\"module\":\"m\",\"file\":\"f\",\"line\":1,\"message\":\"m\",\"x\":[1,2,3,{\"q\":\"\\ud83d\\ude00\"}",
	"{\"code\":22,\"module\":\"m\",\"file\":\"f\",\"line\":1,\"message\":\"m\"}",
	"{\"code\":-22,\"module\":\"m\",\"file\":\"f\",\"line\":1,\"message\":\"m\",\"x\":99999999999999999999}",
	"{\"code\":-22,\"module\":\"m\",\"file\":\"f\",\"line\":1,\"message\":\"m\",\"x\":1,\"x\":2,",
};

/* Failures in the library itself: exactly -ENOMEM, every time. */
static void run_own(void)
{
	const char *s = inputs[0];
	struct exterr *err;
	int ret;

	/* Only the library's malloc/calloc: jansson's allocator is reset. */
	json_set_alloc_funcs(__real_malloc, free);
	failed = 0;
	countdown = 0;
	ret = exterr_parse(s, strlen(s), &err);
	countdown = -1;
	CHECK_INT(failed, 1);
	CHECK_INT(ret, -ENOMEM);
	CHECK(err == NULL);
	json_set_alloc_funcs(json_malloc, free);
}

static void run(const char *s)
{
	int want, ret, ok;
	long n;
	struct exterr *err;

	/* The result without failures is what partial failures must match. */
	want = exterr_parse(s, strlen(s), &err);
	exterr_free(err);
	for (n = 0; n < 10000; n++) {
		failed = failed_in_jansson = 0;
		countdown = n;
		ret = exterr_parse(s, strlen(s), &err);
		countdown = -1;
		/*
		 * jansson 2.14 reports some of its allocation failures as
		 * syntax errors; the text has been validated before jansson
		 * sees it, so those are -ENOMEM too, never -EBADMSG.
		 */
		ok = ret == want || ret == -ENOMEM;
		if (!ok)
			fprintf(stderr, "failing allocation %ld: %d\n", n, ret);
		CHECK(ok);
		if (!ret) {
			CHECK(err != NULL);
			exterr_free(err);
		}
		if (!failed)
			break;
	}
	/* Malformed input is rejected before anything is allocated. */
	if (want == -EBADMSG)
		CHECK_INT(n, 0);
	else
		CHECK(n > 0 && n < 10000);
}

int main(void)
{
	size_t i;

	json_set_alloc_funcs(json_malloc, free);
	for (i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++)
		run(inputs[i]);
	run_own();
	return t_done();
}

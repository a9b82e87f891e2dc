/* SPDX-License-Identifier: MIT */
/*
 * A few assertion macros: every failed check is printed with its line and
 * makes the program exit non-zero, so ctest sees it.
 */
#ifndef EXTERR_T_H
#define EXTERR_T_H

#include <stdio.h>
#include <string.h>

static int t_passed, t_failed;

#define CHECK(cond) do {						\
	if (cond) {							\
		t_passed++;						\
	} else {							\
		t_failed++;						\
		fprintf(stderr, "%s:%d: CHECK(%s) failed\n",		\
			__FILE__, __LINE__, #cond);			\
	}								\
} while (0)

#define CHECK_INT(got, want) do {					\
	long long g_ = (long long)(got), w_ = (long long)(want);	\
	if (g_ == w_) {							\
		t_passed++;						\
	} else {							\
		t_failed++;						\
		fprintf(stderr, "%s:%d: %s == %lld, want %lld\n",	\
			__FILE__, __LINE__, #got, g_, w_);		\
	}								\
} while (0)

#define CHECK_STR(got, want) do {					\
	const char *g_ = (got), *w_ = (want);				\
	if (g_ && w_ && !strcmp(g_, w_)) {				\
		t_passed++;						\
	} else {							\
		t_failed++;						\
		fprintf(stderr, "%s:%d: %s == \"%s\", want \"%s\"\n",	\
			__FILE__, __LINE__, #got, g_ ? g_ : "(null)",	\
			w_ ? w_ : "(null)");				\
	}								\
} while (0)

static inline int t_done(void)
{
	printf("%d passed, %d failed\n", t_passed, t_failed);
	return t_failed || !t_passed;
}

#endif /* EXTERR_T_H */

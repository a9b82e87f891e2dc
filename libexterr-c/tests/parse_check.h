/* SPDX-License-Identifier: MIT */
/*
 * Parsing an input only for its return value, alone or a table of them:
 * what the parse tests share. Include after t.h.
 */
#ifndef EXTERR_PARSE_CHECK_H
#define EXTERR_PARSE_CHECK_H

#include <stdio.h>
#include <string.h>

#include <exterr.h>

/* exterr_parse() of len bytes; *errp is NULL exactly when it failed. */
static int parse_n(const char *s, size_t len)
{
	struct exterr *err = (struct exterr *)&t_passed; /* must be reset */
	int ret = exterr_parse(s, len, &err);

	if (ret)
		CHECK(err == NULL);
	else
		CHECK(err != NULL);
	exterr_free(err);
	return ret;
}

static int parse_s(const char *s)
{
	return parse_n(s, strlen(s));
}

/* Every one of the n strings in cases parses to want; names the others. */
static void check_parse_all(const char *const *cases, size_t n, int want)
{
	size_t i;

	for (i = 0; i < n; i++) {
		int ret = parse_s(cases[i]);

		if (ret != want)
			fprintf(stderr, "case %zu: %s\n", i, cases[i]);
		CHECK_INT(ret, want);
	}
}

#endif /* EXTERR_PARSE_CHECK_H */

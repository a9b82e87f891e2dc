// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The "values" of a description: integers from -2^63 to 2^64 - 1. jansson
 * stores integers as long long and refuses a document with a larger one,
 * so before jansson sees the text, the integers that are members of the
 * root's "values" object are found here, and jansson parses a copy in
 * which each of them is masked as "0" padded with spaces (the same
 * length, so that every position it reports still holds). The values are
 * then read from the original text. Every member's value is recorded,
 * integer or not (len 0), so that a schema error about one points at it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static bool is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static size_t skip_ws(const char *s, size_t i, size_t len)
{
	while (i < len && is_ws(s[i]))
		i++;
	return i;
}

/* Past the string starting at s[i] == '"'. The text is valid JSON. */
static size_t skip_string(const char *s, size_t i, size_t len)
{
	for (i++; i < len && s[i] != '"'; i++)
		if (s[i] == '\\')
			i++;
	return i + 1;
}

/* Past the value starting at s[i], whatever it is. */
static size_t skip_value(const char *s, size_t i, size_t len)
{
	int depth = 0;

	do {
		if (s[i] == '"') {
			i = skip_string(s, i, len);
			continue;
		}
		if (s[i] == '{' || s[i] == '[')
			depth++;
		else if (s[i] == '}' || s[i] == ']')
			depth--;
		else if (!depth && (s[i] == ',' || is_ws(s[i])))
			break;
		i++;
	} while (i < len && depth > 0);
	if (!depth)
		while (i < len && s[i] != ',' && s[i] != '}' && s[i] != ']' &&
		       !is_ws(s[i]))
			i++;
	return i;
}

/* The length of the integer token at s[i], or 0 if it is something else. */
static size_t integer_len(const char *s, size_t i, size_t len)
{
	size_t j = i;

	if (j < len && s[j] == '-')
		j++;
	while (j < len && s[j] >= '0' && s[j] <= '9')
		j++;
	if (j == i || (j < len && (s[j] == '.' || s[j] == 'e' ||
				   s[j] == 'E')))
		return 0;
	return j - i;
}

int xerr_values_scan(const char *json, size_t len, size_t start,
		     struct xerr_values *vals)
{
	struct xerr_token *tok;
	size_t i = start, n, integers = 0;

	memset(vals, 0, sizeof(*vals));
	if (start == SIZE_MAX || json[i] != '{')
		return 0;	/* the schema check says what is wrong */
	i = skip_ws(json, i + 1, len);
	while (i < len && json[i] == '"') {
		i = skip_ws(json, skip_string(json, i, len), len);
		i = skip_ws(json, i + 1, len);	/* the ':' */
		n = integer_len(json, i, len);
		tok = realloc(vals->tok, (vals->nr + 1) * sizeof(*tok));
		if (!tok) {
			xerr_values_free(vals);
			return -ENOMEM;
		}
		vals->tok = tok;
		tok[vals->nr].start = i;
		tok[vals->nr].len = n;
		vals->nr++;
		integers += n > 0;
		i = n ? i + n : skip_value(json, i, len);
		i = skip_ws(json, i, len);
		if (i < len && json[i] == ',')
			i = skip_ws(json, i + 1, len);
	}
	if (!integers)
		return 0;
	vals->masked = malloc(len + 1);
	if (!vals->masked) {
		xerr_values_free(vals);
		return -ENOMEM;
	}
	memcpy(vals->masked, json, len);
	vals->masked[len] = '\0';
	for (i = 0; i < vals->nr; i++) {
		tok = &vals->tok[i];
		if (!tok->len)
			continue;
		vals->masked[tok->start] = '0';
		memset(vals->masked + tok->start + 1, ' ', tok->len - 1);
	}
	return 0;
}

int xerr_value_read(const char *tok, size_t len, struct exterr_value *v)
{
	unsigned long long u = 0, limit;
	bool neg = *tok == '-';
	size_t i = neg;

	/* 2^63 below zero, 2^64 - 1 above. */
	limit = neg ? (unsigned long long)INT64_MAX + 1 : UINT64_MAX;
	for (; i < len; i++) {
		unsigned int d = tok[i] - '0';

		if (u > (limit - d) / 10)
			return -ERANGE;
		u = u * 10 + d;
	}
	v->negative = neg && u;
	v->uvalue = neg ? 0 - u : u;
	v->value = (long long)v->uvalue;
	return 0;
}

void xerr_values_free(struct xerr_values *vals)
{
	free(vals->tok);
	free(vals->masked);
	memset(vals, 0, sizeof(*vals));
}

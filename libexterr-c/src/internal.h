/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Private declarations shared by the library's source files. Nothing here
 * is exported: the library is built with -fvisibility=hidden and only the
 * functions marked EXTERR_API (and listed in libexterr.map) are visible.
 */
#ifndef EXTERR_INTERNAL_H
#define EXTERR_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#include "exterr.h"

#define EXTERR_API __attribute__((visibility("default")))

char *xerr_format_dup(const struct exterr *err);

/*
 * The text form of one field value (docs/contract.md section 3). Split in
 * two so parse.c can size its single allocation before writing: the length
 * pass returns the length without the NUL, or -ENOMEM; the write pass
 * writes exactly that many bytes plus a NUL into dst.
 */
long xerr_value_len(json_t *v, enum exterr_field_type *type,
		    long long *integer);
int xerr_value_write(json_t *v, char *dst, size_t len);

/*
 * validate.c: the strict RFC 8259 syntax check that runs before jansson.
 * xerr_validate() returns 0 for one valid JSON text, or -1 with position
 * (0-based byte offset AT the first offending byte; len at a premature
 * end) and reason filled in.
 *
 * The same pass finds the places parse.c needs for schema errors, which
 * jansson's tree no longer knows (all offsets 0-based, SIZE_MAX for
 * none):
 * - find_end in, found_start out: the start of the scalar or key token
 *   that ends at offset find_end, to point jansson's errors, reported just
 *   past a token, at the token itself;
 * - find_key in (NULL for none), key_start and value_start out: the '"'
 *   of the root object's member whose key decodes to find_key, and the
 *   first byte of its value;
 * - root_start out: the first byte of the root value; root_close out: the
 *   bracket that closes it, when it is an object or array.
 */
struct xerr_syntax {
	size_t position;
	char reason[120];
	size_t find_end;
	size_t found_start;
	const char *find_key;
	size_t key_start;
	size_t value_start;
	size_t root_start;
	size_t root_close;
};

int xerr_validate(const char *json, size_t len, struct xerr_syntax *out);

/*
 * values.c: the members of the root's "values" object, found before
 * jansson parses the text (which it could not for integers above
 * LLONG_MAX). xerr_values_scan() takes the offset of the root's "values"
 * value, as xerr_validate() found it (SIZE_MAX for none), fills @vals
 * (all zero when there are none) and returns 0 or -ENOMEM: tok[i] is the
 * value of the i-th member, in document order, with len 0 when it is not
 * an integer token. masked is then the text to hand to jansson, with each
 * integer replaced by a 0 of the same width (NULL when there is none).
 * xerr_value_read() reads one token, -ERANGE outside -2^63..2^64-1.
 */
struct xerr_token {
	size_t start;
	size_t len;
};

struct xerr_values {
	size_t nr;
	struct xerr_token *tok;
	char *masked;
};

int xerr_values_scan(const char *json, size_t len, size_t start,
		     struct xerr_values *vals);
int xerr_value_read(const char *tok, size_t len, struct exterr_value *v);
void xerr_values_free(struct xerr_values *vals);

#endif /* EXTERR_INTERNAL_H */

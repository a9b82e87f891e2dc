/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Private declarations shared by the library's source files. Nothing here
 * is exported: the library is built with -fvisibility=hidden and only the
 * functions marked EXTERR_API (and listed in libexterr.map) are visible.
 */
#ifndef EXTERR_INTERNAL_H
#define EXTERR_INTERNAL_H

#include <stddef.h>
#include <jansson.h>

#include "exterr.h"

#define EXTERR_API __attribute__((visibility("default")))

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
 * end) and reason filled in. When find_end is not SIZE_MAX, found_start
 * gets the start of the value or key token that ends at offset find_end
 * (SIZE_MAX when none does); parse.c uses it to point jansson's schema
 * errors, reported just past a token, at the token itself.
 */
struct xerr_syntax {
	size_t position;
	char reason[120];
	size_t find_end;
	size_t found_start;
};

int xerr_validate(const char *json, size_t len, struct xerr_syntax *out);

#endif /* EXTERR_INTERNAL_H */

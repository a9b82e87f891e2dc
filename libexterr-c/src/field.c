// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Fields: the domain keys of a description, their text form and lookup.
 */
#include <stdio.h>
#include <string.h>
#include <errno.h>

#include "internal.h"

/*
 * Reals, objects and arrays are written by jansson's own encoder so the
 * text matches what every binding gets from the same compact encoding.
 */
#define XERR_DUMP_FLAGS \
	(JSON_COMPACT | JSON_ENCODE_ANY | JSON_REAL_PRECISION(17))

long xerr_value_len(json_t *v, enum exterr_field_type *type,
		    long long *integer)
{
	size_t n;

	*integer = 0;
	switch (json_typeof(v)) {
	case JSON_STRING:
		*type = EXTERR_FIELD_STRING;
		return (long)json_string_length(v);
	case JSON_INTEGER:
		*type = EXTERR_FIELD_INTEGER;
		*integer = json_integer_value(v);
		return snprintf(NULL, 0, "%lld", *integer);
	case JSON_TRUE:
		*type = EXTERR_FIELD_BOOLEAN;
		return 4;
	case JSON_FALSE:
		*type = EXTERR_FIELD_BOOLEAN;
		return 5;
	case JSON_NULL:
		*type = EXTERR_FIELD_NULL;
		return 4;
	case JSON_REAL:
		*type = EXTERR_FIELD_REAL;
		break;
	case JSON_OBJECT:
		*type = EXTERR_FIELD_OBJECT;
		break;
	case JSON_ARRAY:
		*type = EXTERR_FIELD_ARRAY;
		break;
	}
	/* A valid encoding is never empty, so 0 can only mean failure. */
	n = json_dumpb(v, NULL, 0, XERR_DUMP_FLAGS);
	return n ? (long)n : -ENOMEM;
}

int xerr_value_write(json_t *v, char *dst, size_t len)
{
	switch (json_typeof(v)) {
	case JSON_STRING:
		memcpy(dst, json_string_value(v), len);
		break;
	case JSON_INTEGER:
		snprintf(dst, len + 1, "%lld", json_integer_value(v));
		break;
	case JSON_TRUE:
		memcpy(dst, "true", len);
		break;
	case JSON_FALSE:
		memcpy(dst, "false", len);
		break;
	case JSON_NULL:
		memcpy(dst, "null", len);
		break;
	default:
		/* The encoder may allocate (loop detection), so it may fail. */
		if (json_dumpb(v, dst, len, XERR_DUMP_FLAGS) != len)
			return -ENOMEM;
		break;
	}
	dst[len] = '\0';
	return 0;
}

EXTERR_API const char *exterr_field(const struct exterr *err,
				    const char *name)
{
	size_t i;

	if (!err || !name)
		return NULL;
	for (i = 0; i < err->nr_fields; i++)
		if (!strcmp(err->fields[i].name, name))
			return err->fields[i].value;
	return NULL;
}

EXTERR_API const struct exterr_value *exterr_value(const struct exterr *err,
						  const char *name)
{
	size_t i;

	if (!err || !name || !EXTERR_HAS(err, values))
		return NULL;
	for (i = 0; i < err->nr_values; i++)
		if (!strcmp(err->values[i].name, name))
			return &err->values[i];
	return NULL;
}

EXTERR_API const char *exterr_field_type_name(enum exterr_field_type type)
{
	switch (type) {
	case EXTERR_FIELD_STRING:
		return "string";
	case EXTERR_FIELD_INTEGER:
		return "integer";
	case EXTERR_FIELD_REAL:
		return "real";
	case EXTERR_FIELD_BOOLEAN:
		return "boolean";
	case EXTERR_FIELD_NULL:
		return "null";
	case EXTERR_FIELD_OBJECT:
		return "object";
	case EXTERR_FIELD_ARRAY:
		return "array";
	}
	/* Callers print this; an unknown value must not become NULL. */
	return "unknown";
}

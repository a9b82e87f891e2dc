// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * exterr_parse(): strict parsing of one description (docs/contract.md,
 * section 3) into a struct exterr that lives in a single allocation: the
 * struct, then the field array, then every string it points to.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

struct perr_loc {
	size_t position;
	int line;
	int column;
};

/*
 * Failures with no place in the text (bad arguments, too big, out of
 * memory): position SIZE_MAX and line 0, which no real byte has, so that
 * nobody mistakes them for byte 0.
 */
static const struct perr_loc no_loc = { SIZE_MAX, 0, 0 };

/* A caller built against an older, shorter struct gets what fits. */
#define PERR_FITS(perr, member) \
	((perr)->size >= offsetof(struct exterr_parse_error, member) + \
			 sizeof((perr)->member))

static int vfail(struct exterr_parse_error *perr, int error,
		 const struct perr_loc *loc, const char *fmt, va_list ap)
{
	if (!perr)
		return error;
	if (!loc)
		loc = &no_loc;
	if (PERR_FITS(perr, error))
		perr->error = error;
	if (PERR_FITS(perr, position))
		perr->position = loc->position;
	if (PERR_FITS(perr, line))
		perr->line = loc->line;
	if (PERR_FITS(perr, column))
		perr->column = loc->column;
	if (PERR_FITS(perr, reason))
		vsnprintf(perr->reason, sizeof(perr->reason), fmt, ap);
	return error;
}

static int fail(struct exterr_parse_error *perr, int error,
		const struct perr_loc *loc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	error = vfail(perr, error, loc, fmt, ap);
	va_end(ap);
	return error;
}

/*
 * Line and column (both 1-based, column in characters) of byte pos;
 * SIZE_MAX, the validator's "not found", is no place at all.
 */
static void locate(const unsigned char *s, size_t pos, struct perr_loc *loc)
{
	size_t i;

	if (pos == SIZE_MAX) {
		*loc = no_loc;
		return;
	}
	loc->position = pos;
	loc->line = 1;
	loc->column = 1;
	for (i = 0; i < pos; i++) {
		if (s[i] == '\n') {
			loc->line++;
			loc->column = 1;
		} else if ((s[i] & 0xc0) != 0x80) {
			loc->column++;
		}
	}
}

/*
 * Once xerr_validate() has accepted the text, jansson only fails for what
 * the schema forbids (a duplicate key, a number too large for it) or for
 * lack of memory: jansson 2.14 reports some of its allocation failures as
 * syntax errors, and a syntax error can no longer be anything else.
 * jansson's position is just past the offending key or number; it is
 * moved back to the token's first byte, as for syntax errors.
 */
static int jansson_fail(const char *json, size_t len, const json_error_t *jerr,
			struct exterr_parse_error *perr)
{
	struct xerr_syntax syn = { .find_key = NULL };
	struct perr_loc loc;

	switch (json_error_code(jerr)) {
	case json_error_duplicate_key:
	case json_error_numeric_overflow:
		break;
	default:
		return fail(perr, -ENOMEM, NULL, "out of memory (jansson: %s)",
			    jerr->text);
	}
	/* Past the end would be a jansson bug; locate() must not run off. */
	syn.find_end = jerr->position > 0 && (size_t)jerr->position <= len ?
		       (size_t)jerr->position : SIZE_MAX;
	if (xerr_validate(json, len, &syn) || syn.found_start == SIZE_MAX)
		syn.found_start = syn.find_end;
	locate((const unsigned char *)json, syn.found_start, &loc);
	return fail(perr, -EPROTO, &loc, "%s", jerr->text);
}

/* The text schema() checks, to place its errors in. */
struct text {
	const char *json;
	size_t len;
};

/*
 * A schema error, placed by a second validator pass (only failures pay
 * for it): at the value of root member key when the root has one, at the
 * bracket closing the root object when it lacks key (where the member is
 * missing), at the root value itself when key is NULL.
 */
static int schema_fail(const struct text *t, const char *key,
		       struct exterr_parse_error *perr, const char *fmt, ...)
{
	struct xerr_syntax syn = { .find_end = SIZE_MAX, .find_key = key };
	struct perr_loc loc;
	size_t pos = SIZE_MAX;
	va_list ap;
	int ret;

	if (!perr)
		return -EPROTO;
	/* The text passed this check once already; it cannot fail now. */
	if (!xerr_validate(t->json, t->len, &syn)) {
		if (!key)
			pos = syn.root_start;
		else if (syn.key_start != SIZE_MAX)
			pos = syn.value_start;
		else
			pos = syn.root_close;
	}
	locate((const unsigned char *)t->json, pos, &loc);
	va_start(ap, fmt);
	ret = vfail(perr, -EPROTO, &loc, fmt, ap);
	va_end(ap);
	return ret;
}

/* A schema error at a place already known, e.g. a member of "values". */
static int schema_fail_at(const struct text *t, size_t pos,
			  struct exterr_parse_error *perr, const char *fmt, ...)
{
	struct perr_loc loc;
	va_list ap;
	int ret;

	if (!perr)
		return -EPROTO;
	locate((const unsigned char *)t->json, pos, &loc);
	va_start(ap, fmt);
	ret = vfail(perr, -EPROTO, &loc, fmt, ap);
	va_end(ap);
	return ret;
}

static int get_string(const struct text *t, json_t *root, const char *key,
		      bool required, struct exterr_parse_error *perr)
{
	json_t *v = json_object_get(root, key);

	if (!v) {
		if (required)
			return schema_fail(t, key, perr,
					   "missing key \"%s\"", key);
		return 0;
	}
	if (!json_is_string(v))
		return schema_fail(t, key, perr, "\"%s\" is not a string",
				   key);
	return 0;
}

static int get_int(const struct text *t, json_t *root, const char *key,
		   bool required, long long min, long long max,
		   struct exterr_parse_error *perr)
{
	json_t *v = json_object_get(root, key);
	long long n;

	if (!v) {
		if (required)
			return schema_fail(t, key, perr,
					   "missing key \"%s\"", key);
		return 0;
	}
	if (!json_is_integer(v))
		return schema_fail(t, key, perr, "\"%s\" is not an integer",
				   key);
	n = json_integer_value(v);
	if (n < min || n > max)
		return schema_fail(t, key, perr,
				   "\"%s\" is %lld, outside %lld..%lld", key,
				   n, min, max);
	return 0;
}

static bool is_core_key(const char *key)
{
	static const char *const core[] = {
		"code", "module", "file", "line", "message", "syscall",
		"id", "severity", "values",
	};
	size_t i;

	for (i = 0; i < sizeof(core) / sizeof(core[0]); i++)
		if (!strcmp(key, core[i]))
			return true;
	return false;
}

static char *put(char **cursor, const char *s, size_t len)
{
	char *dst = *cursor;

	memcpy(dst, s, len);
	dst[len] = '\0';
	*cursor += len + 1;
	return dst;
}

static enum exterr_severity severity_of(json_t *root)
{
	const char *s = json_string_value(json_object_get(root, "severity"));

	if (!s)
		return EXTERR_SEVERITY_ERROR;
	return strcmp(s, "warning") ? EXTERR_SEVERITY_INFO :
				      EXTERR_SEVERITY_WARNING;
}

/* Builds the single allocation from a root already checked by schema(). */
static int build(json_t *root, const char *json, size_t len,
		 const struct xerr_values *vals, struct exterr **errp,
		 struct exterr_parse_error *perr)
{
	json_t *module = json_object_get(root, "module");
	json_t *message = json_object_get(root, "message");
	json_t *file = json_object_get(root, "file");
	json_t *id = json_object_get(root, "id");
	json_t *values = json_object_get(root, "values");
	struct exterr_value *value_array;
	struct exterr_field *fields;
	struct exterr *err;
	size_t nr = 0, total, i;
	const char *key;
	json_t *v;
	char *cursor;

	total = sizeof(*err) + len + 1 +
		json_string_length(module) + 1 +
		json_string_length(message) + 1 +
		json_string_length(file) + 1;
	if (id)
		total += json_string_length(id) + 1;
	/* schema() made sure each member of values is one of vals->tok. */
	json_object_foreach(values, key, v)
		total += sizeof(*value_array) + strlen(key) + 1;
	json_object_foreach(root, key, v) {
		enum exterr_field_type type;
		long long integer;
		long n;

		if (is_core_key(key))
			continue;
		n = xerr_value_len(v, &type, &integer);
		if (n < 0)
			return fail(perr, (int)n, NULL, "out of memory");
		total += sizeof(*fields) + strlen(key) + 1 + (size_t)n + 1;
		nr++;
	}

	err = calloc(1, total);
	if (!err)
		return fail(perr, -ENOMEM, NULL, "out of memory");
	fields = (struct exterr_field *)(err + 1);
	value_array = (struct exterr_value *)(fields + nr);
	cursor = (char *)(value_array + (values ? vals->nr : 0));

	err->size = sizeof(*err);
	err->error = (int)-json_integer_value(json_object_get(root, "code"));
	err->line = (int)json_integer_value(json_object_get(root, "line"));
	v = json_object_get(root, "syscall");
	err->syscall = v ? (int)json_integer_value(v) : -1;
	err->module = put(&cursor, json_string_value(module),
			  json_string_length(module));
	err->message = put(&cursor, json_string_value(message),
			   json_string_length(message));
	err->file = put(&cursor, json_string_value(file),
			json_string_length(file));
	err->json = put(&cursor, json, len);
	err->json_len = len;
	err->nr_fields = nr;
	err->fields = nr ? fields : NULL;
	err->id = id ? put(&cursor, json_string_value(id),
			   json_string_length(id)) : NULL;
	err->severity = severity_of(root);
	i = 0;
	json_object_foreach(values, key, v) {
		const struct xerr_token *tok = &vals->tok[i];

		value_array[i].name = put(&cursor, key, strlen(key));
		/* schema() has read every one of them already. */
		xerr_value_read(json + tok->start, tok->len, &value_array[i]);
		i++;
	}
	err->nr_values = i;
	err->values = i ? value_array : NULL;

	i = 0;
	json_object_foreach(root, key, v) {
		struct exterr_field *f;
		long n;

		if (is_core_key(key))
			continue;
		f = &fields[i++];
		f->name = put(&cursor, key, strlen(key));
		n = xerr_value_len(v, &f->type, &f->integer);
		if (n < 0 || xerr_value_write(v, cursor, (size_t)n)) {
			free(err);
			return fail(perr, -ENOMEM, NULL, "out of memory");
		}
		f->value = cursor;
		cursor += n + 1;
	}
	*errp = err;
	return 0;
}

/*
 * "values": an object whose members are all integers, each one of the
 * tokens values.c found (jansson saw them masked), within
 * -2^63..2^64-1. A member that is not is the error's place: its value,
 * as values.c found it (jansson iterates in document order).
 */
static int get_values(const struct text *t, json_t *root,
		      const struct xerr_values *vals,
		      struct exterr_parse_error *perr)
{
	json_t *values = json_object_get(root, "values"), *v;
	struct exterr_value scratch;
	const char *key;
	size_t i = 0;

	if (!values)
		return 0;
	if (!json_is_object(values))
		return schema_fail(t, "values", perr,
				   "\"values\" is not an object");
	json_object_foreach(values, key, v) {
		/* Not found by values.c would be a bug: place it at "values". */
		if (i >= vals->nr)
			return schema_fail(t, "values", perr,
					   "value \"%s\" is not an integer",
					   key);
		if (!json_is_integer(v) || !vals->tok[i].len)
			return schema_fail_at(t, vals->tok[i].start, perr,
					      "value \"%s\" is not an integer",
					      key);
		if (xerr_value_read(t->json + vals->tok[i].start,
				    vals->tok[i].len, &scratch))
			return schema_fail_at(t, vals->tok[i].start, perr,
					      "value \"%s\" is outside -2^63..2^64-1",
					      key);
		i++;
	}
	return 0;
}

/* A note (code 0) has a severity, "info" or "warning"; an error none. */
static int get_severity(const struct text *t, json_t *root,
			struct exterr_parse_error *perr)
{
	json_t *sev = json_object_get(root, "severity");
	long long code = json_integer_value(json_object_get(root, "code"));
	const char *s;

	if (!sev)
		return code ? 0 : schema_fail(t, "severity", perr,
					      "a note (code 0) without \"severity\"");
	if (!json_is_string(sev))
		return schema_fail(t, "severity", perr,
				   "\"severity\" is not a string");
	s = json_string_value(sev);
	if (strcmp(s, "info") && strcmp(s, "warning"))
		return schema_fail(t, "severity", perr,
				   "\"severity\" is neither \"info\" nor \"warning\"");
	if (code)
		return schema_fail(t, "severity", perr,
				   "\"severity\" on an error (code %lld)", code);
	return 0;
}

static int schema(const struct text *t, json_t *root,
		  const struct xerr_values *vals,
		  struct exterr_parse_error *perr)
{
	int ret;

	if (!json_is_object(root))
		return schema_fail(t, NULL, perr, "not a JSON object");
	ret = get_int(t, root, "code", true, -4095, 0, perr);
	if (!ret)
		ret = get_string(t, root, "module", true, perr);
	if (!ret)
		ret = get_string(t, root, "file", true, perr);
	if (!ret)
		ret = get_int(t, root, "line", true, 0, INT_MAX, perr);
	if (!ret)
		ret = get_string(t, root, "message", true, perr);
	if (!ret)
		ret = get_int(t, root, "syscall", false, 0, INT_MAX, perr);
	if (!ret)
		ret = get_string(t, root, "id", false, perr);
	if (!ret)
		ret = get_severity(t, root, perr);
	if (!ret)
		ret = get_values(t, root, vals, perr);
	return ret;
}

EXTERR_API int exterr_parse_ex(const char *json, size_t len,
			       struct exterr **errp,
			       struct exterr_parse_error *perr)
{
	/* The one validator pass also finds "values" for values.c. */
	struct xerr_syntax syn = { .find_end = SIZE_MAX, .find_key = "values" };
	struct xerr_values vals;
	struct perr_loc loc;
	struct text t;
	json_error_t jerr;
	json_t *root;
	int ret;

	if (errp)
		*errp = NULL;
	if (!errp || (!json && len))
		return fail(perr, -EINVAL, NULL, "invalid argument");
	/*
	 * What prctl() copies out ends in a NUL; accept exactly one, and
	 * apply the limit to the JSON without it. The first test only keeps
	 * a huge len from being used to index json.
	 */
	if (len > (size_t)EXTERR_MAX_JSON + 1)
		return fail(perr, -E2BIG, NULL, "input of %zu bytes exceeds %d",
			    len, EXTERR_MAX_JSON);
	if (!json)
		json = "";
	if (len && json[len - 1] == '\0')
		len--;
	if (len > EXTERR_MAX_JSON)
		return fail(perr, -E2BIG, NULL, "input of %zu bytes exceeds %d",
			    len, EXTERR_MAX_JSON);

	if (xerr_validate(json, len, &syn)) {
		locate((const unsigned char *)json, syn.position, &loc);
		return fail(perr, -EBADMSG, &loc, "%s", syn.reason);
	}

	if (xerr_values_scan(json, len, syn.key_start == SIZE_MAX ? SIZE_MAX :
			     syn.value_start, &vals))
		return fail(perr, -ENOMEM, NULL, "out of memory");
	/*
	 * jansson leaves jerr untouched when its first allocation fails;
	 * zeroed, that reads as json_error_unknown with no position.
	 */
	memset(&jerr, 0, sizeof(jerr));
	jerr.line = jerr.column = jerr.position = -1;
	root = json_loadb(vals.masked ?: json, len,
			  JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &jerr);
	if (!root) {
		xerr_values_free(&vals);
		return jansson_fail(json, len, &jerr, perr);
	}

	t.json = json;
	t.len = len;
	ret = schema(&t, root, &vals, perr);
	if (!ret)
		ret = build(root, json, len, &vals, errp, perr);
	json_decref(root);
	xerr_values_free(&vals);
	if (!ret)
		fail(perr, 0, NULL, "%s", "");
	return ret;
}

EXTERR_API int exterr_parse(const char *json, size_t len,
			    struct exterr **errp)
{
	return exterr_parse_ex(json, len, errp, NULL);
}

EXTERR_API void exterr_free(struct exterr *err)
{
	free(err);
}

EXTERR_API const char *exterr_error_class(int neg_errno)
{
	switch (neg_errno) {
	case -EINVAL:
		return "invalid-argument";
	case -E2BIG:
		return "too-big";
	case -EBADMSG:
		return "malformed";
	case -EPROTO:
		return "schema";
	case -ENOMEM:
		return "out-of-memory";
	}
	return "error";
}

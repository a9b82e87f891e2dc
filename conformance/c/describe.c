// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * describe FILE...: parse each FILE with libexterr and print the canonical
 * result object of docs/contract.md section 5 as one line of JSON per FILE,
 * in order (conformance/run hands many files to one process).
 *
 * Only libexterr's public API decides anything here: exterr_parse_ex()
 * places a rejection, the class name comes from exterr_error_class(),
 * type names from exterr_field_type_name() and the human line from
 * exterr_format(). jansson only writes the output.
 *
 * Exit status: 0 when a result (ok or reject) was printed for every FILE,
 * 1 otherwise. A FILE that cannot be read, or whose result cannot be
 * written as JSON, gets the line {"describe-error": "..."} instead (and
 * the message on stderr), so the lines still match the FILEs one to one.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "exterr.h"

/* Why the current FILE has no result; NULL while all is well. */
static const char *problem;

static void die(const char *what)
{
	fprintf(stderr, "describe: %s\n", what);
	exit(1);
}

static void *xrealloc(void *p, size_t size)
{
	p = realloc(p, size);
	if (!p)
		die("out of memory");
	return p;
}

/* The whole file (never a NULL buffer, even when empty), or NULL. */
static char *slurp(const char *path, size_t *len)
{
	size_t size = 4096, n = 0;
	char *buf;
	FILE *f = fopen(path, "rb");

	if (!f) {
		problem = strerror(errno);
		return NULL;
	}
	buf = xrealloc(NULL, size);
	for (;;) {
		n += fread(buf + n, 1, size - n, f);
		if (n < size)
			break;
		size *= 2;
		buf = xrealloc(buf, size);
	}
	if (ferror(f)) {
		problem = "read error";
		free(buf);
		buf = NULL;
	}
	fclose(f);
	*len = n;
	return buf;
}

/*
 * jansson refuses invalid UTF-8; that would be a libexterr bug to report.
 * json_pack() fails on the NULL, so the result is then NULL as well.
 */
static json_t *str(const char *s)
{
	json_t *v = json_string(s);

	if (!v)
		problem = "libexterr returned a string that is not UTF-8";
	return v;
}

static json_t *fields(const struct exterr *err)
{
	json_t *list = json_array();
	size_t i;

	for (i = 0; i < err->nr_fields; i++) {
		const struct exterr_field *f = &err->fields[i];

		if (json_array_append_new(list, json_pack("{s:o, s:s, s:o}",
				"name", str(f->name),
				"type", exterr_field_type_name(f->type),
				"value", str(f->value)))) {
			json_decref(list);
			return NULL;
		}
	}
	return list;
}

/* The values as [{name, value}], value in decimal. */
static json_t *values(const struct exterr *err)
{
	json_t *list = json_array();
	char num[32];
	size_t i;

	for (i = 0; list && EXTERR_HAS(err, values) && i < err->nr_values;
	     i++) {
		const struct exterr_value *v = &err->values[i];

		if (v->negative)
			snprintf(num, sizeof(num), "%lld", v->value);
		else
			snprintf(num, sizeof(num), "%llu", v->uvalue);
		if (json_array_append_new(list, json_pack("{s:o, s:s}",
				"name", str(v->name), "value", num))) {
			json_decref(list);
			return NULL;
		}
	}
	return list;
}

static const char *severity(const struct exterr *err)
{
	switch (EXTERR_HAS(err, severity) ? err->severity :
					    EXTERR_SEVERITY_ERROR) {
	case EXTERR_SEVERITY_INFO:
		return "info";
	case EXTERR_SEVERITY_WARNING:
		return "warning";
	default:
		return "error";
	}
}

static json_t *formatted(const struct exterr *err)
{
	int n = exterr_format(err, NULL, 0);
	char *line;
	json_t *v;

	if (n < 0) {
		problem = "exterr_format() failed";
		return NULL;
	}
	line = xrealloc(NULL, (size_t)n + 1);
	if (exterr_format(err, line, (size_t)n + 1) != n) {
		problem = "exterr_format() failed";
		v = NULL;
	} else {
		v = str(line);
	}
	free(line);
	return v;
}

/*
 * A rejection: its class, where it is, and whether a reason was given.
 * No place is null: position SIZE_MAX, line and column 0 (exterr.h);
 * each is tested on its own so that a half-placed error shows up. The
 * reason's English words are not compared (contract section 5).
 */
static json_t *rejection(int ret, const struct exterr_parse_error *perr)
{
	return json_pack("{s:s, s:s, s:o, s:o, s:o, s:b}",
			 "result", "reject", "class", exterr_error_class(ret),
			 "position", perr->position == SIZE_MAX ? json_null() :
				json_integer((json_int_t)perr->position),
			 "line", perr->line ? json_integer(perr->line) :
					      json_null(),
			 "column", perr->column ? json_integer(perr->column) :
						  json_null(),
			 "has-reason", perr->reason[0] != '\0');
}

/* The canonical object for one input, or NULL with problem set. */
static json_t *describe(const char *buf, size_t len)
{
	struct exterr_parse_error perr = { .size = sizeof(perr) };
	struct exterr *err;
	json_t *out;
	int ret = exterr_parse_ex(buf, len, &err, &perr);

	if (ret < 0)
		return rejection(ret, &perr);
	/* json_pack keeps the order; the comparison ignores it anyway. */
	out = json_pack("{s:s, s:i, s:o, s:o, s:o, s:i, s:i, s:o, s:o, s:s,"
			" s:o, s:o}",
			"result", "ok", "error", err->error,
			"module", str(err->module),
			"message", str(err->message),
			"file", str(err->file), "line", err->line,
			"syscall", err->syscall, "fields", fields(err),
			"id", err->id ? str(err->id) : json_null(),
			"severity", severity(err), "values", values(err),
			"format", formatted(err));
	exterr_free(err);
	return out;
}

int main(int argc, char **argv)
{
	int i, status = 0;

	if (argc < 2)
		die("usage: describe FILE...");
	for (i = 1; i < argc; i++) {
		json_t *out = NULL;
		size_t len;
		char *buf;

		problem = NULL;
		buf = slurp(argv[i], &len);
		if (buf)
			out = describe(buf, len);
		free(buf);
		if (!out) {
			if (!problem)
				problem = "cannot build the result";
			fprintf(stderr, "describe: %s: %s\n", argv[i], problem);
			out = json_pack("{s:s}", "describe-error", problem);
			status = 1;
		}
		if (!out || json_dumpf(out, stdout, JSON_COMPACT) ||
		    puts("") == EOF)
			die("cannot write the result");
		json_decref(out);
	}
	if (fflush(stdout))
		die("cannot write the result");
	return status;
}

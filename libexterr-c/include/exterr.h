/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * exterr.h - read the Linux kernel's extended description of a failed
 * system call.
 *
 * The kernel keeps, per thread, a description of the last error that a
 * subsystem reported through exterr; prctl(PR_GET_ERR_DESC) hands it out as
 * one JSON object. This library fetches it, parses it once into a struct
 * exterr, and formats it for people. The JSON contract is docs/contract.md.
 *
 * ABI rules (exterr(3type)): struct exterr is allocated by the library and
 * only ever grows by appending members; read err->size before touching a
 * member added after version 1.0. struct exterr_field is an array element,
 * so its size cannot change: it stays as it is for all of 1.x.
 */
#ifndef EXTERR_H
#define EXTERR_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define EXTERR_VERSION_MAJOR 1
#define EXTERR_VERSION_MINOR 1
#define EXTERR_VERSION_PATCH 0
#define EXTERR_VERSION "1.1.0"
#define EXTERR_VERSION_NUMBER \
	((EXTERR_VERSION_MAJOR << 16) | (EXTERR_VERSION_MINOR << 8) | \
	 EXTERR_VERSION_PATCH)

/* prctl option; kernels without exterr fail it with EINVAL. */
#ifndef PR_GET_ERR_DESC
#define PR_GET_ERR_DESC 0x45525244
#endif
/* Its flag (arg4) asking for notes on successful calls too. */
#ifndef PR_ERR_DESC_NOTES
#define PR_ERR_DESC_NOTES (1UL << 0)
#endif
/*
 * The kernel records descriptions only for processes that asked:
 * prctl(PR_SET_ERR_DESC_ENABLED, 1, 0, 0, 0) asks for every thread of the
 * process, for its children and across execve(), and cannot be undone.
 * Loading libexterr asks (libexterr(7)).
 */
#ifndef PR_SET_ERR_DESC_ENABLED
#define PR_SET_ERR_DESC_ENABLED 0x45525245
#endif
/* Returns 1 when the calling thread records descriptions, else 0. */
#ifndef PR_GET_ERR_DESC_ENABLED
#define PR_GET_ERR_DESC_ENABLED 0x45525246
#endif

/* exterr_fetch_ex() flags. 1.1 */
#define EXTERR_FETCH_NOTES 0x1u

/* struct exterr severity: an error (code < 0), or a note (code 0). 1.1 */
enum exterr_severity {
	EXTERR_SEVERITY_ERROR = 0,
	EXTERR_SEVERITY_INFO,
	EXTERR_SEVERITY_WARNING,
};

/*
 * Whether @err (from this library, of any 1.x version) has @member: for
 * the members added after 1.0, e.g. EXTERR_HAS(err, id).
 */
#define EXTERR_HAS(err, member) \
	(offsetof(struct exterr, member) + sizeof((err)->member) <= (err)->size)

/* exterr_parse() rejects longer JSON (not counting one trailing NUL)
 * with -E2BIG. */
#define EXTERR_MAX_JSON 65536
/* exterr_parse() rejects deeper nesting with -EBADMSG. */
#define EXTERR_MAX_DEPTH 32

enum exterr_field_type {
	EXTERR_FIELD_STRING = 1,
	EXTERR_FIELD_INTEGER,
	EXTERR_FIELD_REAL,
	EXTERR_FIELD_BOOLEAN,
	EXTERR_FIELD_NULL,
	EXTERR_FIELD_OBJECT,
	EXTERR_FIELD_ARRAY,
};

struct exterr_field {
	const char *name;		/* the JSON key */
	enum exterr_field_type type;
	const char *value;		/* text form, see docs/contract.md */
	long long integer;		/* the value when type is INTEGER */
};

/*
 * One runtime value of a description ("values" in the JSON): an integer
 * from -2^63 to 2^64 - 1. 1.1
 */
struct exterr_value {
	const char *name;
	long long value;		/* exact when it fits a long long */
	unsigned long long uvalue;	/* exact when not negative */
	int negative;			/* 1 when the value is below 0 */
};

struct exterr {
	size_t size;			/* sizeof(struct exterr) of the library */
	int error;			/* positive errno, e.g. EINVAL */
	const char *module;
	const char *message;
	const char *file;		/* relative to the kernel source tree */
	int line;
	int syscall;			/* syscall number, -1 when absent */
	size_t nr_fields;
	const struct exterr_field *fields; /* domain keys, document order */
	const char *json;		/* the raw JSON text, NUL-terminated */
	size_t json_len;
	/* 1.1: check EXTERR_HAS() first. */
	const char *id;			/* the site's stable id, or NULL */
	enum exterr_severity severity;	/* ERROR, or a note's severity */
	size_t nr_values;
	const struct exterr_value *values; /* document order, or NULL */
};

/* Where and why exterr_parse_ex() failed, filled in when perr != NULL. */
struct exterr_parse_error {
	size_t size;			/* set by the caller: sizeof(*perr) */
	int error;			/* the negative errno returned */
	size_t position;		/* 0-based byte offset of the first
					 * offending byte, see exterr_parse(3);
					 * SIZE_MAX when it has no place */
	int line;			/* 1-based line of the position, or 0 */
	int column;			/* 1-based column of the position, or 0 */
	char reason[160];		/* NUL-terminated English text */
};

const char *exterr_version(void);

int exterr_fetch(struct exterr **errp);
/* exterr_fetch() with EXTERR_FETCH_NOTES or 0. 1.1 */
int exterr_fetch_ex(struct exterr **errp, unsigned int flags);
/* 1 when the running kernel has exterr, else 0; consumes nothing. 1.1 */
int exterr_supported(void);
int exterr_parse(const char *json, size_t len, struct exterr **errp);
int exterr_parse_ex(const char *json, size_t len, struct exterr **errp,
		    struct exterr_parse_error *perr);
void exterr_free(struct exterr *err);

const char *exterr_field(const struct exterr *err, const char *name);
/* The value called @name, or NULL. 1.1 */
const struct exterr_value *exterr_value(const struct exterr *err,
					const char *name);
int exterr_format(const struct exterr *err, char *buf, size_t size);
void exterr_perror(const char *s);

/* "malformed", "schema", "too-big", ... for an exterr_parse() result. */
const char *exterr_error_class(int neg_errno);
/* "string", "integer", "real", "boolean", "null", "object", "array". */
const char *exterr_field_type_name(enum exterr_field_type type);

#ifdef __cplusplus
}
#endif

#endif /* EXTERR_H */

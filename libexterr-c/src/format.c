// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * exterr_format(): the one-line human form of a description
 * (docs/contract.md, section 4), with snprintf() semantics.
 *
 * The message, and only the message, is looked up by the site's id in the
 * gettext catalogue of the text domain EXTERR_TEXT_DOMAIN; without an id,
 * a catalogue or a translation for the process's locale it is the
 * kernel's English text. The C locale never selects a translation.
 */
#define _GNU_SOURCE		/* strerrordesc_np() */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if EXTERR_NLS
#include <libintl.h>
#include <pthread.h>
#endif

#include "internal.h"

#if EXTERR_NLS
static pthread_once_t bind_once = PTHREAD_ONCE_INIT;

/*
 * The catalogues are installed with the library, under its prefix
 * (EXTERR_LOCALEDIR, fixed when it is configured). A build that compiles
 * these sources into something else that is only placed at install time
 * (the Python binding's extension, which carries its catalogues in its
 * package) instead defines EXTERR_LOCALEDIR_FN as the name of a function
 * of its own that returns the directory, asked once, on the first lookup.
 * No exported symbol: the libexterr.so ABI does not change.
 */
#ifdef EXTERR_LOCALEDIR_FN
const char *EXTERR_LOCALEDIR_FN(void);
#define LOCALEDIR EXTERR_LOCALEDIR_FN()
#else
#define LOCALEDIR EXTERR_LOCALEDIR
#endif

/* The line stays UTF-8, as the description is, whatever the locale's charset. */
static void bind_domain(void)
{
	bindtextdomain(EXTERR_TEXT_DOMAIN, LOCALEDIR);
	bind_textdomain_codeset(EXTERR_TEXT_DOMAIN, "UTF-8");
}

/* Only a well-formed id (docs/contract.md section 2) is looked up. */
static bool id_valid(const char *id)
{
	size_t n;

	for (n = 0; id[n]; n++)
		if (n == 64 || !((id[n] >= 'a' && id[n] <= 'z') ||
				 (id[n] >= '0' && id[n] <= '9') ||
				 id[n] == '_' || id[n] == '.'))
			return false;
	return n > 0;
}
#endif

/* The message to print: the translation of the id, or the English text. */
static const char *message_of(const struct exterr *err)
{
#if EXTERR_NLS
	const char *id = EXTERR_HAS(err, id) ? err->id : NULL;
	const char *text;
	int saved_errno = errno;

	if (!id || !id_valid(id))
		return err->message;
	pthread_once(&bind_once, bind_domain);
	text = dgettext(EXTERR_TEXT_DOMAIN, id);
	errno = saved_errno;
	/* dgettext() hands the msgid back when it has no translation. */
	if (text && text != id && *text)
		return text;
#endif
	return err->message;
}

/* Counts every byte, stores those that fit, like snprintf(). */
struct out {
	char *buf;
	size_t size;
	size_t len;
};

static void out_char(struct out *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void out_str(struct out *o, const char *s)
{
	while (*s)
		out_char(o, *s++);
}

/* Control characters would break the one-line promise; spell them out. */
static void out_escaped_char(struct out *o, unsigned char c)
{
	static const char hex[] = "0123456789abcdef";

	switch (c) {
	case '\n':
		out_str(o, "\\n");
		return;
	case '\t':
		out_str(o, "\\t");
		return;
	case '\r':
		out_str(o, "\\r");
		return;
	}
	if (c < 0x20 || c == 0x7f) {
		out_str(o, "\\x");
		out_char(o, hex[c >> 4]);
		out_char(o, hex[c & 0xf]);
		return;
	}
	out_char(o, (char)c);
}

static void out_text(struct out *o, const char *s)
{
	while (*s)
		out_escaped_char(o, (unsigned char)*s++);
}

static bool is_bare(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
		    (c >= '0' && c <= '9') || strchr("_.:/+-", c))
			continue;
		return false;
	}
	return true;
}

static void out_value(struct out *o, const struct exterr_field *f)
{
	const char *s;

	if (f->type != EXTERR_FIELD_STRING || is_bare(f->value)) {
		out_str(o, f->value);
		return;
	}
	out_char(o, '"');
	for (s = f->value; *s; s++) {
		if (*s == '"' || *s == '\\')
			out_char(o, '\\');
		out_escaped_char(o, (unsigned char)*s);
	}
	out_char(o, '"');
}

EXTERR_API int exterr_format(const struct exterr *err, char *buf, size_t size)
{
	struct out o = { .buf = buf, .size = size };
	const char *desc;
	char num[32];
	size_t i;

	if (!err || (!buf && size))
		return -EINVAL;

	desc = strerrordesc_np(err->error);
	/* A note says what it is rather than "Success". */
	if (EXTERR_HAS(err, severity) && err->severity != EXTERR_SEVERITY_ERROR)
		desc = err->severity == EXTERR_SEVERITY_WARNING ? "warning" :
								   "note";
	if (desc) {
		out_str(&o, desc);
	} else {
		snprintf(num, sizeof(num), "Error %d", err->error);
		out_str(&o, num);
	}
	out_str(&o, ": ");
	out_text(&o, message_of(err));
	out_str(&o, " [");
	out_text(&o, err->module);
	for (i = 0; i < err->nr_fields; i++) {
		out_char(&o, ' ');
		/* Keys are not in the contract's rule, but may hold controls. */
		out_text(&o, err->fields[i].name);
		out_char(&o, '=');
		out_value(&o, &err->fields[i]);
	}
	for (i = 0; EXTERR_HAS(err, values) && i < err->nr_values; i++) {
		const struct exterr_value *v = &err->values[i];

		out_char(&o, ' ');
		out_text(&o, v->name);
		if (v->negative)
			snprintf(num, sizeof(num), "=%lld", v->value);
		else
			snprintf(num, sizeof(num), "=%llu", v->uvalue);
		out_str(&o, num);
	}
	out_str(&o, "] (");
	out_text(&o, err->file);
	snprintf(num, sizeof(num), ":%d)", err->line);
	out_str(&o, num);

	if (size)
		buf[o.len < size ? o.len : size - 1] = '\0';
	if (o.len > INT_MAX)
		return -EOVERFLOW;
	return (int)o.len;
}

/*
 * exterr_format()'s line in a new allocation, for exterr_perror() and the
 * preload shim, or NULL (no memory, or nothing to format).
 */
char *xerr_format_dup(const struct exterr *err)
{
	char *line;
	int n;

	n = exterr_format(err, NULL, 0);
	if (n < 0)
		return NULL;
	line = malloc((size_t)n + 1);
	if (line)
		exterr_format(err, line, (size_t)n + 1);
	return line;
}

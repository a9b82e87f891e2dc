// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * xerr_validate(): is the input one strict RFC 8259 JSON text in valid
 * UTF-8, within the library's own limits (docs/contract.md, section 3)?
 *
 * This runs before jansson so that "malformed" is decided by the whole
 * text and not by wherever jansson happens to stop first: jansson gives up
 * at the first duplicate key or overflowing number, which are schema
 * errors, even when the text is also truncated further on. Once this pass
 * has accepted the text, jansson can only fail for a duplicate key, a
 * number it cannot represent, or lack of memory.
 *
 * One pass, no allocation, no recursion: the open containers are kept in a
 * fixed stack of EXTERR_MAX_DEPTH entries. Errors point AT the first byte
 * that makes the text invalid (len when the text ends too early, also
 * right after a high surrogate escape); for an escape that is wrong as a
 * whole (\u0000, a lone surrogate) and for an ill-formed UTF-8 sequence
 * (also one cut short by the end), that is the first byte of the escape
 * or sequence.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

struct vstate {
	const unsigned char *s;
	size_t len;
	size_t i;
	struct xerr_syntax *out;
};

static int bad(struct vstate *v, size_t pos, const char *what)
{
	struct xerr_syntax *out = v->out;
	unsigned char c;

	out->position = pos;
	if (pos >= v->len) {
		snprintf(out->reason, sizeof(out->reason),
			 "unexpected end of input: %s", what);
		return -1;
	}
	c = v->s[pos];
	if (c == '\0')
		snprintf(out->reason, sizeof(out->reason), "raw NUL byte: %s",
			 what);
	else if (c >= 0x21 && c < 0x7f)
		snprintf(out->reason, sizeof(out->reason), "%s, got '%c'",
			 what, c);
	else
		snprintf(out->reason, sizeof(out->reason), "%s, got byte 0x%02x",
			 what, c);
	return -1;
}

static void skip_ws(struct vstate *v)
{
	while (v->i < v->len) {
		switch (v->s[v->i]) {
		case ' ':
		case '\t':
		case '\n':
		case '\r':
			v->i++;
			continue;
		}
		return;
	}
}

static int hex(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* The four hex digits of a \u escape whose backslash is at esc. */
static int read_u(struct vstate *v, size_t esc, unsigned *cp)
{
	size_t k;
	int d;

	*cp = 0;
	for (k = esc + 2; k < esc + 6; k++) {
		if (k >= v->len || (d = hex(v->s[k])) < 0)
			return bad(v, k, "4 hex digits expected in \\u escape");
		*cp = *cp << 4 | (unsigned)d;
	}
	return 0;
}

/* One UTF-8 sequence (Unicode Table 3-7) starting at v->i. */
static int utf8(struct vstate *v)
{
	const unsigned char *s = v->s;
	size_t start = v->i, n, k;
	unsigned char c = s[start], lo = 0x80, hi = 0xbf;

	if (c >= 0xc2 && c <= 0xdf) {
		n = 1;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 2;
		if (c == 0xe0)
			lo = 0xa0;		/* overlong */
		else if (c == 0xed)
			hi = 0x9f;		/* surrogates */
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 3;
		if (c == 0xf0)
			lo = 0x90;		/* overlong */
		else if (c == 0xf4)
			hi = 0x8f;		/* above U+10FFFF */
	} else {
		return bad(v, start, "invalid UTF-8 (not a lead byte)");
	}
	for (k = 1; k <= n; k++) {
		/* Cut short by the end of the input, it is ill-formed too. */
		if (start + k >= v->len || s[start + k] < lo ||
		    s[start + k] > hi)
			return bad(v, start, "invalid UTF-8 sequence");
		lo = 0x80;
		hi = 0xbf;
	}
	v->i = start + n + 1;
	return 0;
}

/* A string starting at the '"' at v->i; v->i ends past its closing '"'. */
static int string(struct vstate *v)
{
	const unsigned char *s = v->s;
	unsigned cp, lo;
	size_t esc;

	v->i++;
	for (;;) {
		unsigned char c;

		if (v->i >= v->len)
			return bad(v, v->i, "'\"' expected to end the string");
		c = s[v->i];
		if (c == '"') {
			v->i++;
			return 0;
		}
		if (c < 0x20)
			return bad(v, v->i,
				   "control characters must be escaped in strings");
		if (c >= 0x80) {
			if (utf8(v))
				return -1;
			continue;
		}
		if (c != '\\') {
			v->i++;
			continue;
		}
		esc = v->i;
		if (esc + 1 >= v->len)
			return bad(v, esc + 1, "escape character expected");
		switch (s[esc + 1]) {
		case '"': case '\\': case '/': case 'b':
		case 'f': case 'n': case 'r': case 't':
			v->i = esc + 2;
			continue;
		case 'u':
			break;
		default:
			return bad(v, esc + 1, "invalid escape");
		}
		if (read_u(v, esc, &cp))
			return -1;
		if (cp == 0)
			return bad(v, esc, "\\u0000 (NUL) is not allowed");
		if (cp >= 0xdc00 && cp <= 0xdfff)
			return bad(v, esc, "lone low surrogate escape");
		v->i = esc + 6;
		if (cp < 0xd800 || cp > 0xdbff)
			continue;
		/*
		 * A high surrogate: the low half must follow at once. When
		 * the input ends first, it is a premature end (at len), not
		 * yet a lone surrogate.
		 */
		if (v->i >= v->len ||
		    (s[v->i] == '\\' && v->i + 1 >= v->len))
			return bad(v, v->len, "low surrogate escape expected");
		if (s[v->i] != '\\' || s[v->i + 1] != 'u')
			return bad(v, esc, "lone high surrogate escape");
		if (read_u(v, v->i, &lo))
			return -1;
		if (lo < 0xdc00 || lo > 0xdfff)
			return bad(v, esc, "lone high surrogate escape");
		v->i += 6;
	}
}

static bool digit(struct vstate *v)
{
	return v->i < v->len && v->s[v->i] >= '0' && v->s[v->i] <= '9';
}

/* RFC 8259: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)? */
static int number(struct vstate *v)
{
	if (v->s[v->i] == '-')
		v->i++;
	if (!digit(v))
		return bad(v, v->i, "digit expected in number");
	if (v->s[v->i] == '0') {
		v->i++;
		if (digit(v))
			return bad(v, v->i, "leading zeros are not allowed");
	} else {
		while (digit(v))
			v->i++;
	}
	if (v->i < v->len && v->s[v->i] == '.') {
		v->i++;
		if (!digit(v))
			return bad(v, v->i, "digit expected after '.'");
		while (digit(v))
			v->i++;
	}
	if (v->i < v->len && (v->s[v->i] == 'e' || v->s[v->i] == 'E')) {
		v->i++;
		if (v->i < v->len && (v->s[v->i] == '+' || v->s[v->i] == '-'))
			v->i++;
		if (!digit(v))
			return bad(v, v->i, "digit expected in exponent");
		while (digit(v))
			v->i++;
	}
	return 0;
}

static int literal(struct vstate *v, const char *word)
{
	size_t n = strlen(word), k;

	for (k = 0; k < n; k++)
		if (v->i + k >= v->len || v->s[v->i + k] != (unsigned char)word[k])
			return bad(v, v->i + k, "invalid literal");
	v->i += n;
	return 0;
}

/* Records the token [start, v->i) for the find_end search. */
static void token(struct vstate *v, size_t start)
{
	if (v->i == v->out->find_end)
		v->out->found_start = start;
}

/* The value of 4 hex digits that string() has already checked. */
static unsigned hex4(const unsigned char *p)
{
	return (unsigned)(hex(p[0]) << 12 | hex(p[1]) << 8 | hex(p[2]) << 4 |
			  hex(p[3]));
}

static size_t utf8_put(unsigned cp, unsigned char *buf)
{
	if (cp < 0x80) {
		buf[0] = (unsigned char)cp;
		return 1;
	}
	if (cp < 0x800) {
		buf[0] = (unsigned char)(0xc0 | cp >> 6);
		buf[1] = (unsigned char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		buf[0] = (unsigned char)(0xe0 | cp >> 12);
		buf[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
		buf[2] = (unsigned char)(0x80 | (cp & 0x3f));
		return 3;
	}
	buf[0] = (unsigned char)(0xf0 | cp >> 18);
	buf[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3f));
	buf[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
	buf[3] = (unsigned char)(0x80 | (cp & 0x3f));
	return 4;
}

/*
 * Does the string token [start, end), already checked by string(), decode
 * to key? Compared decoded, as jansson stores it: "\u0063ode" is "code".
 */
static bool key_is(const unsigned char *s, size_t start, size_t end,
		   const char *key)
{
	const unsigned char *k = (const unsigned char *)key;
	size_t i = start + 1, n, j;
	unsigned char buf[4];
	unsigned cp;

	while (i < end - 1) {
		if (s[i] != '\\') {
			buf[0] = s[i++];
			n = 1;
		} else if (s[i + 1] != 'u') {
			switch (s[i + 1]) {
			case 'b':
				buf[0] = '\b';
				break;
			case 'f':
				buf[0] = '\f';
				break;
			case 'n':
				buf[0] = '\n';
				break;
			case 'r':
				buf[0] = '\r';
				break;
			case 't':
				buf[0] = '\t';
				break;
			default:	/* '"', '\\' and '/' stand for themselves */
				buf[0] = s[i + 1];
				break;
			}
			i += 2;
			n = 1;
		} else {
			cp = hex4(s + i + 2);
			i += 6;
			if (cp >= 0xd800 && cp <= 0xdbff) {
				cp = 0x10000 + ((cp - 0xd800) << 10) +
				     (hex4(s + i + 2) - 0xdc00);
				i += 6;
			}
			n = utf8_put(cp, buf);
		}
		/* Decoded keys hold no NUL, so a mismatch stops at key's end. */
		for (j = 0; j < n; j++)
			if (*k++ != buf[j])
				return false;
	}
	return *k == '\0';
}

int xerr_validate(const char *json, size_t len, struct xerr_syntax *out)
{
	struct vstate v = { (const unsigned char *)json, len, 0, out };
	unsigned char stack[EXTERR_MAX_DEPTH];	/* '}' or ']' */
	size_t depth = 0, start;
	enum { VALUE, AFTER_VALUE, KEY } state = VALUE;
	bool found;

	out->position = 0;
	out->reason[0] = '\0';
	out->found_start = SIZE_MAX;
	out->key_start = SIZE_MAX;
	out->value_start = SIZE_MAX;
	out->root_start = SIZE_MAX;
	out->root_close = SIZE_MAX;
	skip_ws(&v);
	for (;;) {
		switch (state) {
		case VALUE:
			if (v.i >= len)
				return bad(&v, v.i, "value expected");
			start = v.i;
			if (!depth)
				out->root_start = start;
			switch (v.s[v.i]) {
			case '{':
			case '[':
				if (depth == EXTERR_MAX_DEPTH)
					return bad(&v, v.i,
						   "nesting deeper than "
						   "EXTERR_MAX_DEPTH (32)");
				stack[depth++] = v.s[v.i] == '{' ? '}' : ']';
				v.i++;
				skip_ws(&v);
				if (v.i < len && v.s[v.i] == stack[depth - 1]) {
					if (!--depth)
						out->root_close = v.i;
					v.i++;
					state = AFTER_VALUE;
				} else {
					state = stack[depth - 1] == '}' ?
						KEY : VALUE;
				}
				continue;
			case '"':
				if (string(&v))
					return -1;
				break;
			case '-': case '0': case '1': case '2': case '3':
			case '4': case '5': case '6': case '7': case '8':
			case '9':
				if (number(&v))
					return -1;
				break;
			case 't':
				if (literal(&v, "true"))
					return -1;
				break;
			case 'f':
				if (literal(&v, "false"))
					return -1;
				break;
			case 'n':
				if (literal(&v, "null"))
					return -1;
				break;
			default:
				return bad(&v, v.i, "value expected");
			}
			token(&v, start);
			state = AFTER_VALUE;
			continue;
		case KEY:
			if (v.i >= len || v.s[v.i] != '"')
				return bad(&v, v.i, "'\"' expected to start a key");
			start = v.i;
			if (string(&v))
				return -1;
			token(&v, start);
			found = depth == 1 && out->find_key &&
				key_is(v.s, start, v.i, out->find_key);
			if (found)
				out->key_start = start;
			skip_ws(&v);
			if (v.i >= len || v.s[v.i] != ':')
				return bad(&v, v.i, "':' expected after a key");
			v.i++;
			skip_ws(&v);
			if (found)
				out->value_start = v.i;
			state = VALUE;
			continue;
		case AFTER_VALUE:
			skip_ws(&v);
			if (depth == 0) {
				if (v.i < len)
					return bad(&v, v.i,
						   "end of input expected after "
						   "the JSON text");
				return 0;
			}
			if (v.i < len && v.s[v.i] == ',') {
				v.i++;
				skip_ws(&v);
				state = stack[depth - 1] == '}' ? KEY : VALUE;
				continue;
			}
			if (v.i < len && v.s[v.i] == stack[depth - 1]) {
				if (!--depth)
					out->root_close = v.i;
				v.i++;
				continue;
			}
			return bad(&v, v.i, stack[depth - 1] == '}' ?
				   "',' or '}' expected" :
				   "',' or ']' expected");
		}
	}
}

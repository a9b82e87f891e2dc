// SPDX-License-Identifier: MIT
/* exterr_parse(): every error class, positions, field types and order. */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <exterr.h>
#include "t.h"
#include "parse_check.h"

#define EXAMPLE "{\"code\":-22,\"module\":\"perf\",\"file\":\"kernel/events/core.c\",\"line\":12883,\"message\":\"sample_freq above kernel.perf_event_max_sample_rate\",\"syscall\":298,\"attr_field\":\"sample_freq\"}"
#define BASE "\"code\":-22,\"module\":\"m\",\"file\":\"f.c\",\"line\":1,\"message\":\"msg\""

static void test_example(void)
{
	struct exterr *err;
	size_t len = strlen(EXAMPLE);

	CHECK_INT(exterr_parse(EXAMPLE, len, &err), 0);
	CHECK_INT(err->size, sizeof(struct exterr));
	CHECK_INT(err->error, EINVAL);
	CHECK_STR(err->module, "perf");
	CHECK_STR(err->file, "kernel/events/core.c");
	CHECK_INT(err->line, 12883);
	CHECK_STR(err->message,
		  "sample_freq above kernel.perf_event_max_sample_rate");
	CHECK_INT(err->syscall, 298);
	CHECK_INT(err->nr_fields, 1);
	CHECK_STR(err->fields[0].name, "attr_field");
	CHECK_INT(err->fields[0].type, EXTERR_FIELD_STRING);
	CHECK_STR(err->fields[0].value, "sample_freq");
	CHECK_STR(err->json, EXAMPLE);
	CHECK_INT(err->json_len, len);
	exterr_free(err);

	/* prctl() output: JSON plus its NUL. */
	CHECK_INT(exterr_parse(EXAMPLE, len + 1, &err), 0);
	CHECK_INT(err->json_len, len);
	CHECK_STR(err->json, EXAMPLE);
	exterr_free(err);

	exterr_free(NULL);
}

static void test_minimal(void)
{
	struct exterr *err;

	CHECK_INT(exterr_parse("{" BASE "}", strlen("{" BASE "}"), &err), 0);
	CHECK_INT(err->syscall, -1);
	CHECK_INT(err->nr_fields, 0);
	CHECK(err->fields == NULL);
	exterr_free(err);
	/* Keys in any order; insignificant whitespace is still RFC 8259. */
	CHECK_INT(parse_s(" {\"message\":\"m\", \"line\":0,\"file\":\"f\","
			  "\"module\":\"x\",\"code\":-4095}\n"), 0);
	CHECK_INT(parse_s("{\"code\":-1,\"module\":\"\",\"file\":\"\","
			  "\"line\":2147483647,\"message\":\"\","
			  "\"syscall\":2147483647}"), 0);
}

static void test_invalid_argument(void)
{
	struct exterr *err = (struct exterr *)&t_passed;

	CHECK_INT(exterr_parse(NULL, 5, &err), -EINVAL);
	CHECK(err == NULL);
	CHECK_INT(exterr_parse(EXAMPLE, strlen(EXAMPLE), NULL), -EINVAL);
	/* NULL with length 0 is an empty text, not a bad argument. */
	CHECK_INT(parse_n(NULL, 0), -EBADMSG);
	CHECK_INT(parse_n("", 0), -EBADMSG);
}

static void test_too_big(void)
{
	size_t max = EXTERR_MAX_JSON;
	char *buf = malloc(max + 2);
	size_t fixed = strlen("{" BASE ",\"pad\":\"\"}");

	/* A valid description of exactly the limit, then one byte more. */
	memset(buf, 'a', max + 2);
	memcpy(buf, "{" BASE ",\"pad\":\"", fixed - 2);
	memcpy(buf + max - 2, "\"}", 2);
	CHECK_INT(parse_n(buf, max), 0);
	buf[max - 2] = 'a';
	memcpy(buf + max - 1, "\"}", 2);
	CHECK_INT(parse_n(buf, max + 1), -E2BIG);
	CHECK_INT(parse_n(buf, (size_t)-1), -E2BIG);

	/*
	 * The limit applies to the JSON without its trailing NUL: exactly
	 * the limit plus a NUL is what prctl() hands out for a maximal one.
	 */
	memcpy(buf + max - 2, "\"}", 2);
	buf[max] = '\0';
	CHECK_INT(parse_n(buf, max + 1), 0);
	buf[max + 1] = '\0';
	CHECK_INT(parse_n(buf, max + 2), -E2BIG);
	/* One byte over the limit plus a NUL is still too big. */
	buf[max - 2] = 'a';
	memcpy(buf + max - 1, "\"}", 2);
	buf[max + 1] = '\0';
	CHECK_INT(parse_n(buf, max + 2), -E2BIG);
	free(buf);
}

static void test_huge_string(void)
{
	size_t n = 60000, fixed = strlen("{" BASE ",\"big\":\"\"}");
	char *buf = malloc(fixed + n + 1);
	struct exterr *err;

	sprintf(buf, "{" BASE ",\"big\":\"");
	memset(buf + fixed - 2, 'x', n);
	strcpy(buf + fixed - 2 + n, "\"}");
	CHECK_INT(exterr_parse(buf, strlen(buf), &err), 0);
	CHECK_INT(strlen(exterr_field(err, "big")), n);
	exterr_free(err);
	free(buf);
}

static void test_nul_bytes(void)
{
	char buf[256];
	size_t len = strlen(EXAMPLE);
	struct exterr_parse_error perr = { .size = sizeof(perr) };
	struct exterr *err;

	memcpy(buf, EXAMPLE, len);
	buf[len] = buf[len + 1] = '\0';
	/* Exactly one trailing NUL is tolerated, two are not. */
	CHECK_INT(parse_n(buf, len + 1), 0);
	CHECK_INT(exterr_parse_ex(buf, len + 2, &err, &perr), -EBADMSG);
	CHECK_INT(perr.position, len);
	/* A NUL inside a string or between tokens. */
	memcpy(buf, EXAMPLE, len + 1);
	buf[30] = '\0';
	CHECK_INT(exterr_parse_ex(buf, len, &err, &perr), -EBADMSG);
	CHECK_INT(perr.error, -EBADMSG);
	CHECK_INT(perr.position, 30);
	CHECK_INT(perr.line, 1);
	CHECK_INT(perr.column, 31);
	CHECK_INT(parse_n("\0{}", 3), -EBADMSG);
	/* The escaped form is rejected too (jansson without ALLOW_NUL). */
	CHECK_INT(parse_s("{" BASE ",\"x\":\"a\\u0000b\"}"), -EBADMSG);
	CHECK_INT(parse_s("{" BASE ",\"a\\u0000\":1}"), -EBADMSG);
}

static void test_malformed(void)
{
	static const char *const bad[] = {
		"{", "}", "{\"code\":}", "{\"code\":-22,}", "[", "nul",
		"{" BASE "", "{" BASE "}x", "{" BASE "}{}", "{" BASE "},",
		"{'code':-22}", "{\"code\":-22 \"line\":1}",
		"{" BASE ",\"x\":01}", "{" BASE ",\"x\":1.}",
		"{" BASE ",\"x\":.5}", "{" BASE ",\"x\":+1}",
		"{" BASE ",\"x\":NaN}", "{" BASE ",\"x\":Infinity}",
		"{" BASE ",\"x\":tru}", "{" BASE ",\"x\":\"\\x41\"}",
		"{" BASE ",\"x\":\"\\u12\"}", "{" BASE ",\"x\":\"a\tb\"}",
		"{" BASE ",\"x\":\"a\nb\"}", "{" BASE ",\"x\":[1,]}",
		"\xef\xbb\xbf{" BASE "}",		/* BOM */
		/* invalid UTF-8: stray, overlong, truncated, surrogate */
		"{" BASE ",\"x\":\"\xff\"}", "{" BASE ",\"x\":\"\xc0\x80\"}",
		"{" BASE ",\"x\":\"\xe2\x82\"}", "{" BASE ",\"x\":\"\xed\xa0\x80\"}",
		"{" BASE ",\"x\xfe\":1}", "{" BASE ",\"x\":\"\xf4\x90\x80\x80\"}",
		/* lone and reversed surrogates */
		"{" BASE ",\"x\":\"\\ud800\"}", "{" BASE ",\"x\":\"\\udc00\"}",
		"{" BASE ",\"x\":\"\\udc00\\ud800\"}",
		"{" BASE ",\"x\":\"\\ud800x\"}",
	};

	check_parse_all(bad, sizeof(bad) / sizeof(bad[0]), -EBADMSG);
}

static void test_surrogates(void)
{
	struct exterr *err;
	const char *s = "{" BASE ",\"x\":\"\\ud83d\\ude00 \\u00e9\xc3\xa9\"}";

	CHECK_INT(exterr_parse(s, strlen(s), &err), 0);
	CHECK_STR(exterr_field(err, "x"), "\xf0\x9f\x98\x80 \xc3\xa9\xc3\xa9");
	exterr_free(err);
}

static char *nest(int depth, const char *open, const char *close)
{
	size_t fixed = strlen("{" BASE ",\"x\":1}");
	char *s = malloc(fixed + 2 * (size_t)depth + 1), *p;
	int i;

	p = s + sprintf(s, "{" BASE ",\"x\":");
	for (i = 0; i < depth; i++)
		*p++ = open[i % 2];
	*p++ = '1';
	for (i = depth - 1; i >= 0; i--)
		*p++ = close[i % 2];
	strcpy(p, "}");
	return s;
}

static void test_depth(void)
{
	struct exterr_parse_error perr = { .size = sizeof(perr) };
	struct exterr *err;
	char *s;

	/* The root object is level 1: 31 more levels fit, 32 do not. */
	s = nest(EXTERR_MAX_DEPTH - 1, "[[", "]]");
	CHECK_INT(parse_s(s), 0);
	free(s);
	s = nest(EXTERR_MAX_DEPTH, "[[", "]]");
	CHECK_INT(exterr_parse_ex(s, strlen(s), &err, &perr), -EBADMSG);
	CHECK_INT(perr.position, strchr(s, '[') - s + EXTERR_MAX_DEPTH - 1);
	CHECK(strstr(perr.reason, "nesting") != NULL);
	free(s);
	/* Deep enough to hurt a recursive parser, short enough to parse. */
	s = nest(30000, "[[", "]]");
	CHECK_INT(parse_s(s), -EBADMSG);
	free(s);
	/* Brackets in strings and after escaped quotes are not nesting. */
	CHECK_INT(parse_s("{" BASE ",\"x\":\"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["
			  "[[[[[[\\\"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\\\\\"}"),
		  0);
}

static void test_schema(void)
{
	static const char *const bad[] = {
		"[]", "[1]", "1", "\"s\"", "null", "true", "{}",
		/* missing required keys */
		"{\"module\":\"m\",\"file\":\"f\",\"line\":1,\"message\":\"m\"}",
		"{\"code\":-1,\"file\":\"f\",\"line\":1,\"message\":\"m\"}",
		"{\"code\":-1,\"module\":\"m\",\"line\":1,\"message\":\"m\"}",
		"{\"code\":-1,\"module\":\"m\",\"file\":\"f\",\"message\":\"m\"}",
		"{\"code\":-1,\"module\":\"m\",\"file\":\"f\",\"line\":1}",
		/* wrong types */
		"{\"code\":-22.0,\"module\":\"m\",\"file\":\"f\",\"line\":1,\"message\":\"m\"}",
		"{\"code\":\"-22\",\"module\":\"m\",\"file\":\"f\",\"line\":1,\"message\":\"m\"}",
		"{\"code\":-22,\"module\":1,\"file\":\"f\",\"line\":1,\"message\":\"m\"}",
		"{\"code\":-22,\"module\":\"m\",\"file\":null,\"line\":1,\"message\":\"m\"}",
		"{\"code\":-22,\"module\":\"m\",\"file\":\"f\",\"line\":true,\"message\":\"m\"}",
		"{\"code\":-22,\"module\":\"m\",\"file\":\"f\",\"line\":1,\"message\":[]}",
		"{" BASE ",\"syscall\":\"298\"}", "{" BASE ",\"syscall\":1.0}",
		/* ranges */
		"{\"code\":0,\"module\":\"m\",\"file\":\"f\",\"line\":1,\"message\":\"m\"}",
		"{\"code\":22,\"module\":\"m\",\"file\":\"f\",\"line\":1,\"message\":\"m\"}",
		"{\"code\":-4096,\"module\":\"m\",\"file\":\"f\",\"line\":1,\"message\":\"m\"}",
		"{\"code\":-22,\"module\":\"m\",\"file\":\"f\",\"line\":-1,\"message\":\"m\"}",
		"{\"code\":-22,\"module\":\"m\",\"file\":\"f\",\"line\":2147483648,\"message\":\"m\"}",
		"{" BASE ",\"syscall\":-1}", "{" BASE ",\"syscall\":2147483648}",
		/* duplicates, top level and nested */
		"{" BASE ",\"code\":-22}", "{" BASE ",\"x\":1,\"x\":1}",
		"{" BASE ",\"x\":{\"a\":1,\"a\":2}}",
		/* numbers out of range for jansson */
		"{" BASE ",\"x\":9223372036854775808}",
		"{" BASE ",\"x\":-9223372036854775809}",
		"{" BASE ",\"x\":99999999999999999999999}",
		"{" BASE ",\"x\":1e400}",
		"{\"code\":-99999999999999999999,\"module\":\"m\",\"file\":\"f\",\"line\":1,\"message\":\"m\"}",
	};

	check_parse_all(bad, sizeof(bad) / sizeof(bad[0]), -EPROTO);
	/* 64-bit limits themselves are fine in a domain field. */
	CHECK_INT(parse_s("{" BASE ",\"x\":9223372036854775807,"
			  "\"y\":-9223372036854775808}"), 0);
}

static void test_fields(void)
{
	const char *s = "{\"z\":\"last?\"," BASE ",\"syscall\":16,"
			"\"s\":\"a\\\"b\\\\c\\n\",\"i\":-5,\"r\":1.5,"
			"\"r2\":0.1,\"r3\":1e2,\"t\":true,\"f\":false,"
			"\"n\":null,\"o\":{\"b\":1,\"a\":[1,2.5,\"\\u00e9\"]},"
			"\"a\":[],\"e\":{},\"big\":-9223372036854775808}";
	static const struct {
		const char *name, *value;
		enum exterr_field_type type;
	} want[] = {
		{ "z", "last?", EXTERR_FIELD_STRING },
		{ "s", "a\"b\\c\n", EXTERR_FIELD_STRING },
		{ "i", "-5", EXTERR_FIELD_INTEGER },
		{ "r", "1.5", EXTERR_FIELD_REAL },
		{ "r2", "0.10000000000000001", EXTERR_FIELD_REAL },
		{ "r3", "100.0", EXTERR_FIELD_REAL },
		{ "t", "true", EXTERR_FIELD_BOOLEAN },
		{ "f", "false", EXTERR_FIELD_BOOLEAN },
		{ "n", "null", EXTERR_FIELD_NULL },
		{ "o", "{\"b\":1,\"a\":[1,2.5,\"\xc3\xa9\"]}", EXTERR_FIELD_OBJECT },
		{ "a", "[]", EXTERR_FIELD_ARRAY },
		{ "e", "{}", EXTERR_FIELD_OBJECT },
		{ "big", "-9223372036854775808", EXTERR_FIELD_INTEGER },
	};
	struct exterr *err;
	size_t i, n = sizeof(want) / sizeof(want[0]);

	CHECK_INT(exterr_parse(s, strlen(s), &err), 0);
	CHECK_INT(err->syscall, 16);
	CHECK_INT(err->nr_fields, n);
	for (i = 0; i < n && i < err->nr_fields; i++) {
		CHECK_STR(err->fields[i].name, want[i].name);
		CHECK_STR(err->fields[i].value, want[i].value);
		CHECK_INT(err->fields[i].type, want[i].type);
	}
	CHECK_INT(err->fields[2].integer, -5);
	CHECK_INT(err->fields[12].integer, LLONG_MIN);
	CHECK_INT(err->fields[0].integer, 0);
	exterr_free(err);
}

static void test_parse_error(void)
{
	struct exterr_parse_error perr;
	struct exterr *err;
	const char *s = "{\"code\":-22,\n\"module\" \"m\"}";

	memset(&perr, 0x55, sizeof(perr));
	perr.size = sizeof(perr);
	CHECK_INT(exterr_parse_ex(s, strlen(s), &err, &perr), -EBADMSG);
	CHECK_INT(perr.error, -EBADMSG);
	/* At the offending byte: the '"' where the ':' belongs. */
	CHECK_INT(perr.line, 2);
	CHECK_INT(perr.column, 10);
	CHECK_INT(perr.position, 22);
	CHECK(strstr(perr.reason, "':' expected") != NULL);

	CHECK_INT(exterr_parse_ex("[]", 2, &err, &perr), -EPROTO);
	CHECK_STR(perr.reason, "not a JSON object");
	/* A real byte 0: line 1, unlike "no place" below. */
	CHECK_INT(perr.position, 0);
	CHECK_INT(perr.line, 1);
	CHECK_INT(perr.column, 1);
	CHECK_INT(exterr_parse_ex("{" BASE ",\"code\":1}",
				  strlen("{" BASE ",\"code\":1}"), &err, &perr),
		  -EPROTO);
	CHECK(strstr(perr.reason, "duplicate") != NULL);
	CHECK_INT(exterr_parse_ex("{\"module\":\"m\"}", 14, &err, &perr),
		  -EPROTO);
	CHECK_STR(perr.reason, "missing key \"code\"");
	/* No place in the text: SIZE_MAX and line 0, never byte 0. */
	CHECK_INT(exterr_parse_ex(NULL, 1, &err, &perr), -EINVAL);
	CHECK_INT(perr.error, -EINVAL);
	CHECK(perr.position == SIZE_MAX);
	CHECK_INT(perr.line, 0);
	CHECK_INT(perr.column, 0);
	/* Huge lengths are refused without reading the buffer. */
	CHECK_INT(exterr_parse_ex(EXAMPLE, EXTERR_MAX_JSON + 2, &err, &perr),
		  -E2BIG);
	CHECK_INT(perr.error, -E2BIG);
	CHECK(perr.position == SIZE_MAX);
	CHECK_INT(perr.line, 0);
	CHECK_INT(perr.column, 0);

	/* Success resets it. */
	CHECK_INT(exterr_parse_ex(EXAMPLE, strlen(EXAMPLE), &err, &perr), 0);
	CHECK_INT(perr.error, 0);
	CHECK_STR(perr.reason, "");
	CHECK(perr.position == SIZE_MAX);
	CHECK_INT(perr.line, 0);
	exterr_free(err);

	/* An older caller's shorter struct: nothing past its size. */
	memset(&perr, 0x55, sizeof(perr));
	perr.size = offsetof(struct exterr_parse_error, position);
	CHECK_INT(exterr_parse_ex("{", 1, &err, &perr), -EBADMSG);
	CHECK_INT(perr.error, -EBADMSG);
	CHECK(perr.position == (size_t)0x5555555555555555ULL);
	CHECK_INT(perr.reason[0], 0x55);
	perr.size = offsetof(struct exterr_parse_error, reason) + 10;
	CHECK_INT(exterr_parse_ex("{", 1, &err, &perr), -EBADMSG);
	CHECK_INT(perr.line, 1);
	CHECK_INT(perr.reason[0], 0x55);
}

/*
 * The syntax check that runs before jansson: every snippet alone is one
 * input; valid ones may still be schema errors (not objects), invalid
 * ones are -EBADMSG with position AT the first offending byte (len when
 * the text ends too early), line and column 1-based.
 */
static void test_validator(void)
{
	static const char *const good[] = {
		"{}", "[]", "0", "-0", "1", "-1", "10", "0.5", "-0.0e0",
		"1e5", "1E+5", "1e-5", "123.456e-789", "1e-400",
		"true", "false", "null", "\"\"", "\" \\\" \\\\ \\/ \\b \\f \\n \\r \\t \"",
		"\"\\u0041\\u00e9\\uFFFF\\ud83d\\ude00\\uDBFF\\uDFFF\"",
		"\"\xc2\x80\xdf\xbf\xe0\xa0\x80\xed\x9f\xbf\xee\x80\x80\xef\xbf\xbf\"",
		"\"\xf0\x90\x80\x80\xf4\x8f\xbf\xbf\x7f\"",
		" \t\r\n[ 1 , [ ] , { } , { \"a\" : [ null ] } ] \t\r\n",
		"{\"a\":1,\"b\":{\"c\":[true,false,null,\"d\",-1.5e3]}}",
	};
	static const struct {
		const char *s;
		size_t len;		/* 0: strlen(s) */
		size_t pos;
		int line, column;
	} bad[] = {
		/* structure */
		{ "", 0, 0, 1, 1 },
		{ " \n ", 0, 3, 2, 2 },
		{ "{", 0, 1, 1, 2 },
		{ "}", 0, 0, 1, 1 },
		{ "[1 2]", 0, 3, 1, 4 },
		{ "[1,]", 0, 3, 1, 4 },
		{ "[,1]", 0, 1, 1, 2 },
		{ "{\"a\":1,}", 0, 7, 1, 8 },
		{ "{\"a\" 1}", 0, 5, 1, 6 },
		{ "{\"a\":}", 0, 5, 1, 6 },
		{ "{a:1}", 0, 1, 1, 2 },
		{ "{'a':1}", 0, 1, 1, 2 },
		{ "{\"a\":1]", 0, 6, 1, 7 },
		{ "[1}", 0, 2, 1, 3 },
		{ "{}{}", 0, 2, 1, 3 },
		{ "{} x", 0, 3, 1, 4 },
		{ "{},", 0, 2, 1, 3 },
		{ "\xef\xbb\xbf{}", 0, 0, 1, 1 },		/* BOM */
		{ "{\f}", 0, 1, 1, 2 },			/* form feed */
		{ "{\v}", 0, 1, 1, 2 },			/* vertical tab */
		{ "{\n\"a\":\n/*c*/1}", 0, 7, 3, 1 },	/* comment */
		/* literals */
		{ "nul", 0, 3, 1, 4 },
		{ "tru}", 0, 3, 1, 4 },
		{ "nULL", 0, 1, 1, 2 },
		{ "truex", 0, 4, 1, 5 },
		{ "NaN", 0, 0, 1, 1 },
		{ "Infinity", 0, 0, 1, 1 },
		{ "[-Infinity]", 0, 2, 1, 3 },
		/* numbers */
		{ "-", 0, 1, 1, 2 },
		{ "[-]", 0, 2, 1, 3 },
		{ "01", 0, 1, 1, 2 },
		{ "-01", 0, 2, 1, 3 },
		{ "1.", 0, 2, 1, 3 },
		{ "[1.]", 0, 3, 1, 4 },
		{ ".5", 0, 0, 1, 1 },
		{ "+1", 0, 0, 1, 1 },
		{ "1e", 0, 2, 1, 3 },
		{ "1e+", 0, 3, 1, 4 },
		{ "[1E-x]", 0, 4, 1, 5 },
		{ "0x1F", 0, 1, 1, 2 },
		{ "[\xd9\xa1]", 0, 1, 1, 2 },		/* Arabic-Indic one */
		/* strings */
		{ "\"abc", 0, 4, 1, 5 },
		{ "[\"a\tb\"]", 0, 3, 1, 4 },
		{ "[\"a\nb\"]", 0, 3, 1, 4 },
		{ "[\"a\x1f\"]", 0, 3, 1, 4 },
		{ "\"\\x41\"", 0, 2, 1, 3 },
		{ "\"\\", 0, 2, 1, 3 },
		{ "\"\\u12\"", 0, 5, 1, 6 },
		{ "\"\\u12", 0, 5, 1, 6 },
		{ "\"\\u00G0\"", 0, 5, 1, 6 },
		{ "[\"ab\\u0000\"]", 0, 4, 1, 5 },
		{ "{\"\\u0000\":1}", 0, 2, 1, 3 },
		{ "\"x\\ud800\"", 0, 2, 1, 3 },		/* lone high */
		{ "\"x\\udc00\"", 0, 2, 1, 3 },		/* lone low */
		{ "\"\\udc00\\ud800\"", 0, 1, 1, 2 },	/* reversed */
		{ "\"\\ud800x\"", 0, 1, 1, 2 },
		{ "\"\\ud800\\n\"", 0, 1, 1, 2 },
		{ "\"\\ud800\\u0041\"", 0, 1, 1, 2 },
		{ "\"\\ud800\\ud800\"", 0, 1, 1, 2 },
		{ "\"\\ud800\\u", 0, 9, 1, 10 },
		/* the input ends where the low half belongs: a premature end */
		{ "\"\\ud800", 0, 7, 1, 8 },
		{ "\"\\ud800\\", 0, 8, 1, 9 },
		{ "[\"\\ud83d", 0, 8, 1, 9 },
		{ "{\"k\\udfff\":1}", 0, 3, 1, 4 },
		/* UTF-8: the first byte of the ill-formed sequence */
		{ "\"\xff\"", 0, 1, 1, 2 },
		{ "\"a\x80\"", 0, 2, 1, 3 },
		{ "\"\xc0\x80\"", 0, 1, 1, 2 },		/* overlong NUL */
		{ "\"\xc1\xbf\"", 0, 1, 1, 2 },
		{ "\"\xe0\x9f\xbf\"", 0, 1, 1, 2 },	/* overlong */
		{ "\"\xf0\x8f\xbf\xbf\"", 0, 1, 1, 2 },	/* overlong */
		{ "\"\xed\xa0\x80\"", 0, 1, 1, 2 },	/* surrogate */
		{ "\"\xf4\x90\x80\x80\"", 0, 1, 1, 2 },	/* > U+10FFFF */
		{ "\"\xf5\x80\x80\x80\"", 0, 1, 1, 2 },
		{ "\"\xe2\x82\"", 0, 1, 1, 2 },		/* truncated */
		{ "\"\xe2\x82", 0, 1, 1, 2 },
		{ "\"\xc3\xa9\xc3\"", 0, 3, 1, 3 },	/* column in chars */
		{ "\"\xe9t\xe9\"", 0, 1, 1, 2 },	/* Latin-1 */
		{ "{\"a\xfe\":1}", 0, 3, 1, 4 },
		{ "[\xc3\xa9]", 0, 1, 1, 2 },		/* outside a string */
		/* NUL bytes */
		{ "\0", 1, 0, 1, 1 },
		{ "{\0}", 3, 1, 1, 2 },
		{ "[\"a\0\"]", 6, 3, 1, 4 },
		{ "{}\0\0", 4, 2, 1, 3 },		/* one tolerated */
	};
	struct exterr_parse_error perr = { .size = sizeof(perr) };
	struct exterr *err;
	size_t i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		int ret = exterr_parse_ex(good[i], strlen(good[i]), &err,
					  &perr);

		if (ret == -EBADMSG)
			fprintf(stderr, "good %zu: %s: %s\n", i, good[i],
				perr.reason);
		CHECK(ret != -EBADMSG);
		exterr_free(err);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		size_t len = bad[i].len ? bad[i].len : strlen(bad[i].s);
		int ret = exterr_parse_ex(bad[i].s, len, &err, &perr);

		if (ret != -EBADMSG || perr.position != bad[i].pos ||
		    perr.line != bad[i].line || perr.column != bad[i].column)
			fprintf(stderr, "bad %zu: ret %d pos %zu %d:%d (%s)\n",
				i, ret, perr.position, perr.line, perr.column,
				perr.reason);
		CHECK_INT(ret, -EBADMSG);
		CHECK_INT(perr.error, -EBADMSG);
		CHECK_INT(perr.position, bad[i].pos);
		CHECK_INT(perr.line, bad[i].line);
		CHECK_INT(perr.column, bad[i].column);
		CHECK(perr.reason[0] != '\0');
	}
	/* The reasons say what went wrong. */
	exterr_parse_ex("{\"a\"", 4, &err, &perr);
	CHECK(strstr(perr.reason, "end of input") != NULL);
	exterr_parse_ex("[\"\\ud800\"]", 10, &err, &perr);
	CHECK(strstr(perr.reason, "surrogate") != NULL);
	exterr_parse_ex("[\"\\u0000\"]", 10, &err, &perr);
	CHECK(strstr(perr.reason, "\\u0000") != NULL);
	exterr_parse_ex("[\"\xc0\x80\"]", 6, &err, &perr);
	CHECK(strstr(perr.reason, "UTF-8") != NULL);
	exterr_parse_ex("{\0}", 3, &err, &perr);
	CHECK(strstr(perr.reason, "NUL") != NULL);
	exterr_parse_ex("[01]", 4, &err, &perr);
	CHECK(strstr(perr.reason, "leading zero") != NULL);
}

/*
 * Malformed wins over schema: jansson stops at the first duplicate key or
 * overflowing number, but the whole text is checked first.
 */
static void test_malformed_wins(void)
{
	static const struct {
		const char *s;
		size_t pos;
	} cases[] = {
		/* conformance: malformed-duplicate-key-then-invalid-utf8 */
		{ "{" BASE ",\"code\":-1,\"x\":\"\xff\"}", 78 },
		/* malformed-duplicate-key-then-truncated */
		{ "{" BASE ",\"code\":-2,", 73 },
		/* malformed-int-overflow-then-truncated */
		{ "{" BASE ",\"x\":99999999999999999999,", 88 },
		/* malformed-real-overflow-then-truncated */
		{ "{" BASE ",\"x\":1e999,", 73 },
		/* malformed-overflowing-number-where-colon-belongs */
		{ "{\"code\"1e999:-22}", 7 },
		/* nested duplicate, then too deep / trailing bytes */
		{ "{" BASE ",\"o\":{\"a\":1,\"a\":2},\"d\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}", 116 },
		{ "{" BASE ",\"x\":1,\"x\":2} x", 76 },
	};
	struct exterr_parse_error perr = { .size = sizeof(perr) };
	struct exterr *err;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int ret = exterr_parse_ex(cases[i].s, strlen(cases[i].s), &err,
					  &perr);

		if (ret != -EBADMSG || perr.position != cases[i].pos)
			fprintf(stderr, "case %zu: ret %d pos %zu (%s)\n", i,
				ret, perr.position, perr.reason);
		CHECK_INT(ret, -EBADMSG);
		CHECK_INT(perr.position, cases[i].pos);
	}
}

/* Schema errors found by jansson point at the key or number too. */
static void test_schema_positions(void)
{
	static const struct {
		const char *s;
		size_t pos;
		int line, column;
		const char *reason;
	} cases[] = {
		{ "{" BASE ",\"code\":-1}", 63, 1, 64, "duplicate" },
		{ "{" BASE ",\n\"o\":{\"a\\\"\":1,\"a\\\"\":2}}", 77, 2, 14,
		  "duplicate" },
		{ "{" BASE ",\"x\":99999999999999999999}", 67, 1, 68,
		  "too big" },
		{ "{" BASE ",\"x\":[1,-1e999]}", 70, 1, 71, "overflow" },
		{ "{\"code\":-99999999999999999999}", 8, 1, 9, "too big" },
	};
	struct exterr_parse_error perr = { .size = sizeof(perr) };
	struct exterr *err;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int ret = exterr_parse_ex(cases[i].s, strlen(cases[i].s), &err,
					  &perr);

		if (perr.position != cases[i].pos)
			fprintf(stderr, "case %zu: ret %d pos %zu (%s)\n", i,
				ret, perr.position, perr.reason);
		CHECK_INT(ret, -EPROTO);
		CHECK_INT(perr.position, cases[i].pos);
		CHECK_INT(perr.line, cases[i].line);
		CHECK_INT(perr.column, cases[i].column);
		CHECK(strstr(perr.reason, cases[i].reason) != NULL);
	}
}

/*
 * Schema errors of the tree (type, range, missing key, not an object)
 * point into the text as well: at the value of the offending root member,
 * at the '}' closing the root for a missing key, at the root value when it
 * is not an object.
 */
static void test_schema_member_positions(void)
{
	static const struct {
		const char *s;
		size_t pos;
		int line, column;
		const char *reason;
	} cases[] = {
		/* wrong type: the value's first byte */
		{ "{\"code\":\"-22\",\"module\":\"m\",\"file\":\"f\",\"line\":1,"
		  "\"message\":\"m\"}", 8, 1, 9, "\"code\" is not an integer" },
		{ "{\"code\":-22,\n \"module\":1,\n \"file\":\"f\",\"line\":1,"
		  "\"message\":\"m\"}", 23, 2, 11, "\"module\" is not a string" },
		{ "{" BASE ",\"syscall\":-1}", 73, 1, 74,
		  "\"syscall\" is -1, outside 0..2147483647" },
		{ "{\"code\":-22,\"module\":\"m\",\"file\":\"f.c\",\"line\":1,"
		  "\"message\":[]}", 57, 1, 58, "\"message\" is not a string" },
		/* whitespace between the ':' and the value */
		{ "{\"code\" :\n  \"x\",\"module\":\"m\",\"file\":\"f\",\"line\":1,"
		  "\"message\":\"m\"}", 12, 2, 3, "\"code\" is not an integer" },
		/* out of range */
		{ "{\"code\":22,\"module\":\"m\",\"file\":\"f\",\"line\":1,"
		  "\"message\":\"m\"}", 8, 1, 9, "\"code\" is 22, outside" },
		/* the column counts characters: two 2-byte ones before it */
		{ "{\"m\\u00e9\":\"\xc3\xa9\xc3\xa9\",\"code\":-22,\"module\":\"m\","
		  "\"file\":\"f\",\"line\":2147483648,\"message\":\"m\"}", 60, 1,
		  59, "\"line\" is 2147483648, outside" },
		/* keys match as decoded, and only at the root */
		{ "{\"c\\u006fde\":true,\"module\":\"m\",\"file\":\"f\",\"line\":1,"
		  "\"message\":\"m\"}", 13, 1, 14, "\"code\" is not an integer" },
		{ "{\"x\":{\"code\":\"s\"},\"code\":\"t\",\"module\":\"m\","
		  "\"file\":\"f\",\"line\":1,\"message\":\"m\"}", 25, 1, 26,
		  "\"code\" is not an integer" },
		{ "{\"code\\u00e9\":1,\"code\":\"x\",\"module\":\"m\",\"file\":\"f\","
		  "\"line\":1,\"message\":\"m\"}", 23, 1, 24,
		  "\"code\" is not an integer" },
		{ "{\"\\ud83d\\ude00\":1,\"code\":[1],\"module\":\"m\",\"file\":\"f\","
		  "\"line\":1,\"message\":\"m\"}", 25, 1, 26,
		  "\"code\" is not an integer" },
		/* missing: the '}' that closes the root, where it belongs */
		{ "{\"code\":-22,\"module\":\"m\",\"file\":\"f\",\"line\":1}", 44, 1,
		  45, "missing key \"message\"" },
		{ "{\"code\":-22,\"module\":\"m\",\"file\":\"f\",\"line\":1\n}\n", 45,
		  2, 1, "missing key \"message\"" },
		{ "{\n\"code\" :\n\t-22,\"module\":\"m\",\"file\":\"f\",\"line\":1}",
		  48, 3, 38, "missing key \"message\"" },
		{ "{}", 1, 1, 2, "missing key \"code\"" },
		{ "{\"cod\\u00e9\":-22,\"module\":\"m\",\"file\":\"f\",\"line\":1,"
		  "\"message\":\"m\"}", 63, 1, 64, "missing key \"code\"" },
		/* not an object: the root value, after any whitespace */
		{ "\"s\"", 0, 1, 1, "not a JSON object" },
		{ " \n\tnull", 3, 2, 2, "not a JSON object" },
	};
	struct exterr_parse_error perr = { .size = sizeof(perr) };
	struct exterr *err;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int ret = exterr_parse_ex(cases[i].s, strlen(cases[i].s), &err,
					  &perr);

		if (ret != -EPROTO || perr.position != cases[i].pos ||
		    perr.line != cases[i].line ||
		    perr.column != cases[i].column)
			fprintf(stderr, "case %zu: ret %d pos %zu %d:%d (%s)\n",
				i, ret, perr.position, perr.line, perr.column,
				perr.reason);
		CHECK_INT(ret, -EPROTO);
		CHECK_INT(perr.error, -EPROTO);
		CHECK_INT(perr.position, cases[i].pos);
		CHECK_INT(perr.line, cases[i].line);
		CHECK_INT(perr.column, cases[i].column);
		CHECK(strstr(perr.reason, cases[i].reason) == perr.reason);
	}
}

static void test_error_class(void)
{
	CHECK_STR(exterr_error_class(-EINVAL), "invalid-argument");
	CHECK_STR(exterr_error_class(-E2BIG), "too-big");
	CHECK_STR(exterr_error_class(-EBADMSG), "malformed");
	CHECK_STR(exterr_error_class(-EPROTO), "schema");
	CHECK_STR(exterr_error_class(-ENOMEM), "out-of-memory");
	CHECK_STR(exterr_error_class(-EIO), "error");
	CHECK_STR(exterr_error_class(EINVAL), "error");
}

int main(void)
{
	test_example();
	test_minimal();
	test_invalid_argument();
	test_too_big();
	test_huge_string();
	test_nul_bytes();
	test_malformed();
	test_surrogates();
	test_depth();
	test_schema();
	test_validator();
	test_malformed_wins();
	test_schema_positions();
	test_schema_member_positions();
	test_fields();
	test_parse_error();
	test_error_class();
	return t_done();
}

// SPDX-License-Identifier: MIT
/* exterr_format(): the contract's line, snprintf() semantics, escaping. */
#include <errno.h>
#include <string.h>

#include <exterr.h>
#include "t.h"

#define EXAMPLE "{\"code\":-22,\"module\":\"perf\",\"file\":\"kernel/events/core.c\",\"line\":12883,\"message\":\"sample_freq above kernel.perf_event_max_sample_rate\",\"syscall\":298,\"attr_field\":\"sample_freq\"}"
#define EXAMPLE_LINE "Invalid argument: sample_freq above kernel.perf_event_max_sample_rate [perf attr_field=sample_freq] (kernel/events/core.c:12883)"

static struct exterr *parse(const char *s)
{
	struct exterr *err = NULL;

	CHECK_INT(exterr_parse(s, strlen(s), &err), 0);
	return err;
}

/* Formats into a buffer of exactly the right size and returns it. */
static const char *fmt(const char *json)
{
	static char buf[4096];
	struct exterr *err = parse(json);

	if (!err)
		return "(parse failed)";
	CHECK_INT(exterr_format(err, buf, sizeof(buf)), strlen(buf));
	exterr_free(err);
	return buf;
}

static void test_example(void)
{
	CHECK_STR(fmt(EXAMPLE), EXAMPLE_LINE);
}

static void test_snprintf(void)
{
	struct exterr *err = parse(EXAMPLE);
	int len = (int)strlen(EXAMPLE_LINE);
	char buf[256];

	CHECK_INT(exterr_format(err, NULL, 0), len);
	memset(buf, 'X', sizeof(buf));
	CHECK_INT(exterr_format(err, buf, 0), len);
	CHECK_INT(buf[0], 'X');
	CHECK_INT(exterr_format(err, buf, 1), len);
	CHECK_INT(buf[0], '\0');
	CHECK_INT(buf[1], 'X');
	memset(buf, 'X', sizeof(buf));
	CHECK_INT(exterr_format(err, buf, 8), len);
	CHECK_STR(buf, "Invalid");
	CHECK_INT(buf[8], 'X');
	memset(buf, 'X', sizeof(buf));
	CHECK_INT(exterr_format(err, buf, (size_t)len), len);
	CHECK_INT(strlen(buf), len - 1);
	CHECK(!strncmp(buf, EXAMPLE_LINE, (size_t)len - 1));
	memset(buf, 'X', sizeof(buf));
	CHECK_INT(exterr_format(err, buf, (size_t)len + 1), len);
	CHECK_STR(buf, EXAMPLE_LINE);
	CHECK_INT(buf[len + 1], 'X');

	CHECK_INT(exterr_format(NULL, buf, sizeof(buf)), -EINVAL);
	CHECK_INT(exterr_format(err, NULL, 10), -EINVAL);
	exterr_free(err);
}

#define J(code, mod, file, line, msg, rest) \
	"{\"code\":" code ",\"module\":\"" mod "\",\"file\":\"" file \
	"\",\"line\":" line ",\"message\":\"" msg "\"" rest "}"

static void test_lines(void)
{
	CHECK_STR(fmt(J("-2", "vfs", "fs/namei.c", "7", "no such", "")),
		  "No such file or directory: no such [vfs] (fs/namei.c:7)");
	/* strerrordesc_np() has no text for 4095; no locale involved. */
	CHECK_STR(fmt(J("-4095", "m", "f", "0", "x", "")),
		  "Error 4095: x [m] (f:0)");
	CHECK_STR(fmt(J("-1", "", "", "0", "", "")),
		  "Operation not permitted:  [] (:0)");
	/* Controls escaped in message, module and file; the rest verbatim. */
	CHECK_STR(fmt(J("-22", "a\\tb", "f\\r.c", "1",
			"l1\\nl2\\u0001\\u001f\\u007f \\\\ \\\" \xc3\xa9", "")),
		  "Invalid argument: l1\\nl2\\x01\\x1f\\x7f \\ \" \xc3\xa9 "
		  "[a\\tb] (f\\r.c:1)");
}

static void test_values(void)
{
	CHECK_STR(fmt(J("-22", "m", "f", "1", "x",
			",\"a\":\"Az09_.:/+-\",\"b\":\"\",\"c\":\"a b\","
			"\"d\":\"q\\\"\\\\\",\"e\":\"t\\tn\\nx\\u0002\\u007f\","
			"\"g\":\"\xc3\xa9\",\"h\":\"x=y\"")),
		  "Invalid argument: x [m a=Az09_.:/+- b=\"\" c=\"a b\" "
		  "d=\"q\\\"\\\\\" e=\"t\\tn\\nx\\x02\\x7f\" g=\"\xc3\xa9\" "
		  "h=\"x=y\"] (f:1)");
	/* Non-strings print their value text, never quoted. */
	CHECK_STR(fmt(J("-22", "m", "f", "1", "x",
			",\"i\":-3,\"r\":0.5,\"t\":true,\"f\":false,"
			"\"n\":null,\"o\":{\"k\":\"v w\"},\"a\":[1,2]")),
		  "Invalid argument: x [m i=-3 r=0.5 t=true f=false n=null "
		  "o={\"k\":\"v w\"} a=[1,2]] (f:1)");
	/* Keys with control characters stay on one line too. */
	CHECK_STR(fmt(J("-22", "m", "f", "1", "x", ",\"k\\nk\":1")),
		  "Invalid argument: x [m k\\nk=1] (f:1)");
}

int main(void)
{
	test_example();
	test_snprintf();
	test_lines();
	test_values();
	return t_done();
}

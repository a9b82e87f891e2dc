// SPDX-License-Identifier: MIT
/*
 * What mechanism v2 adds to a description (docs/contract.md section 2):
 * the site's id, runtime values from -2^63 to 2^64 - 1, notes with a
 * severity; how they parse, what the schema refuses, and how they format.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <exterr.h>

#include "t.h"
#include "parse_check.h"

#define HEAD "\"module\":\"perf\",\"file\":\"kernel/events/core.c\"," \
	"\"line\":7,\"message\":\"sample_freq above the limit\""

static struct exterr *parse(const char *json)
{
	struct exterr *err = NULL;

	CHECK_INT(exterr_parse(json, strlen(json), &err), 0);
	return err;
}

static void test_id_and_values(void)
{
	struct exterr *err = parse("{\"code\":-22,\"id\":\"perf.sample_freq.x\","
				   HEAD ",\"syscall\":298,\"values\":"
				   "{\"sample_freq\":4000000,\"limit\":100000},"
				   "\"attr_field\":\"sample_freq\"}");
	char line[256];

	if (!err)
		return;
	CHECK(EXTERR_HAS(err, values));
	CHECK_STR(err->id, "perf.sample_freq.x");
	CHECK_INT(err->severity, EXTERR_SEVERITY_ERROR);
	CHECK_INT(err->nr_values, 2);
	CHECK_STR(err->values[0].name, "sample_freq");
	CHECK_INT(err->values[0].value, 4000000);
	CHECK_STR(err->values[1].name, "limit");
	CHECK(exterr_value(err, "limit") == &err->values[1]);
	CHECK(exterr_value(err, "nope") == NULL);
	CHECK(exterr_value(NULL, "limit") == NULL);
	/* id, severity and values are not domain fields. */
	CHECK_INT(err->nr_fields, 1);
	CHECK(exterr_field(err, "id") == NULL);
	CHECK(exterr_field(err, "values") == NULL);
	exterr_format(err, line, sizeof(line));
	CHECK_STR(line, "Invalid argument: sample_freq above the limit [perf "
		  "attr_field=sample_freq sample_freq=4000000 limit=100000] "
		  "(kernel/events/core.c:7)");
	exterr_free(err);
}

static void test_value_limits(void)
{
	struct exterr *err = parse("{\"code\":-22," HEAD ",\"values\":"
				   "{\"max\":18446744073709551615,"
				   "\"min\":-9223372036854775808,\"zero\":-0,"
				   "\"big\":9223372036854775808}}");

	if (!err)
		return;
	CHECK_INT(err->nr_values, 4);
	CHECK(err->values[0].uvalue == UINT64_MAX && !err->values[0].negative);
	CHECK(err->values[1].value == INT64_MIN && err->values[1].negative);
	CHECK(err->values[2].uvalue == 0 && !err->values[2].negative);
	CHECK(err->values[3].uvalue == (uint64_t)INT64_MAX + 1);
	CHECK_INT(err->id == NULL, 1);
	exterr_free(err);
	/* Insignificant whitespace and nested keys named like values. */
	err = parse(" { \"code\" : -1 , " HEAD " , \"values\" : { \"a\" : "
		    "18446744073709551615 } , \"x\" : {\"values\":{\"b\":1}} } ");
	if (!err)
		return;
	CHECK_INT(err->nr_values, 1);
	CHECK(err->values[0].uvalue == UINT64_MAX);
	exterr_free(err);
}

static void test_notes(void)
{
	struct exterr *err = parse("{\"code\":0,\"severity\":\"warning\","
				   "\"id\":\"v4l2.a.b\"," HEAD
				   ",\"values\":{\"requested\":1}}");
	char line[256];

	if (!err)
		return;
	CHECK_INT(err->error, 0);
	CHECK_INT(err->severity, EXTERR_SEVERITY_WARNING);
	exterr_format(err, line, sizeof(line));
	CHECK_STR(line, "warning: sample_freq above the limit [perf "
		  "requested=1] (kernel/events/core.c:7)");
	exterr_free(err);
	err = parse("{\"code\":0,\"severity\":\"info\"," HEAD "}");
	if (!err)
		return;
	exterr_format(err, line, sizeof(line));
	CHECK_STR(line, "note: sample_freq above the limit [perf] "
		  "(kernel/events/core.c:7)");
	exterr_free(err);
}

static void test_schema(void)
{
	static const char *const bad[] = {
		/* notes need a severity, errors have none */
		"{\"code\":0," HEAD "}",
		"{\"code\":-1,\"severity\":\"info\"," HEAD "}",
		"{\"code\":0,\"severity\":\"error\"," HEAD "}",
		"{\"code\":0,\"severity\":1," HEAD "}",
		"{\"code\":1,\"severity\":\"info\"," HEAD "}",
		/* id */
		"{\"code\":-1,\"id\":7," HEAD "}",
		"{\"code\":-1,\"id\":null," HEAD "}",
		/* values */
		"{\"code\":-1," HEAD ",\"values\":[1]}",
		"{\"code\":-1," HEAD ",\"values\":1}",
		"{\"code\":-1," HEAD ",\"values\":{\"a\":1.5}}",
		"{\"code\":-1," HEAD ",\"values\":{\"a\":1e3}}",
		"{\"code\":-1," HEAD ",\"values\":{\"a\":\"1\"}}",
		"{\"code\":-1," HEAD ",\"values\":{\"a\":true}}",
		"{\"code\":-1," HEAD ",\"values\":{\"a\":{\"b\":1}}}",
		"{\"code\":-1," HEAD ",\"values\":{\"a\":1,\"b\":[1]}}",
		"{\"code\":-1," HEAD ",\"values\":{\"a\":18446744073709551616}}",
		"{\"code\":-1," HEAD ",\"values\":{\"a\":-9223372036854775809}}",
		"{\"code\":-1," HEAD ",\"values\":{\"a\":1,\"a\":2}}",
		"{\"code\":-1," HEAD ",\"values\":{},\"values\":{}}",
		/* only "values" may hold integers above 2^63 - 1 */
		"{\"code\":-1," HEAD ",\"x\":18446744073709551615}",
	};

	check_parse_all(bad, sizeof(bad) / sizeof(bad[0]), -EPROTO);
	/*
	 * A schema error in values is placed at the offending member's
	 * value, as one about a root member is: of the wrong type or out of
	 * range, after members that are fine, after whitespace.
	 */
	{
		static const struct {
			const char *j, *at;
		} placed[] = {
			{ "{\"code\":-1," HEAD ",\"values\":{\"a\":1.5}}", "1.5" },
			{ "{\"code\":-1," HEAD ",\"values\":{\"a\":1,\"b\": [1]}}",
			  "[1]" },
			{ "{\"code\":-1," HEAD ",\"values\":{\"a\":\"1\",\"b\":2}}",
			  "\"1\"" },
			{ "{\"code\":-1," HEAD ",\"values\":{\"a\":2,"
			  "\"b\":18446744073709551616}}", "1844" },
			{ "{\"code\":-1," HEAD ",\"values\":{\"a\":-9223372036854775809}}",
			  "-92" },
		};
		struct exterr_parse_error perr = { .size = sizeof(perr) };
		struct exterr *err;
		size_t i;

		for (i = 0; i < sizeof(placed) / sizeof(placed[0]); i++) {
			const char *j = placed[i].j;

			CHECK_INT(exterr_parse_ex(j, strlen(j), &err, &perr),
				  -EPROTO);
			CHECK_INT(perr.position, strstr(j, placed[i].at) - j);
			CHECK_INT(perr.column, strstr(j, placed[i].at) - j + 1);
		}
		/* Not an object at all: the value of "values" itself. */
		{
			static const char j[] = "{\"code\":-1," HEAD
						",\"values\":[1]}";

			CHECK_INT(exterr_parse_ex(j, strlen(j), &err, &perr),
				  -EPROTO);
			CHECK_INT(perr.position, strstr(j, "[1]") - j);
		}
	}
}

int main(void)
{
	test_id_and_values();
	test_value_limits();
	test_notes();
	test_schema();
	return t_done();
}

// SPDX-License-Identifier: MIT
/* exterr_field(), exterr_field_type_name(), exterr_version(). */
#include <string.h>

#include <exterr.h>
#include "t.h"

static void test_lookup(void)
{
	const char *s = "{\"code\":-25,\"module\":\"v4l2\",\"file\":\"f.c\","
			"\"line\":3,\"message\":\"m\",\"ioctl\":\"VIDIOC_S_FMT\","
			"\"field\":\"fmt.pix.width\",\"width\":8192,\"x\":\"\"}";
	struct exterr *err;

	CHECK_INT(exterr_parse(s, strlen(s), &err), 0);
	CHECK_STR(exterr_field(err, "ioctl"), "VIDIOC_S_FMT");
	CHECK_STR(exterr_field(err, "field"), "fmt.pix.width");
	CHECK_STR(exterr_field(err, "width"), "8192");
	CHECK_STR(exterr_field(err, "x"), "");
	/* Only domain keys; the core ones have struct members. */
	CHECK(exterr_field(err, "module") == NULL);
	CHECK(exterr_field(err, "code") == NULL);
	CHECK(exterr_field(err, "Ioctl") == NULL);
	CHECK(exterr_field(err, "") == NULL);
	CHECK(exterr_field(err, NULL) == NULL);
	CHECK(exterr_field(NULL, "ioctl") == NULL);
	exterr_free(err);
}

static void test_type_names(void)
{
	CHECK_STR(exterr_field_type_name(EXTERR_FIELD_STRING), "string");
	CHECK_STR(exterr_field_type_name(EXTERR_FIELD_INTEGER), "integer");
	CHECK_STR(exterr_field_type_name(EXTERR_FIELD_REAL), "real");
	CHECK_STR(exterr_field_type_name(EXTERR_FIELD_BOOLEAN), "boolean");
	CHECK_STR(exterr_field_type_name(EXTERR_FIELD_NULL), "null");
	CHECK_STR(exterr_field_type_name(EXTERR_FIELD_OBJECT), "object");
	CHECK_STR(exterr_field_type_name(EXTERR_FIELD_ARRAY), "array");
	CHECK_STR(exterr_field_type_name((enum exterr_field_type)0),
		  "unknown");
}

static void test_version(void)
{
	CHECK_STR(exterr_version(), EXTERR_VERSION);
	CHECK_STR(EXTERR_VERSION, "1.1.0");
	CHECK_INT(EXTERR_VERSION_NUMBER, 0x010100);
}

int main(void)
{
	test_lookup();
	test_type_names();
	test_version();
	return t_done();
}

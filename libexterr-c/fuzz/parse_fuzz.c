// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: any bytes through exterr_parse_ex(), and whatever
 * parses through every consumer of a struct exterr, with buffer sizes
 * taken from the input so truncation paths get exercised too.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <exterr.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * Malformed and schema errors have a place in the input, with line and
 * column that agree with it; the others have none (SIZE_MAX, 0, 0).
 */
static void check_place(const uint8_t *data, size_t size, int ret,
			const struct exterr_parse_error *perr)
{
	int line = 1, column = 1;
	size_t i;

	if (ret != -EBADMSG && ret != -EPROTO) {
		if (perr->position != SIZE_MAX || perr->line || perr->column)
			abort();
		return;
	}
	if (perr->position > size)
		abort();
	for (i = 0; i < perr->position; i++) {
		if (data[i] == '\n') {
			line++;
			column = 1;
		} else if ((data[i] & 0xc0) != 0x80) {
			column++;
		}
	}
	if (perr->line != line || perr->column != column)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct exterr_parse_error perr = { .size = sizeof(perr) };
	struct exterr *err;
	char small[17], *line;
	size_t i;
	int n, ret;

	ret = exterr_parse_ex((const char *)data, size, &err, &perr);
	if (ret) {
		/* Every failure is one of the documented classes. */
		if (ret != -EBADMSG && ret != -EPROTO && ret != -E2BIG &&
		    ret != -ENOMEM)
			abort();
		if (err || perr.error != ret || !memchr(perr.reason, 0, 160))
			abort();
		check_place(data, size, ret, &perr);
		return 0;
	}
	if (err->json_len > size || memcmp(err->json, data, err->json_len))
		abort();

	n = exterr_format(err, NULL, 0);
	if (n < 0)
		abort();
	line = malloc((size_t)n + 1);
	if (line) {
		if (exterr_format(err, line, (size_t)n + 1) != n ||
		    strlen(line) != (size_t)n || memchr(line, '\n', n))
			abort();
		free(line);
	}
	if (exterr_format(err, small, size % sizeof(small)) != n)
		abort();

	for (i = 0; i < err->nr_fields; i++) {
		if (exterr_field(err, err->fields[i].name) == NULL)
			abort();
		exterr_field_type_name(err->fields[i].type);
	}
	exterr_free(err);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Host driver for perf's own description reader (tools/perf/util/
 * exterr-desc.c, built without the rest of perf): for each FILE, print
 * "reject" or "ok CODE SYSCALL LINE", LINE being what perf would print.
 */
#include <stdio.h>
#include <stdlib.h>
#include "exterr-desc.h"

int main(int argc, char **argv)
{
	static char json[1 << 20];
	struct perf_exterr_desc desc;
	char line[1024];
	int i;

	for (i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		size_t len;

		if (!f) {
			perror(argv[i]);
			return 2;
		}
		len = fread(json, 1, sizeof(json), f);
		if (ferror(f) || !feof(f)) {
			fprintf(stderr, "%s: read error or too large\n", argv[i]);
			return 2;
		}
		fclose(f);
		if (perf_exterr_desc__parse(json, len, &desc)) {
			puts("reject");
			continue;
		}
		perf_exterr_desc__scnprintf(line, sizeof(line), desc.message,
					    desc.attr_field, desc.arg,
					    desc.values, desc.nr_values);
		printf("ok %d %d %s\n", desc.code, desc.syscall, line);
	}
	return 0;
}

// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * exterr_perror(): perror() plus the kernel's description, if any.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

EXTERR_API void exterr_perror(const char *s)
{
	int saved_errno = errno;
	struct exterr *err = NULL;
	char *line = NULL;

	/*
	 * Fetch before writing anything: a failing write to stderr could
	 * replace the description we are about to report.
	 */
	if (exterr_fetch(&err) == 0) {
		line = xerr_format_dup(err);
		exterr_free(err);
	}

	if (s && *s)
		fprintf(stderr, "%s: %s\n", s, strerror(saved_errno));
	else
		fprintf(stderr, "%s\n", strerror(saved_errno));
	if (line)
		fprintf(stderr, "%s\n", line);
	free(line);

	/* Callers use perror() between a failure and their errno check. */
	errno = saved_errno;
}

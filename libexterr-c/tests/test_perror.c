// SPDX-License-Identifier: MIT
/* exterr_perror() on a thread with no description: perror() exactly. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <exterr.h>
#include "t.h"
#include "capture.h"

static const char *run(const char *s, int e, int *errno_after)
{
	static struct capture c;

	capture_start(&c);
	errno = e;
	exterr_perror(s);
	*errno_after = errno;
	return capture_end(&c);
}

int main(void)
{
	int after;
	size_t i;
	static const int errnos[] = { ENOENT, EINVAL, 0, EBADMSG, 4000 };

	CHECK_STR(run("open", ENOENT, &after),
		  "open: No such file or directory\n");
	CHECK_INT(after, ENOENT);
	CHECK_STR(run("", EPERM, &after), "Operation not permitted\n");
	CHECK_INT(after, EPERM);
	CHECK_STR(run(NULL, EACCES, &after), "Permission denied\n");
	CHECK_INT(after, EACCES);

	/* errno comes back exactly, whatever it was. */
	for (i = 0; i < sizeof(errnos) / sizeof(errnos[0]); i++) {
		char want[256];

		snprintf(want, sizeof(want), "x: %s\n", strerror(errnos[i]));
		CHECK_STR(run("x", errnos[i], &after), want);
		CHECK_INT(after, errnos[i]);
	}
	return t_done();
}

// SPDX-License-Identifier: GPL-2.0
/*
 * as_user UID PROGRAM [ARGS...]: run PROGRAM as user and group UID, with
 * no supplementary groups and no capabilities left, and exit with its
 * status. For the selftests' "skip without root" (kernel/tests/run).
 *
 * vm-run's / is mode 0700 (its staging directory's), which a non-root
 * user cannot search: PROGRAM is opened as root and run from that file
 * descriptor (fexecve), so its path is not looked up again.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

extern char **environ;

int main(int argc, char **argv)
{
	uid_t id;
	int fd;

	if (argc < 3) {
		fprintf(stderr, "usage: as_user UID PROGRAM [ARGS...]\n");
		return 2;
	}
	id = strtoul(argv[1], NULL, 10);
	fd = open(argv[2], O_PATH | O_CLOEXEC);
	if (fd < 0) {
		perror(argv[2]);
		return 2;
	}
	if (setgroups(0, NULL) || setresgid(id, id, id) ||
	    setresuid(id, id, id)) {
		perror("as_user: cannot change user");
		return 2;
	}
	/* setresuid() from root to another user drops every capability. */
	if (geteuid() != id || getuid() != id) {
		fprintf(stderr, "as_user: still uid %u\n", (unsigned int)geteuid());
		return 2;
	}
	fexecve(fd, argv + 2, environ);
	perror("as_user: fexecve");
	return 2;
}

/* SPDX-License-Identifier: MIT */
/* Capture what a function writes to stderr, for the exterr_perror() tests. */
#ifndef EXTERR_CAPTURE_H
#define EXTERR_CAPTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct capture {
	int saved_fd;
	FILE *tmp;
	char text[4096];
};

static inline void capture_start(struct capture *c)
{
	fflush(stderr);
	c->tmp = tmpfile();
	if (!c->tmp) {
		perror("tmpfile");
		exit(2);
	}
	c->saved_fd = dup(2);
	dup2(fileno(c->tmp), 2);
}

static inline const char *capture_end(struct capture *c)
{
	size_t n;

	fflush(stderr);
	dup2(c->saved_fd, 2);
	close(c->saved_fd);
	rewind(c->tmp);
	n = fread(c->text, 1, sizeof(c->text) - 1, c->tmp);
	c->text[n] = '\0';
	fclose(c->tmp);
	return c->text;
}

#endif /* EXTERR_CAPTURE_H */

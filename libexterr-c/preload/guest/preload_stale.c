// SPDX-License-Identifier: GPL-2.0
/*
 * Run by preload_guest under LD_PRELOAD=libexterr-preload.so on the
 * patched kernel (dynamically linked: the shim only works there). Each
 * check sends stderr to a memfd, reports through perror(3) or error(3),
 * and compares what was written. What the real kernel adds to the host
 * tests' fake: an explanation never outlives the failure it describes.
 *
 *  - a described failure is explained;
 *  - a later undescribed failure with the same errno ends it: nothing;
 *  - an errno set by user space after a description of another errno:
 *    nothing (and that description is taken: a later report of its errno
 *    gets nothing either);
 *  - another thread's, and the parent's in a fork()ed child: nothing;
 *  - error(3) explains its errnum argument.
 * Exit status 0 when all hold; the first failure is printed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <error.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define RAISE "/sys/kernel/debug/test_exterr/raise"
#define KERNEL_EINVAL "kernel: Invalid argument: test_exterr: invalid argument ["

static int raise_fd, saved_stderr, mem;
static char got[4096];

#define CHECK(cond) do {						\
	if (!(cond)) {							\
		dprintf(saved_stderr, "FAIL %s:%d: %s\ngot:\n%s\n",	\
			__FILE__, __LINE__, #cond, got);		\
		return 1;						\
	}								\
} while (0)

/* A test_exterr case: its write() fails, described. */
static int raise_case(const char *name)
{
	return write(raise_fd, name, strlen(name)) < 0 ? errno : 0;
}

static int starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* Start capturing stderr. */
static void capture(void)
{
	ftruncate(mem, 0);
	lseek(mem, 0, SEEK_SET);
}

/* What was written to stderr since capture(), NUL-terminated in got. */
static const char *captured(void)
{
	ssize_t n = pread(mem, got, sizeof(got) - 1, 0);

	got[n > 0 ? n : 0] = '\0';
	return got;
}

static void *other_thread(void *arg)
{
	(void)arg;
	/* A failure of this thread without a description. */
	lseek(raise_fd, 0, 42);
	perror("thread");
	return NULL;
}

int main(void)
{
	pthread_t t;
	pid_t pid;
	int status;

	saved_stderr = dup(2);
	raise_fd = open(RAISE, O_WRONLY);
	mem = memfd_create("stderr", 0);
	if (raise_fd < 0 || mem < 0 || saved_stderr < 0 || dup2(mem, 2) != 2)
		return 2;

	capture();
	CHECK(raise_case("einval") == EINVAL);
	perror("raise");
	CHECK(starts(captured(), "raise: Invalid argument\nraise: " KERNEL_EINVAL));

	capture();
	CHECK(raise_case("einval") == EINVAL);
	CHECK(lseek(raise_fd, 0, 42) < 0 && errno == EINVAL);
	perror("lseek");
	CHECK(!strcmp(captured(), "lseek: Invalid argument\n"));

	capture();
	CHECK(raise_case("enoent") == ENOENT);
	errno = EINVAL;
	perror("user");
	errno = ENOENT;
	perror("taken");
	CHECK(!strcmp(captured(), "user: Invalid argument\n"
		      "taken: No such file or directory\n"));

	capture();
	CHECK(raise_case("einval") == EINVAL);
	pthread_create(&t, NULL, other_thread, NULL);
	pthread_join(t, NULL);
	errno = EINVAL;
	perror("main");
	CHECK(starts(captured(), "thread: Invalid argument\n"
		       "main: Invalid argument\nmain: " KERNEL_EINVAL));

	capture();
	CHECK(raise_case("einval") == EINVAL);
	pid = fork();
	if (pid == 0) {
		errno = EINVAL;
		perror("child");
		_exit(0);
	}
	CHECK(waitpid(pid, &status, 0) == pid && status == 0);
	errno = EINVAL;
	perror("parent");
	CHECK(starts(captured(), "child: Invalid argument\n"
		       "parent: Invalid argument\nparent: " KERNEL_EINVAL));

	capture();
	CHECK(raise_case("e2big") == E2BIG);
	error(0, E2BIG, "raise");
	CHECK(starts(captured(), "/usr/bin/preload_stale: raise: Argument list too long\n"
		       "/usr/bin/preload_stale: kernel: Argument list too long: test_exterr: too big ["));

	dprintf(saved_stderr, "preload_stale: all checks passed\n");
	return 0;
}

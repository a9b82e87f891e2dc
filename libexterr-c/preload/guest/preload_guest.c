// SPDX-License-Identifier: GPL-2.0
/*
 * The guest side of preload/guest-check: Debian's own /usr/bin/cat (which
 * reports a failed read() through error(3)) run with and without
 * LD_PRELOAD=libexterr-preload.so, on the patched and the unpatched kernel.
 *
 * Patched (no argument):
 *  - cat on test_exterr's debugfs "raise" file, whose read() fails with a
 *    described EINVAL: preloaded, cat's stderr is its bare stderr plus
 *    exactly "cat: kernel: <exterr_format() line>" with the site's place
 *    taken from /sys/kernel/debug/exterr/test_exterr; same exit status;
 *  - cat on failures without a description (a missing file, a directory):
 *    byte-identical stderr and status;
 *  - /usr/bin/preload_stale, a dynamically linked test program, under the
 *    shim: a matching errno left by a later undescribed failure, another
 *    thread's description, and a fork()ed child get no explanation.
 * --unpatched: the undescribed failures again, byte-identical; the shim
 * fetches nothing on a kernel without exterr.
 *
 * Exit status 0 when every check holds; the first failure is printed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include "check.h"
#include "test_module.h"

#define RAISE "/sys/kernel/debug/test_exterr/raise"
#define SITES "/sys/kernel/debug/exterr/test_exterr"
#define SHIM "/usr/lib/exterr/libexterr-preload.so"
#define PR_GET_ERR_DESC 0x45525244

struct run {
	char err[8192];
	int status;
};

/* path with argv and env, stdout to /dev/null, stderr into r->err. */
static int run(const char *path, char *const argv[], char *const env[],
	       struct run *r)
{
	int pfd[2], status;
	ssize_t n, len = 0;
	pid_t pid;

	if (pipe(pfd))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		dup2(pfd[1], 2);
		close(pfd[0]);
		execve(path, argv, env);
		_exit(126);
	}
	close(pfd[1]);
	while ((n = read(pfd[0], r->err + len, sizeof(r->err) - 1 - len)) > 0)
		len += n;
	close(pfd[0]);
	r->err[len] = '\0';
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	r->status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	return 0;
}

static char *const bare_env[] = { "LC_ALL=C", NULL };
static char *const shim_env[] = { "LC_ALL=C", "LD_PRELOAD=" SHIM, NULL };

/* cat FILE bare and preloaded: the same status, and the outputs. */
static int cat_both(const char *file, struct run *bare, struct run *shim)
{
	/* error(3) names the program by argv[0], as a shell would pass it. */
	char *argv[] = { "cat", (char *)file, NULL };

	CHECK(run("/usr/bin/cat", argv, bare_env, bare) == 0);
	CHECK(run("/usr/bin/cat", argv, shim_env, shim) == 0);
	printf("bare (status %d):\n%s", bare->status, bare->err);
	printf("preloaded (status %d):\n%s", shim->status, shim->err);
	CHECK(bare->status == shim->status);
	CHECK(bare->status == 1);
	return 0;
}

/* Failures without a description: byte for byte the same. */
static int undescribed(void)
{
	static const char *const files[] = { "/nonexistent", "/", "/proc/self/mem" };
	struct run bare, shim;
	unsigned int i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		if (cat_both(files[i], &bare, &shim))
			return 1;
		CHECK(strncmp(bare.err, "cat: ", 5) == 0);
		CHECK(strcmp(bare.err, shim.err) == 0);
	}
	return 0;
}

/*
 * "lib/test_exterr.c:NNN" of the site whose message is "test_exterr:
 * read", from debugfs: a line "[<id> ]<file>:<line> <code> <domain>
 * <module> <message>" (the id since the series' stable ids).
 */
static int read_site(char *place, size_t size)
{
	static char buf[65536];
	const char *p, *end, *tok;
	ssize_t n, len = 0;
	int fd = open(SITES, O_RDONLY);

	CHECK(fd >= 0);
	while ((n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += n;
	close(fd);
	CHECK(len > 0);
	buf[len] = '\0';
	for (p = buf; *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, '\n');
		if (end - p > 18 && !strncmp(end - 18, " test_exterr: read", 18))
			break;
	}
	CHECK(*p);
	tok = strstr(p, "lib/test_exterr.c:");
	CHECK(tok && tok < end);
	CHECK(strcspn(tok, " ") < size);
	snprintf(place, size, "%.*s", (int)strcspn(tok, " "), tok);
	return 0;
}

static int described(void)
{
	struct run bare, shim;
	char place[128], want[sizeof(bare.err) + 256];

	CHECK(read_site(place, sizeof(place)) == 0);
	if (cat_both(RAISE, &bare, &shim))
		return 1;
	CHECK(strcmp(bare.err, "cat: " RAISE ": Invalid argument\n") == 0);
	snprintf(want, sizeof(want), "%scat: kernel: Invalid argument: "
		 "test_exterr: read [test_exterr case=read number=0 "
		 "flag=false] (%s)\n", bare.err, place);
	printf("want:\n%s", want);
	CHECK(strcmp(shim.err, want) == 0);
	return 0;
}

static int stale(void)
{
	char *argv[] = { "/usr/bin/preload_stale", NULL };
	struct run r;

	CHECK(run(argv[0], argv, shim_env, &r) == 0);
	printf("preload_stale (status %d):\n%s", r.status, r.err);
	CHECK(r.status == 0);
	return 0;
}

int main(int argc, char **argv)
{
	int unpatched = argc > 1 && !strcmp(argv[1], "--unpatched");

	setvbuf(stdout, NULL, _IONBF, 0);
	CHECK(access("/usr/bin/cat", X_OK) == 0);
	CHECK(access(SHIM, R_OK) == 0);
	/* The kernel is the one this run claims: without exterr, EINVAL. */
	CHECK((prctl(PR_GET_ERR_DESC, 0UL, 0UL, 0UL, 0UL) < 0 &&
	       errno == EINVAL) == unpatched);
	if (undescribed())
		return 1;
	if (!unpatched) {
		CHECK(load_test_exterr() == 0);
		if (described() || stale())
			return 1;
	}
	printf("PASS\n");
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * A system call that a signal interrupts and the kernel restarts, and
 * that then fails described: the description is the restarted call's, and
 * its "syscall" is the number the program called, write().
 *
 * "restart" (test_exterr.ko): the write() sleeps until a signal, returns
 * -ERESTARTSYS, and the SIGUSR1 handler, installed with SA_RESTART, runs;
 * the kernel then executes the write() again, which fails with a
 * described EINVAL. The handler itself fails a pwrite64() of "enoent" on
 * the same file, described. Wrong kernels this catches:
 *   - one that keeps the handler's description over the restarted call's
 *     (or the first pass's, had it recorded one): case "enoent" and
 *     syscall pwrite64 instead of case "restart" and write;
 *   - one that attributes the restarted call to another number.
 *
 * "restart_block": the write() is interrupted by SIGSTOP, which runs no
 * handler, and returns -ERESTART_RESTARTBLOCK; after SIGCONT the kernel
 * continues it as restart_syscall(), which fails with a described EINVAL.
 * The program called write(), so "syscall" must be write's number, which
 * set_restart_fn() keeps for the continuation; a kernel that records the
 * number of the call it is executing says restart_syscall's (219).
 *
 * Both cases run by default; "restart_block" as argument runs that one.
 * Exit status 0 when every check holds; the first failure is printed.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "check.h"
#include "err_desc.h"
#include "test_module.h"

#define RAISE "/sys/kernel/debug/test_exterr/raise"

static char desc[4096];
static int raise_fd;
static volatile sig_atomic_t handler_ran, handler_errno;

static const char *fetch(void)
{
	long n = prctl(PR_GET_ERR_DESC, desc, sizeof(desc), 0, 0);

	if (n < 0) {
		printf("PR_GET_ERR_DESC: %s\n", strerror(errno));
		return NULL;
	}
	printf("%s\n", desc);
	return desc;
}

/* Fails described, between the interrupted call and its restart. */
static void on_usr1(int sig)
{
	int saved = errno;

	if (pwrite(raise_fd, "enoent", 6, 0) == -1)
		handler_errno = errno;
	handler_ran = 1;
	errno = saved;
}

/* A child that sends @first, then (if nonzero) @then once we stopped. */
static pid_t signal_later(int first, int then)
{
	pid_t parent = getpid(), pid = fork();
	char path[64], stat[256];

	if (pid)
		return pid;
	/* Let the parent reach its sleep in the test module. */
	usleep(300 * 1000);
	kill(parent, first);
	if (then) {
		snprintf(path, sizeof(path), "/proc/%d/stat", parent);
		for (int i = 0; i < 1000; i++) {
			FILE *f = fopen(path, "r");
			char *p = NULL;

			if (f) {
				p = fgets(stat, sizeof(stat), f);
				fclose(f);
			}
			p = p ? strrchr(stat, ')') : NULL;
			if (p && p[1] == ' ' && p[2] == 'T')
				break;
			usleep(10 * 1000);
		}
		kill(parent, then);
	}
	_exit(0);
}

static int want_syscall(const char *d, long nr)
{
	char want[32];

	snprintf(want, sizeof(want), "\"syscall\":%ld,", nr);
	return d && strstr(d, want);
}

static int restarted_under_sa_restart(void)
{
	struct sigaction sa;
	const char *d;
	pid_t child;
	int status;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sa.sa_flags = SA_RESTART;
	CHECK(sigaction(SIGUSR1, &sa, NULL) == 0);
	child = signal_later(SIGUSR1, 0);
	CHECK(child > 0);
	/* Interrupted once, restarted, then fails described. */
	CHECK(write(raise_fd, "restart", 7) == -1 && errno == EINVAL);
	CHECK(waitpid(child, &status, 0) == child);
	CHECK(handler_ran && handler_errno == ENOENT);
	d = fetch();
	CHECK(d && strstr(d, "\"id\":\"test.restarted_call\""));
	CHECK(strstr(d, "\"case\":\"restart\""));
	CHECK(want_syscall(d, SYS_write));
	return 0;
}

static int restarted_by_restart_syscall(void)
{
	const char *d;
	pid_t child;
	int status;

	child = signal_later(SIGSTOP, SIGCONT);
	CHECK(child > 0);
	CHECK(write(raise_fd, "restart_block", 13) == -1 && errno == EINVAL);
	CHECK(waitpid(child, &status, 0) == child);
	d = fetch();
	CHECK(d && strstr(d, "\"id\":\"test.restart_block.fails\""));
	if (want_syscall(d, SYS_restart_syscall))
		printf("the description names restart_syscall() (%d), not write() (%d)\n",
		       SYS_restart_syscall, SYS_write);
	CHECK(want_syscall(d, SYS_write));
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	CHECK(err_desc_enable() == 0);
	CHECK(load_test_exterr() == 0);
	raise_fd = open(RAISE, O_WRONLY);
	CHECK(raise_fd >= 0);

	if (argc > 1 && !strcmp(argv[1], "restart_block")) {
		CHECK(restarted_by_restart_syscall() == 0);
		printf("PASS restart_block\n");
		return 0;
	}
	CHECK(restarted_under_sa_restart() == 0);
	CHECK(restarted_by_restart_syscall() == 0);
	printf("PASS\n");
	return 0;
}

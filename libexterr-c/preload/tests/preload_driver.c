// SPDX-License-Identifier: MIT
/*
 * A program that reports errors the way unaware programs do, one case
 * per run (argv[1]), for tests/run-preload.sh: run bare, with the shim on
 * a kernel without exterr, and with the test build of the shim whose
 * fake kernel hands out the description set here. Bare, or with the real
 * shim, the exterr_fake_*() functions are not there and nothing is set.
 *
 * stdout gets "errno=N" after each report, so the runner sees that the
 * shim hands errno back as the real function left it; stderr gets the
 * reports alone.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <err.h>
#include <errno.h>
#include <error.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <wchar.h>

/* libbsd's, declared here: the driver links libbsd.so.0 for them. */
void warnc(int code, const char *fmt, ...);
void vwarnc(int code, const char *fmt, va_list ap);
void errc(int status, int code, const char *fmt, ...)
	__attribute__((noreturn));
void verrc(int status, int code, const char *fmt, va_list ap)
	__attribute__((noreturn));

#define EINVAL_JSON "{\"code\":-22,\"module\":\"perf\",\"file\":\"kernel/events/core.c\",\"line\":12883,\"message\":\"sample_freq above kernel.perf_event_max_sample_rate\",\"syscall\":298,\"attr_field\":\"sample_freq\"}"
#define ENOENT_JSON "{\"code\":-2,\"module\":\"test_exterr\",\"file\":\"lib/test_exterr.c\",\"line\":1,\"message\":\"no such thing\"}"
#define THREAD_JSON "{\"code\":-22,\"module\":\"perf\",\"file\":\"kernel/events/core.c\",\"line\":12883,\"message\":\"sample_freq above kernel.perf_event_max_sample_rate\",\"syscall\":298,\"attr_field\":\"sample_freq\"}"

static void (*fake_set)(const char *json);
static int (*fake_pending)(void);
static void (*fake_raise_on_copy)(int sig);

static void set(const char *json)
{
	if (fake_set)
		fake_set(json);
}

static void show_errno(void)
{
	printf("errno=%d\n", errno);
	fflush(stdout);
}

/* Set the description (EINVAL, ENOENT or none) and errno, in that order. */
static void prepare(const char *json, int e)
{
	set(json);
	errno = e;
}

static void call_vwarn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
}

static void call_verr(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verr(status, fmt, ap);
}

static void call_vwarnx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarnx(fmt, ap);
	va_end(ap);
}

static void call_verrx(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verrx(status, fmt, ap);
}

static void call_vwarnc(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarnc(code, fmt, ap);
	va_end(ap);
}

static void call_verrc(int status, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verrc(status, code, fmt, ap);
}

/*
 * One report by @fn, with errno @e and the errno argument @code where the
 * function takes one. Functions that exit do so with status 7.
 */
static int report(const char *fn, int e, int code)
{
	errno = e;
	if (!strcmp(fn, "perror"))
		perror("ctx");
	else if (!strcmp(fn, "perror_null"))
		perror(NULL);
	else if (!strcmp(fn, "perror_empty"))
		perror("");
	else if (!strcmp(fn, "warn"))
		warn("open %s", "file");
	else if (!strcmp(fn, "warn_null"))
		warn(NULL);
	else if (!strcmp(fn, "vwarn"))
		call_vwarn("open %s", "file");
	else if (!strcmp(fn, "err"))
		err(7, "open %s", "file");
	else if (!strcmp(fn, "verr"))
		call_verr(7, "open %s", "file");
	else if (!strcmp(fn, "warnx"))
		warnx("open %s", "file");
	else if (!strcmp(fn, "vwarnx"))
		call_vwarnx("open %s", "file");
	else if (!strcmp(fn, "errx"))
		errx(7, "open %s", "file");
	else if (!strcmp(fn, "verrx"))
		call_verrx(7, "open %s", "file");
	else if (!strcmp(fn, "warnc"))
		warnc(code, "open %s", "file");
	else if (!strcmp(fn, "vwarnc"))
		call_vwarnc(code, "open %s", "file");
	else if (!strcmp(fn, "errc"))
		errc(7, code, "open %s", "file");
	else if (!strcmp(fn, "verrc"))
		call_verrc(7, code, "open %s", "file");
	else if (!strcmp(fn, "error"))
		error(0, code, "open %s", "file");
	else if (!strcmp(fn, "error_exit"))
		error(7, code, "open %s", "file");
	else if (!strcmp(fn, "error_m"))
		error(0, code, "open %s: %m", "file");
	else if (!strcmp(fn, "error_long"))
		error(0, code, "%0*d", 3000, 1);
	else if (!strcmp(fn, "error_at_line"))
		error_at_line(0, code, "f.c", 12, "open %s", "file");
	else if (!strcmp(fn, "error_at_line_exit"))
		error_at_line(7, code, "f.c", 12, "open %s", "file");
	else
		return -1;
	show_errno();
	return 0;
}

/* The c variants and error(3) report their argument, not errno. */
static int takes_code(const char *fn)
{
	return !strncmp(fn, "error", 5) || strstr(fn, "warnc") ||
	       strstr(fn, "errc");
}

/*
 * Scenarios of one function, "FN:SCENARIO":
 *   match     the description's errno is the one reported
 *   mismatch  a description of another errno is pending
 *   none      nothing pending
 *   other     (functions with an errno argument) errno matches the
 *             description, the argument, which is what is reported, not
 */
static int scenario(const char *fn, const char *what)
{
	if (!strcmp(what, "match")) {
		set(EINVAL_JSON);
		return report(fn, takes_code(fn) ? ENOENT : EINVAL, EINVAL);
	}
	if (!strcmp(what, "mismatch")) {
		set(ENOENT_JSON);
		return report(fn, EINVAL, EINVAL);
	}
	if (!strcmp(what, "none"))
		return report(fn, EINVAL, EINVAL);
	if (!strcmp(what, "other")) {
		set(EINVAL_JSON);
		return report(fn, EINVAL, ENOENT);
	}
	if (!strcmp(what, "zero")) {
		/* error(3) with errnum 0 reports no errno at all. */
		set(EINVAL_JSON);
		return report(fn, EINVAL, 0);
	}
	return -1;
}

static void *thread_none(void *arg)
{
	(void)arg;
	/* Nothing pending in this thread; main's is not its. */
	errno = EINVAL;
	perror("thread");
	return NULL;
}

static void *thread_own(void *arg)
{
	(void)arg;
	prepare(THREAD_JSON, EINVAL);
	warn("thread");
	return NULL;
}

static void on_usr1(int sig)
{
	int saved_errno = errno;

	(void)sig;
	prepare(EINVAL_JSON, EINVAL);
	perror("handler");
	errno = saved_errno;
}

static void on_usr2_inner(int sig)
{
	int saved_errno = errno;

	(void)sig;
	/* Inside the shim's fetch: the real perror() alone runs. */
	errno = EINVAL;
	perror("inner");
	errno = saved_errno;
}

static void at_exit_warn(void)
{
	prepare(EINVAL_JSON, EINVAL);
	warn("atexit");
}

static int destructor_case;
static volatile int status_7 = 7;

__attribute__((destructor)) static void destructor_warn(void)
{
	if (!destructor_case)
		return;
	prepare(EINVAL_JSON, EINVAL);
	perror("destructor");
}

static int special(const char *name)
{
	pthread_t t;
	pid_t pid;
	int status, fd;

	if (!strcmp(name, "quiet"))
		return 0;
	if (!strcmp(name, "thread-none")) {
		set(EINVAL_JSON);
		pthread_create(&t, NULL, thread_none, NULL);
		pthread_join(t, NULL);
		/* Still there for main, which reports it now. */
		errno = EINVAL;
		perror("main");
		show_errno();
		return 0;
	}
	if (!strcmp(name, "thread-own")) {
		set(ENOENT_JSON);
		pthread_create(&t, NULL, thread_own, NULL);
		pthread_join(t, NULL);
		errno = EINVAL;
		perror("main");
		show_errno();
		return 0;
	}
	if (!strcmp(name, "fork")) {
		pid = fork();
		if (pid == 0) {
			prepare(EINVAL_JSON, EINVAL);
			perror("child");
			_exit(3);
		}
		waitpid(pid, &status, 0);
		errno = EINVAL;
		perror("parent");
		printf("child status %d\n", WEXITSTATUS(status));
		return 0;
	}
	if (!strcmp(name, "vfork")) {
		/* The usual exec-failure report of a vfork() child. */
		pid = vfork();
		if (pid == 0) {
			execl("/nonexistent/program", "program", (char *)NULL);
			set(EINVAL_JSON);
			errno = EINVAL;
			perror("exec");
			_exit(127);
		}
		waitpid(pid, &status, 0);
		printf("child status %d\n", WEXITSTATUS(status));
		return 0;
	}
	if (!strcmp(name, "signal")) {
		signal(SIGUSR1, on_usr1);
		raise(SIGUSR1);
		return 0;
	}
	if (!strcmp(name, "signal-inside")) {
		/* A handler that reports an error while the shim fetches. */
		signal(SIGUSR2, on_usr2_inner);
		if (fake_raise_on_copy)
			fake_raise_on_copy(SIGUSR2);
		else
			raise(SIGUSR2);
		prepare(EINVAL_JSON, EINVAL);
		perror("outer");
		show_errno();
		return 0;
	}
	if (!strcmp(name, "atexit")) {
		atexit(at_exit_warn);
		return 0;
	}
	if (!strcmp(name, "destructor")) {
		destructor_case = 1;
		return 0;
	}
	if (!strcmp(name, "stderr-closed")) {
		close(2);
		prepare(EINVAL_JSON, EINVAL);
		perror("closed");
		show_errno();
		return 0;
	}
	if (!strcmp(name, "all-closed")) {
		/* Nothing to write to, and err() must still exit 7. */
		for (fd = 0; fd < 1024; fd++)
			close(fd);
		prepare(EINVAL_JSON, EINVAL);
		err(7, "closed");
	}
	if (!strcmp(name, "wide")) {
		/* stderr wide-oriented: err(3) and perror(3) use fwprintf. */
		fwide(stderr, 1);
		prepare(EINVAL_JSON, EINVAL);
		perror("wide");
		show_errno();
		return 0;
	}
	if (!strcmp(name, "one-per-line")) {
		/* The repeat prints nothing and, in glibc, does not exit. */
		error_one_per_line = 1;
		prepare(EINVAL_JSON, ENOENT);
		error_at_line(0, EINVAL, "f.c", 12, "first");
		prepare(EINVAL_JSON, ENOENT);
		/*
		 * Not a constant: <bits/error.h> declares error_at_line()
		 * noreturn for a constant non-zero status, and this call
		 * returns.
		 */
		error_at_line(status_7, EINVAL, "f.c", 12, "again");
		show_errno();
		return 0;
	}
	if (!strcmp(name, "consumed")) {
		/*
		 * A description of another errno is taken and dropped; one
		 * that matches is taken. Reported on stdout, only with the
		 * fake (and "-" without).
		 */
		set(ENOENT_JSON);
		errno = EINVAL;
		perror("mismatch");
		printf("pending after mismatch: %s\n", fake_pending ?
		       (fake_pending() ? "yes" : "no") : "-");
		set(NULL);
		errno = EINVAL;
		perror("nothing");
		show_errno();
		return 0;
	}
	return -1;
}

int main(int argc, char **argv)
{
	char fn[64];
	const char *colon;

	fake_set = (void (*)(const char *))dlsym(RTLD_DEFAULT,
						 "exterr_fake_set");
	fake_pending = (int (*)(void))dlsym(RTLD_DEFAULT,
					    "exterr_fake_pending");
	fake_raise_on_copy = (void (*)(int))dlsym(RTLD_DEFAULT,
						  "exterr_fake_raise_on_copy");
	if (argc != 2) {
		fprintf(stderr, "usage: preload_driver FN:SCENARIO|SPECIAL\n");
		return 2;
	}
	colon = strchr(argv[1], ':');
	if (colon && (size_t)(colon - argv[1]) < sizeof(fn)) {
		memcpy(fn, argv[1], colon - argv[1]);
		fn[colon - argv[1]] = '\0';
		if (scenario(fn, colon + 1) == 0)
			return 0;
	} else if (!colon && special(argv[1]) == 0) {
		return 0;
	}
	fprintf(stderr, "preload_driver: unknown case %s\n", argv[1]);
	return 2;
}

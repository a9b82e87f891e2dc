// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libexterr-preload.so: LD_PRELOAD it into a program that reports errors
 * through perror(3), warn(3)/err(3), warnc(3)/errc(3) (libbsd) or
 * error(3)/error_at_line(3), and each report whose errno has a description
 * from the kernel is followed by one more line, e.g.
 *
 *   cat: /sys/kernel/debug/test_exterr/raise: Invalid argument
 *   cat: kernel: Invalid argument: test_exterr: read [test_exterr ...] (lib/test_exterr.c:263)
 *
 * Everything else the program prints, its exit status and errno stay as
 * they are. README.md says why each step is where it is; in short:
 *
 *  - The description is fetched before the real function runs: that
 *    function's own failing calls (a write to a closed stderr, a dup()
 *    beyond the fd limit) would end the description it is reporting.
 *  - A cheap size query, which consumes nothing and allocates nothing,
 *    comes first: on a kernel without exterr (EINVAL), or with nothing
 *    pending (ENODATA), the real function is all that runs.
 *  - The line is printed only when the description's errno is the one the
 *    function reports. The kernel keeps one description per thread, that
 *    of its last failed system call, so a matching errno is the best
 *    evidence there is that it describes this report.
 *  - The real functions are looked up once, in a constructor, so that no
 *    later call (in a signal handler, after fork() or vfork()) needs the
 *    dynamic linker's locks.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <err.h>
#include <errno.h>
#include <error.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <wchar.h>

#include <exterr.h>

#include "internal.h"	/* xerr_format_dup(), from libexterr's objects */

#define SHIM_API __attribute__((visibility("default")))

/* The BSD functions: libbsd's <bsd/err.h>, not in glibc (2.36 or later). */
SHIM_API void warnc(int code, const char *fmt, ...);
SHIM_API void vwarnc(int code, const char *fmt, va_list ap);
SHIM_API void errc(int status, int code, const char *fmt, ...)
	__attribute__((noreturn));
SHIM_API void verrc(int status, int code, const char *fmt, va_list ap)
	__attribute__((noreturn));
/* glibc 2.38 and later. */
SHIM_API void verror(int status, int errnum, const char *fmt, va_list ap);
SHIM_API void verror_at_line(int status, int errnum, const char *file,
			     unsigned int line, const char *fmt, va_list ap);

static struct {
	void (*perror)(const char *s);
	void (*vwarn)(const char *fmt, va_list ap);
	void (*vwarnc)(int code, const char *fmt, va_list ap);
	void (*error)(int status, int errnum, const char *fmt, ...);
	void (*error_at_line)(int status, int errnum, const char *file,
			      unsigned int line, const char *fmt, ...);
	void (*verror)(int status, int errnum, const char *fmt, va_list ap);
	void (*verror_at_line)(int status, int errnum, const char *file,
			       unsigned int line, const char *fmt, va_list ap);
} real;

/*
 * Set while this thread is inside the shim: a signal handler that reports
 * an error meanwhile gets the real function alone, so the shim's own
 * allocations and the half-done fetch are never re-entered.
 */
static __thread int busy __attribute__((tls_model("initial-exec")));

static void *next(const char *name)
{
	return dlsym(RTLD_NEXT, name);
}

/*
 * Only lookups, no allocation of our own. A name not found (vwarnc
 * without libbsd, verror before glibc 2.38) leaves an error for dlerror(),
 * which the program must not see: it is cleared.
 */
__attribute__((constructor)) static void resolve(void)
{
	int saved_errno = errno;

	real.perror = next("perror");
	real.vwarn = next("vwarn");
	real.vwarnc = next("vwarnc");
	real.error = next("error");
	real.error_at_line = next("error_at_line");
	real.verror = next("verror");
	real.verror_at_line = next("verror_at_line");
	dlerror();
	errno = saved_errno;
}

/*
 * The human line of the calling thread's pending description when it
 * explains @errnum, malloc()ed, else NULL. Leaves errno as it was.
 */
static char *explain(int errnum)
{
	struct exterr *err;
	char *line = NULL;
	int saved_errno = errno;
	int n;

	if (errnum <= 0 || errnum > 4095)
		return NULL;
	/*
	 * The size query consumes nothing; it fails with EINVAL on a kernel
	 * without exterr and with ENODATA when the last failure of this
	 * thread left no description (or left a note, which needs a flag).
	 */
	n = prctl(PR_GET_ERR_DESC, 0UL, 0UL, 0UL, 0UL);
	errno = saved_errno;
	if (n <= 0)
		return NULL;
	/*
	 * The kernel has no way to look at the code without taking the
	 * description; a description of another errno is dropped here. It
	 * described a failure this report is not about, and no unaware
	 * program would have read it (README.md, "Consuming").
	 */
	if (exterr_fetch(&err))
		return NULL;
	if (err->error == errnum)
		line = xerr_format_dup(err);
	exterr_free(err);
	errno = saved_errno;
	return line;
}

/*
 * "<name>: kernel: <line>", or "kernel: <line>" without a name, on the
 * orientation stderr has, as err(3) and error(3) write theirs. One call,
 * so stderr (unbuffered) gets the line in one write(2). A failure (stderr
 * closed) is ignored: the caller's errno is restored after.
 */
static void print_line(const char *name, const char *line)
{
	const char *sep = name && *name ? ": " : "";

	if (!name)
		name = "";
	if (fwide(stderr, 0) > 0)
		fwprintf(stderr, L"%s%skernel: %s\n", name, sep, line);
	else
		fprintf(stderr, "%s%skernel: %s\n", name, sep, line);
}

/*
 * Each wrapper: note the errno it reports, fetch (explain()), run the
 * real function with the caller's errno, then print, and leave errno as
 * the real function left it.
 */
SHIM_API void perror(const char *s)
{
	int errnum = errno, errno_after;
	char *line;

	line = busy++ ? NULL : explain(errnum);
	errno = errnum;
	if (real.perror)
		real.perror(s);
	errno_after = errno;
	if (line) {
		/* perror() writes "s: " before its text, or nothing. */
		print_line(s, line);
		free(line);
	}
	errno = errno_after;
	busy--;
}

/* warn(), err() and the c variants: vwarn()/vwarnc() print, then this. */
static void warn_common(int errnum, int have_code, const char *fmt,
			va_list ap)
{
	int saved_errno = errno, errno_after;
	char *line;

	line = busy++ ? NULL : explain(errnum);
	errno = saved_errno;
	if (!have_code) {
		if (real.vwarn)
			real.vwarn(fmt, ap);
	} else if (real.vwarnc) {
		real.vwarnc(errnum, fmt, ap);
	} else {
		/* No libbsd behind us: its format, "prog: fmt: strerror". */
		fprintf(stderr, "%s: ", program_invocation_short_name);
		if (fmt) {
			vfprintf(stderr, fmt, ap);
			fputs(": ", stderr);
		}
		fprintf(stderr, "%s\n", strerror(errnum));
	}
	errno_after = errno;
	if (line) {
		print_line(program_invocation_short_name, line);
		free(line);
	}
	errno = errno_after;
	busy--;
}

SHIM_API void vwarn(const char *fmt, va_list ap)
{
	warn_common(errno, 0, fmt, ap);
}

SHIM_API void warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	warn_common(errno, 0, fmt, ap);
	va_end(ap);
}

/* glibc's verr() is vwarn() then exit(): the same here, with our line. */
SHIM_API void verr(int status, const char *fmt, va_list ap)
{
	warn_common(errno, 0, fmt, ap);
	exit(status);
}

SHIM_API void err(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	warn_common(errno, 0, fmt, ap);
	va_end(ap);
	exit(status);
}

SHIM_API void vwarnc(int code, const char *fmt, va_list ap)
{
	warn_common(code, 1, fmt, ap);
}

SHIM_API void warnc(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	warn_common(code, 1, fmt, ap);
	va_end(ap);
}

SHIM_API void verrc(int status, int code, const char *fmt, va_list ap)
{
	warn_common(code, 1, fmt, ap);
	exit(status);
}

SHIM_API void errc(int status, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	warn_common(code, 1, fmt, ap);
	va_end(ap);
	exit(status);
}

/*
 * error(3) and error_at_line(3) take varargs and glibc before 2.38 has no
 * va_list form to hand ours to, so the message is formatted here (with
 * the caller's errno, for %m) and passed as "%s": the bytes are the same.
 * Into a stack buffer first; longer messages are allocated, and if that
 * fails the real function is replaced by the same steps written out
 * (error_fallback()).
 */
#define MSG_STACK 512

static char *format_msg(char *stack, const char *fmt, va_list ap)
{
	va_list aq;
	char *heap;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(stack, MSG_STACK, fmt, aq);
	va_end(aq);
	if (n < 0)
		return NULL;
	if (n < MSG_STACK)
		return stack;
	heap = malloc((size_t)n + 1);
	if (!heap)
		return NULL;
	va_copy(aq, ap);
	vsnprintf(heap, (size_t)n + 1, fmt, aq);
	va_end(aq);
	return heap;
}

/*
 * What glibc's error_at_line() does (file NULL: error()), for the one
 * case format_msg() could not help: out of memory with a long message.
 */
static void error_fallback(int errnum, int at_line, const char *file,
			   unsigned int lineno, const char *fmt, va_list ap)
{
	fflush(stdout);
	if (error_print_progname)
		error_print_progname();
	else
		fprintf(stderr, at_line ? "%s:" : "%s: ",
			program_invocation_name);
	if (at_line)
		fprintf(stderr, file ? "%s:%u: " : " ", file, lineno);
	vfprintf(stderr, fmt, ap);
	++error_message_count;
	if (errnum)
		fprintf(stderr, ": %s", strerror(errnum));
	fputc('\n', stderr);
	fflush(stderr);
}

/*
 * The explanation after an error(3) line: with the program's own
 * error_print_progname() if it has one, as error(3) itself does.
 */
static void print_error_line(const char *line)
{
	if (error_print_progname) {
		error_print_progname();
		print_line(NULL, line);
	} else {
		print_line(program_invocation_name, line);
	}
}

static void error_common(int status, int errnum, int at_line,
			 const char *file, unsigned int lineno,
			 const char *fmt, va_list ap)
{
	int saved_errno = errno, errno_after, cancel;
	unsigned int count = error_message_count;
	char stack[MSG_STACK], *msg = NULL, *line;

	/*
	 * error(3) is no cancellation point (glibc turns cancellation off
	 * while it writes): neither is the line after it.
	 */
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &cancel);
	line = busy++ ? NULL : explain(errnum);
	errno = saved_errno;
	if (at_line ? !!real.verror_at_line : !!real.verror) {
		/* glibc 2.38 and later: ap goes through as it is. */
		if (at_line)
			real.verror_at_line(0, errnum, file, lineno, fmt, ap);
		else
			real.verror(0, errnum, fmt, ap);
	} else if ((msg = format_msg(stack, fmt, ap)) &&
		   (at_line ? !!real.error_at_line : !!real.error)) {
		errno = saved_errno;
		if (at_line)
			real.error_at_line(0, errnum, file, lineno, "%s", msg);
		else
			real.error(0, errnum, "%s", msg);
	} else {
		errno = saved_errno;
		error_fallback(errnum, at_line, file, lineno, fmt, ap);
	}
	errno_after = errno;
	if (msg && msg != stack)
		free(msg);
	/*
	 * error_at_line() prints nothing for a repeated place when
	 * error_one_per_line is set, and then returns even when status is
	 * not 0: so does this, and no explanation either.
	 */
	if (error_message_count == count) {
		free(line);
		line = NULL;
		status = 0;
	}
	if (line) {
		print_error_line(line);
		free(line);
		fflush(stderr);
	}
	busy--;
	pthread_setcancelstate(cancel, NULL);
	errno = errno_after;
	if (status)
		exit(status);
}

SHIM_API void verror(int status, int errnum, const char *fmt, va_list ap)
{
	error_common(status, errnum, 0, NULL, 0, fmt, ap);
}

SHIM_API void error(int status, int errnum, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	error_common(status, errnum, 0, NULL, 0, fmt, ap);
	va_end(ap);
}

SHIM_API void verror_at_line(int status, int errnum, const char *file,
			     unsigned int lineno, const char *fmt, va_list ap)
{
	error_common(status, errnum, 1, file, lineno, fmt, ap);
}

SHIM_API void error_at_line(int status, int errnum, const char *file,
			    unsigned int lineno, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	error_common(status, errnum, 1, file, lineno, fmt, ap);
	va_end(ap);
}

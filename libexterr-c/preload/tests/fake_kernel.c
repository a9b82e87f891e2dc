// SPDX-License-Identifier: MIT
/*
 * The kernel side of PR_GET_ERR_DESC, faked for the test build of the
 * shim (libexterr-preload-fake.so): that build is linked with
 * -Wl,--wrap=prctl, so the shim's size query and libexterr's fetch land
 * here. The model follows docs/contract.md section 1: one description per
 * thread, a size query consumes nothing, a copy hands it out and clears
 * it, and nothing is recorded in a process that did not enable
 * descriptions with PR_SET_ERR_DESC_ENABLED. That is left to libexterr's
 * constructor, linked into the shim: every case that expects a line
 * shows that it ran. The test driver sets the description through the
 * functions below, found with dlsym() so that the same driver also runs
 * without the shim.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <string.h>
#include <sys/prctl.h>

#include <exterr.h>

#define FAKE_API __attribute__((visibility("default")))

static __thread const char *pending;
static int raise_on_copy;
/* Per process, inherited by fork() as the kernel's switch is. */
static int enabled;

FAKE_API void exterr_fake_set(const char *json);
FAKE_API int exterr_fake_pending(void);
FAKE_API void exterr_fake_raise_on_copy(int sig);

/*
 * The calling thread's description, as a failing call would leave it: in
 * a process that enabled descriptions, else none.
 */
void exterr_fake_set(const char *json)
{
	pending = enabled ? json : NULL;
}

int exterr_fake_pending(void)
{
	return pending != NULL;
}

/* Deliver @sig in the middle of the next copy: a handler at a bad time. */
void exterr_fake_raise_on_copy(int sig)
{
	raise_on_copy = sig;
}

int __real_prctl(int option, ...);
int __wrap_prctl(int option, ...);

int __wrap_prctl(int option, ...)
{
	unsigned long a2, a3, a4, a5;
	size_t len;
	va_list ap;

	va_start(ap, option);
	a2 = va_arg(ap, unsigned long);
	a3 = va_arg(ap, unsigned long);
	a4 = va_arg(ap, unsigned long);
	a5 = va_arg(ap, unsigned long);
	va_end(ap);
	if (option == PR_SET_ERR_DESC_ENABLED) {
		if (a2 != 1 || a3 || a4 || a5) {
			errno = EINVAL;
			return -1;
		}
		enabled = 1;
		return 0;
	}
	if (option != PR_GET_ERR_DESC)
		return __real_prctl(option, a2, a3, a4, a5);
	if (a4 & ~PR_ERR_DESC_NOTES || a5) {
		errno = EINVAL;
		return -1;
	}
	if (!pending) {
		errno = ENODATA;
		return -1;
	}
	len = strlen(pending);
	if (!a2 && !a3)
		return (int)len + 1;
	if (a3 < len + 1) {
		errno = ERANGE;
		return -1;
	}
	if (raise_on_copy) {
		int sig = raise_on_copy;

		raise_on_copy = 0;
		raise(sig);
	}
	memcpy((char *)a2, pending, len + 1);
	pending = NULL;
	return (int)len;
}

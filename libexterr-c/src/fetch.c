// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * exterr_fetch(): take the calling thread's pending description out of the
 * kernel with prctl(PR_GET_ERR_DESC) and parse it; exterr_fetch_ex() can
 * ask for notes on successful calls too. exterr_supported(): does the
 * running kernel have that prctl at all? And the constructor that asks the
 * kernel to record descriptions for this process in the first place.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/prctl.h>

#include "internal.h"

/*
 * The description can grow between the size probe and the copy (a signal
 * handler's failing syscall replaces it); retry a few times, not forever.
 */
#define FETCH_TRIES 8

static int get_desc(void *buf, size_t size, unsigned long flags)
{
	return prctl(PR_GET_ERR_DESC, (unsigned long)buf, (unsigned long)size,
		     flags, 0UL);
}

static int fetch_error(int e)
{
	/* Unknown prctl options fail with EINVAL: no exterr in this kernel. */
	return e == EINVAL ? -EOPNOTSUPP : -e;
}

static int fetch(struct exterr **errp, unsigned long flags)
{
	int tries, n;

	for (tries = 0; tries < FETCH_TRIES; tries++) {
		size_t size;
		char *buf;
		int ret;

		n = get_desc(NULL, 0, flags);
		/*
		 * A kernel from before notes knows no flag: EINVAL. Then no
		 * note can be pending, and a description is read without it.
		 */
		if (n < 0 && errno == EINVAL && flags) {
			flags = 0;
			n = get_desc(NULL, 0, flags);
		}
		if (n < 0)
			return fetch_error(errno);
		size = n > 0 ? (size_t)n : 1;
		buf = malloc(size);
		if (!buf)
			return -ENOMEM;
		n = get_desc(buf, size, flags);
		if (n >= 0) {
			/* n is the JSON length; never trust it past buf. */
			ret = exterr_parse(buf, (size_t)n < size ? (size_t)n :
					   size, errp);
			free(buf);
			return ret;
		}
		ret = errno;
		free(buf);
		if (ret != ERANGE)
			return fetch_error(ret);
	}
	return -EAGAIN;
}

/*
 * The kernel records descriptions only for processes that enabled them,
 * so that threads which never read one pay nothing. A program linked with
 * libexterr, directly or through the Python, Go or Rust binding (all of
 * which load it), means to read them, and must get them on every thread
 * without doing anything per thread: loading the library enables them.
 * The switch is per process, so threads started before the library was
 * loaded are covered too (the Go runtime's, Python's before the import or
 * dlopen()); children and programs it execs inherit it.
 *
 * This lives in the object file of exterr_fetch(): a static link that can
 * fetch pulls this object in, and with it the constructor.
 *
 * Failure is ignored: an unpatched kernel answers EINVAL and has nothing
 * to enable; after ENOMEM the threads left without kernel state record
 * nothing, and their fetches find nothing (ENODATA), as when no
 * description is pending. Calling it again is harmless (another copy of
 * libexterr, the preload shim), and a program's errno is not touched:
 * this may run from dlopen() at any time.
 */
__attribute__((constructor)) static void enable_descriptions(void)
{
	int saved_errno = errno;

	(void)prctl(PR_SET_ERR_DESC_ENABLED, 1UL, 0UL, 0UL, 0UL);
	errno = saved_errno;
}

EXTERR_API int exterr_fetch_ex(struct exterr **errp, unsigned int flags)
{
	int saved_errno = errno;
	int ret;

	if (!errp)
		return -EINVAL;
	*errp = NULL;
	if (flags & ~EXTERR_FETCH_NOTES)
		return -EINVAL;
	ret = fetch(errp, flags & EXTERR_FETCH_NOTES ? PR_ERR_DESC_NOTES : 0);
	errno = saved_errno;
	return ret;
}

EXTERR_API int exterr_fetch(struct exterr **errp)
{
	return exterr_fetch_ex(errp, 0);
}

EXTERR_API int exterr_supported(void)
{
	int saved_errno = errno;
	int ret;

	/*
	 * Only the size query: it never consumes a pending description, so
	 * probing cannot lose the one the caller is about to fetch. A kernel
	 * without exterr answers an unknown option with EINVAL alone; any
	 * other answer (a size, ENODATA, ...) is taken as support, the same
	 * line fetch_error() draws for exterr_fetch().
	 */
	ret = get_desc(NULL, 0, 0) >= 0 || errno != EINVAL;
	errno = saved_errno;
	return ret;
}

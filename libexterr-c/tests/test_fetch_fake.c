// SPDX-License-Identifier: MIT
/*
 * exterr_fetch() and exterr_perror() against a fake kernel: prctl() is
 * replaced at link time (-Wl,--wrap=prctl) by a model of the contract's
 * section 1 table, so the retry and error paths run on any kernel. The
 * model includes PR_SET_ERR_DESC_ENABLED: nothing is handed out before
 * it, so every test below also relies on libexterr's constructor, and
 * test_enable() checks that call itself. Linked with the static library,
 * which must bring the constructor along with exterr_fetch().
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>

#include <exterr.h>
#include "t.h"
#include "capture.h"

#define EXAMPLE "{\"code\":-22,\"module\":\"perf\",\"file\":\"kernel/events/core.c\",\"line\":12883,\"message\":\"sample_freq above kernel.perf_event_max_sample_rate\",\"syscall\":298,\"attr_field\":\"sample_freq\"}"
#define EXAMPLE_LINE "Invalid argument: sample_freq above kernel.perf_event_max_sample_rate [perf attr_field=sample_freq] (kernel/events/core.c:12883)"

static struct {
	int unpatched;		/* fail everything with EINVAL */
	int fail_all;		/* fail everything with this, e.g. seccomp */
	int fail_errno;		/* fail the copy with this */
	int grow;		/* grow the description after N probes */
	const char *pending;
	const char *grown;	/* what it grows to */
	int note;		/* pending is a note: only PR_ERR_DESC_NOTES */
	int no_notes;		/* a kernel from before notes: arg4 must be 0 */
	int calls;
	int copies;		/* calls that were not size queries */
} k;

/*
 * The process-wide switch, apart from k: libexterr's constructor sets it
 * before main(), and reset() must not undo that.
 */
static struct {
	int enabled;
	int calls;		/* PR_SET_ERR_DESC_ENABLED calls */
	int calls_before_main;
	int bad_args;		/* of those, not (1, 0, 0, 0): EINVAL */
	int errno_at_call;	/* errno the first call found */
} proc;
static int in_main;

/* errno before libexterr's constructor, and what the fake leaves. */
#define ERRNO_BEFORE 777
#define ERRNO_CLOBBER 4321

/* Runs before the constructors of default priority, libexterr's. */
__attribute__((constructor(101))) static void before_libexterr(void)
{
	errno = ERRNO_BEFORE;
}

static int set_enabled(unsigned long a2, unsigned long a3, unsigned long a4,
		       unsigned long a5)
{
	if (!proc.calls++)
		proc.errno_at_call = errno;
	if (!in_main)
		proc.calls_before_main++;
	if (a2 != 1 || a3 || a4 || a5) {
		proc.bad_args++;
		errno = EINVAL;
		return -1;
	}
	proc.enabled = 1;
	/*
	 * Success with errno changed, as any library call may leave it: the
	 * constructor must restore the program's errno all the same.
	 */
	errno = ERRNO_CLOBBER;
	return 0;
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
	if (option == PR_SET_ERR_DESC_ENABLED)
		return set_enabled(a2, a3, a4, a5);
	if (option != PR_GET_ERR_DESC)
		return __real_prctl(option, a2, a3, a4, a5);

	k.calls++;
	if (a2 || a3)
		k.copies++;
	if (k.unpatched || (a4 && (k.no_notes || a4 != PR_ERR_DESC_NOTES)) ||
	    a5) {
		errno = EINVAL;
		return -1;
	}
	if (k.fail_all) {
		errno = k.fail_all;
		return -1;
	}
	/* A process that never enabled descriptions has none recorded. */
	if (!proc.enabled || !k.pending || (k.note && !a4)) {
		errno = ENODATA;
		return -1;
	}
	len = strlen(k.pending);
	if (!a2 && !a3) {
		/* A signal handler's failing syscall, right after the probe. */
		if (k.grow > 0 && !--k.grow)
			k.pending = k.grown;
		/* One that grows after every probe: always a byte short. */
		if (k.grow < 0)
			return (int)len;
		return (int)len + 1;
	}
	if (a3 < len + 1) {
		errno = ERANGE;
		return -1;
	}
	if (k.fail_errno) {
		errno = k.fail_errno;
		return -1;
	}
	memcpy((char *)a2, k.pending, len + 1);
	k.pending = NULL;
	return (int)len;
}

static void reset(void)
{
	memset(&k, 0, sizeof(k));
}

static int fetch(struct exterr **err)
{
	int ret;

	*err = (struct exterr *)&t_passed;
	errno = 777;
	ret = exterr_fetch(err);
	CHECK_INT(errno, 777);
	if (ret)
		CHECK(*err == NULL);
	return ret;
}

static void test_basic(void)
{
	struct exterr *err;

	reset();
	k.unpatched = 1;
	CHECK_INT(fetch(&err), -EOPNOTSUPP);

	reset();
	CHECK_INT(fetch(&err), -ENODATA);

	reset();
	k.pending = EXAMPLE;
	CHECK_INT(fetch(&err), 0);
	CHECK_INT(k.calls, 2);
	CHECK_STR(err->json, EXAMPLE);
	CHECK_STR(exterr_field(err, "attr_field"), "sample_freq");
	exterr_free(err);
	/* Consumed: the next one finds nothing. */
	CHECK_INT(fetch(&err), -ENODATA);

	CHECK_INT(exterr_fetch(NULL), -EINVAL);
}

static void test_retry(void)
{
	static const char big[] = "{\"code\":-7,\"module\":\"m\",\"file\":\"f\","
		"\"line\":1,\"message\":\"a much longer message than the first"
		" one, long enough to need a bigger buffer: ................"
		"..............................................................."
		"...............................................................\"}";
	struct exterr *err;

	reset();
	k.pending = EXAMPLE;
	k.grown = big;
	k.grow = 1;
	CHECK_INT(fetch(&err), 0);
	CHECK_INT(k.calls, 4);
	CHECK_INT(err->error, 7);
	exterr_free(err);

	/* A description that keeps changing: give up, do not spin. */
	reset();
	k.pending = EXAMPLE;
	k.grown = big;
	k.grow = -1;
	CHECK_INT(fetch(&err), -EAGAIN);
	CHECK(k.calls <= 16);
}

static void test_errors(void)
{
	struct exterr *err;

	reset();
	k.pending = EXAMPLE;
	k.fail_errno = EFAULT;
	CHECK_INT(fetch(&err), -EFAULT);
	k.fail_errno = ENOMEM;
	CHECK_INT(fetch(&err), -ENOMEM);
	CHECK(k.pending != NULL);

	/* A broken description is consumed and reported as such. */
	reset();
	k.pending = "{\"code\":-22";
	CHECK_INT(fetch(&err), -EBADMSG);
	CHECK(k.pending == NULL);
	reset();
	k.pending = "{\"code\":22,\"module\":\"m\",\"file\":\"f\",\"line\":1,"
		    "\"message\":\"m\"}";
	CHECK_INT(fetch(&err), -EPROTO);
}

/* exterr_supported() with errno set to 777 beforehand, which it keeps. */
static int supported(void)
{
	int ret;

	errno = 777;
	ret = exterr_supported();
	CHECK_INT(errno, 777);
	return ret;
}

static void test_supported(void)
{
	struct exterr *err;

	reset();
	k.unpatched = 1;
	CHECK_INT(supported(), 0);
	CHECK_INT(k.calls, 1);

	reset();
	CHECK_INT(supported(), 1);
	CHECK_INT(k.calls, 1);

	/* Anything but EINVAL means the kernel knows the option. */
	reset();
	k.fail_all = EPERM;
	CHECK_INT(supported(), 1);

	/*
	 * A pending description is only measured, never copied, so it is
	 * still there for the fetch that follows.
	 */
	reset();
	k.pending = EXAMPLE;
	CHECK_INT(supported(), 1);
	CHECK_INT(supported(), 1);
	CHECK_INT(k.calls, 2);
	CHECK_INT(k.copies, 0);
	CHECK(k.pending != NULL);
	CHECK_INT(fetch(&err), 0);
	CHECK_STR(err->json, EXAMPLE);
	exterr_free(err);
	CHECK_INT(supported(), 1);
	CHECK_INT(fetch(&err), -ENODATA);
}

static void test_perror(void)
{
	struct capture c;
	const char *out;

	reset();
	k.pending = EXAMPLE;
	capture_start(&c);
	errno = EINVAL;
	exterr_perror("perf_event_open");
	CHECK_INT(errno, EINVAL);
	out = capture_end(&c);
	CHECK_STR(out, "perf_event_open: Invalid argument\n" EXAMPLE_LINE "\n");
	CHECK(k.pending == NULL);

	/* Nothing pending any more: plain perror(). */
	capture_start(&c);
	errno = EINVAL;
	exterr_perror("again");
	CHECK_INT(errno, EINVAL);
	CHECK_STR(capture_end(&c), "again: Invalid argument\n");

	/* An unparsable description is dropped, errno still restored. */
	reset();
	k.pending = "garbage";
	capture_start(&c);
	errno = ENOSPC;
	exterr_perror(NULL);
	CHECK_INT(errno, ENOSPC);
	CHECK_STR(capture_end(&c), "No space left on device\n");
}

#define NOTE "{\"code\":0,\"severity\":\"info\",\"id\":\"v4l2.x.y\"," \
	"\"module\":\"vivid\",\"file\":\"f.c\",\"line\":3,\"message\":\"m\"," \
	"\"syscall\":16,\"values\":{\"requested\":1,\"granted\":2}}"

/* Notes only for exterr_fetch_ex(EXTERR_FETCH_NOTES); old kernels too. */
static void test_fetch_ex(void)
{
	struct exterr *err = NULL;

	reset();
	k.pending = NOTE;
	k.note = 1;
	CHECK_INT(fetch(&err), -ENODATA);
	CHECK_INT(exterr_fetch_ex(&err, EXTERR_FETCH_NOTES), 0);
	CHECK(err && EXTERR_HAS(err, values));
	if (err) {
		CHECK_INT(err->error, 0);
		CHECK_INT(err->severity, EXTERR_SEVERITY_INFO);
		CHECK_STR(err->id, "v4l2.x.y");
		CHECK_INT(err->nr_values, 2);
		CHECK_INT(exterr_value(err, "granted")->uvalue, 2);
		exterr_free(err);
	}
	CHECK_INT(exterr_fetch_ex(&err, EXTERR_FETCH_NOTES), -ENODATA);

	/* A kernel without notes: the flag is dropped, errors still read. */
	reset();
	k.no_notes = 1;
	k.pending = EXAMPLE;
	CHECK_INT(exterr_fetch_ex(&err, EXTERR_FETCH_NOTES), 0);
	CHECK(err != NULL);
	exterr_free(err);
	reset();
	k.unpatched = 1;
	CHECK_INT(exterr_fetch_ex(&err, EXTERR_FETCH_NOTES), -EOPNOTSUPP);

	/* Unknown flags. */
	reset();
	k.pending = EXAMPLE;
	CHECK_INT(exterr_fetch_ex(&err, 2), -EINVAL);
	CHECK(err == NULL);
	CHECK_INT(k.calls, 0);
	CHECK_INT(exterr_fetch_ex(NULL, 0), -EINVAL);
}

/*
 * libexterr's constructor enabled descriptions before main(), once, with
 * the only arguments the kernel takes, and left errno as it found it.
 */
static void test_enable(int errno_at_main)
{
	struct exterr *err;
	int enabled = proc.enabled;

	CHECK_INT(proc.calls, 1);
	CHECK_INT(proc.calls_before_main, 1);
	CHECK_INT(proc.bad_args, 0);
	CHECK_INT(proc.enabled, 1);
	CHECK_INT(proc.errno_at_call, ERRNO_BEFORE);
	CHECK_INT(errno_at_main, ERRNO_BEFORE);

	/*
	 * A thread that enabling missed (ENOMEM) finds nothing, as when
	 * nothing is pending, and the kernel still counts as supported.
	 */
	proc.enabled = 0;
	reset();
	k.pending = EXAMPLE;
	CHECK_INT(fetch(&err), -ENODATA);
	CHECK_INT(supported(), 1);
	proc.enabled = enabled;
}

int main(void)
{
	int errno_at_main = errno;

	in_main = 1;
	test_enable(errno_at_main);
	test_basic();
	test_fetch_ex();
	test_retry();
	test_errors();
	test_supported();
	test_perror();
	/* Fetching and probing never enable again: that is load's job. */
	CHECK_INT(proc.calls, 1);
	return t_done();
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile callers of prctl(PR_GET_ERR_DESC): unmapped, read-only,
 * misaligned, page-straddling and kernel-space buffers, huge and
 * off-by-one sizes, stray arguments; as root, as an unprivileged user
 * (after setuid()), and under a seccomp filter. Each call must get the
 * contract's result; a failed call must leave the description pending
 * (the next fetch gets it whole), and no call may write anything into
 * the caller's memory beyond the description and its NUL.
 */
#include "rel_cases.h"

#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/wait.h>

#define GUARD 0xa5
#define PAGE 4096

/* perf-sigtrap: needs neither the module nor privileges. */
static size_t the_case;
static long json_len;
static unsigned char *pages;	/* rw, rw, ro, unmapped */
static unsigned long calls;

static void cause(void)
{
	int fd;

	REL_CHECK(rel_cause(&rel_cases[the_case], &fd) ==
		  rel_cases[the_case].err);
	rel_done(fd);
}

/* Nothing but guard bytes in [p, p + n). */
static int untouched(const unsigned char *p, size_t n)
{
	while (n--)
		if (*p++ != GUARD)
			return 0;
	return 1;
}

static void fill(void)
{
	memset(pages, GUARD, 2 * PAGE);
}

/*
 * One hostile call: must return want (or -1 with errno want_errno), and
 * leave the description pending unless it succeeded.
 */
static void call(const char *what, void *buf, unsigned long size,
		 unsigned long a4, unsigned long a5, long want, int want_errno)
{
	long r;

	cause();
	errno = 0;
	r = rel_prctl(buf, size, a4, a5);
	calls++;
	if (r != want || (want == -1 && errno != want_errno))
		REL_FAIL("%s: %ld errno %d, want %ld errno %d", what, r, errno,
			 want, want_errno);
	if (want >= 0 && buf) {
		errno = 0;
		REL_CHECK(rel_prctl(NULL, 0, 0, 0) == -1 && errno == ENODATA);
	} else {
		rel_expect(the_case, what);
	}
}

/*
 * The n bytes at p are a prefix of the description (possibly empty), then
 * untouched: what a fetch that faulted may leave. It copies in word-sized
 * stores, so it can stop a few bytes before the faulting page, but it
 * never writes a byte that is not the description's.
 */
static int prefix_then_untouched(const unsigned char *p, size_t n)
{
	const unsigned char *want = (const unsigned char *)rel_expected[the_case];
	size_t k = 0;

	while (k < n && p[k] == want[k])
		k++;
	return untouched(p + k, n - k);
}

/* A buffer of the right size at p holds the description, then guards. */
static void copied_at(const char *what, unsigned char *p, unsigned long size)
{
	fill();
	call(what, p, size, 0, 0, json_len, 0);
	if (memcmp(p, rel_expected[the_case], json_len + 1))
		REL_FAIL("%s: wrong bytes copied", what);
	if (!untouched(pages, p - pages) ||
	    !untouched(p + json_len + 1, pages + 2 * PAGE - (p + json_len + 1)))
		REL_FAIL("%s: wrote outside the description", what);
}

static void pointers(void)
{
	unsigned char *straddle = pages + 3 * PAGE - json_len / 2;
	static const unsigned long kernel[] = {
		0xffffffff81000000UL,	/* kernel text */
		0xffff888000000000UL,	/* the direct map */
		0xfffffffffffff000UL,	/* the last page */
		0x00007ffffffff000UL,	/* TASK_SIZE: just past user space */
	};
	size_t i;

	call("NULL, 4096", NULL, PAGE, 0, 0, -1, EFAULT);
	call("unmapped", pages + 3 * PAGE, PAGE, 0, 0, -1, EFAULT);
	call("read-only", pages + 2 * PAGE, PAGE, 0, 0, -1, EFAULT);
	REL_CHECK(pages[2 * PAGE] == 0);
	for (i = 0; i < sizeof(kernel) / sizeof(kernel[0]); i++)
		call("kernel or unmapped address", (void *)kernel[i], PAGE, 0, 0,
		     -1, EFAULT);
	/* Half in the read-only page: the copy stops at or before it. */
	fill();
	call("straddling into read-only", straddle - PAGE, json_len + 1, 0, 0,
	     -1, EFAULT);
	REL_CHECK(prefix_then_untouched(straddle - PAGE,
					pages + 2 * PAGE - (straddle - PAGE)));
	for (i = 1; i < 8; i++)
		copied_at("misaligned", pages + i, json_len + 1);
	copied_at("ending at the page end", pages + 2 * PAGE - json_len - 1,
		  json_len + 1);
	copied_at("across a page boundary", pages + PAGE - json_len / 2,
		  json_len + 1);
}

static void sizes(void)
{
	static const unsigned long huge[] = {
		PAGE, 65536, 65537, 1UL << 31, 1UL << 32, 1UL << 63, ~0UL,
	};
	size_t i;

	call("size query", NULL, 0, 0, 0, json_len + 1, 0);
	fill();
	call("size 0", pages, 0, 0, 0, -1, ERANGE);
	call("size 1", pages, 1, 0, 0, -1, ERANGE);
	call("size len", pages, json_len, 0, 0, -1, ERANGE);
	call("size len - 1", pages, json_len - 1, 0, 0, -1, ERANGE);
	call("NULL, size 1", NULL, 1, 0, 0, -1, ERANGE);
	call("NULL, size len", NULL, json_len, 0, 0, -1, ERANGE);
	REL_CHECK(untouched(pages, 2 * PAGE));
	copied_at("size len + 1", pages, json_len + 1);
	copied_at("size len + 2", pages, json_len + 2);
	/* Only len + 1 bytes are written, whatever the size claims. */
	for (i = 0; i < sizeof(huge) / sizeof(huge[0]); i++)
		copied_at("huge size", pages + 100, huge[i]);
	call("NULL, huge size", NULL, ~0UL, 0, 0, -1, EFAULT);
	/* arg4 is flags: PR_ERR_DESC_NOTES (1) is the only one. */
	call("arg4 unknown flag", pages, PAGE, 2, 0, -1, EINVAL);
	call("arg4 notes and an unknown flag", pages, PAGE, 3, 0, -1, EINVAL);
	call("arg5", pages, PAGE, 0, 1, -1, EINVAL);
	call("arg4 and arg5", pages, PAGE, ~0UL, ~0UL, -1, EINVAL);
	call("arg4 unknown flag, NULL", NULL, 0, 2, 0, -1, EINVAL);
	call("notes flag, NULL", NULL, 0, 1, 0, json_len + 1, 0);
	call("notes flag", pages, PAGE, 1, 0, json_len, 0);
}

static void all_calls(void)
{
	pointers();
	sizes();
}

static pid_t run_child(void (*fn)(void))
{
	pid_t pid = fork();

	REL_CHECK(pid >= 0);
	if (pid == 0) {
		calls = 0;
		fn();
		printf("child: %lu hostile calls\n", calls);
		fflush(stdout);
		_exit(0);
	}
	return pid;
}

static void wait_child(pid_t pid, const char *what)
{
	int status;

	REL_CHECK(waitpid(pid, &status, 0) == pid);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		REL_FAIL("%s: child status %#x", what, status);
}

/*
 * An unprivileged task: a description raised as root survives setuid()
 * (it is the task's own), and then every call behaves as for root.
 */
static void unprivileged(void)
{
	cause();
	REL_CHECK(setgid(65534) == 0 && setuid(65534) == 0);
	REL_CHECK(geteuid() == 65534);
	rel_expect(the_case, "after setuid");
	all_calls();
}

/* Deny perf_event_open() with EPERM; allow everything else. */
static void install_filter(void)
{
	struct sock_filter code[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_perf_event_open, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = {
		.len = sizeof(code) / sizeof(code[0]),
		.filter = code,
	};

	REL_CHECK(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0);
	REL_CHECK(syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) == 0);
}

/*
 * Under a seccomp filter: a description from before the filter is still
 * there; a call the filter fails records nothing; prctl() itself, let
 * through, behaves as without the filter (checked with module errors).
 */
static void filtered(void)
{
	size_t i;
	int fd;

	cause();
	install_filter();
	rel_expect(the_case, "under seccomp");
	errno = 0;
	REL_CHECK(rel_perf_open(&rel_cases[the_case]) == -1 && errno == EPERM);
	errno = 0;
	REL_CHECK(rel_prctl(NULL, 0, 0, 0) == -1 && errno == ENODATA);
	for (i = 0; i < REL_NCASES; i++) {
		if (!rel_cases[i].raise)
			continue;
		REL_CHECK(rel_cause(&rel_cases[i], &fd) == rel_cases[i].err);
		rel_expect(i, "module error under seccomp");
		rel_done(fd);
	}
	/* The filtered perf error cannot be caused: use a module one. */
	the_case = 0;
	json_len = strlen(rel_expected[the_case]);
	sizes();
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	/* The children, unprivileged or filtered, inherit it. */
	rel_enable();
	rel_calibrate();
	for (the_case = 0; strcmp(rel_cases[the_case].name, "perf-sigtrap");)
		the_case++;
	json_len = strlen(rel_expected[the_case]);

	/* Two rw pages, a read-only one (zeroed), and a hole after it. */
	pages = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	REL_CHECK(pages != MAP_FAILED);
	REL_CHECK(mprotect(pages + 2 * PAGE, PAGE, PROT_READ) == 0);
	REL_CHECK(munmap(pages + 3 * PAGE, PAGE) == 0);

	all_calls();
	printf("root: %lu hostile calls\n", calls);
	wait_child(run_child(unprivileged), "unprivileged");
	wait_child(run_child(filtered), "seccomp");
	printf("ok hostile\n");
	return 0;
}

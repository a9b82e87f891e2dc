// SPDX-License-Identifier: GPL-2.0
/*
 * kprofile: the guest side of bench/profile. Run as the program of
 * kernel/vm-run --gdb, it makes the system calls that bench/profile's gdb
 * script traces instruction by instruction.
 *
 * Every call, warm-up or profiled, goes through one syscall instruction,
 * labelled kprofile_syscall, so that the user-space side of each is the
 * same. The profiled calls differ from the warm-up ones only in the
 * address of one argument (the struct, the buffer, or a marker in an
 * argument register the call ignores): a copy with the same contents,
 * kprofile_CASE, where the warm-up uses warm_CASE. The debugger knows
 * these addresses from the symbol table of this program and breaks at
 * kprofile_syscall only when a register holds one of them, so the warm-up
 * calls run at full speed and the profiled ones are the REPS calls after
 * WARMUP of the same kind.
 *
 * Cases (bench/profile names each with its system call and register):
 *   getppid       the control (its argument, ignored, tells it apart)
 *   fail_size1    perf_event_open(), attr.size=1 (E2BIG)
 *   fail_sigtrap  perf_event_open(), sigtrap without remove_on_exec
 *   fetch         prctl(PR_GET_ERR_DESC, buf, 4096, 0, 0) of the sigtrap
 *                 failure's description (patched kernel only)
 *   fetch_size1   the same of the size=1 failure's, which has two values
 * and, from bench/guest/kreq.h, each converted call's success and typical
 * failure: openat2, fail_openat2, clone3, fail_clone3, sched_setattr,
 * fail_sched_setattr, mount_setattr, fail_mount_setattr, io_uring_setup,
 * fail_io_uring_setup, mount, fail_mount, s_fmt, s_fmt_adjusted; and the
 * second half of a pair that kbench times together: close_openat2 (the
 * close() of openat2()'s file), close_io_uring, umount. A success runs
 * with nothing pending (a description kept from an earlier call keeps the
 * exit work armed); each undoes itself (close, umount, wait for the child)
 * outside the profiled call.
 *
 * Per round, each case of the command line in its order: WARMUP rounds,
 * then REPS rounds with the profiled copies. On the patched kernel the
 * process enables descriptions first (they are opt-in per process), so
 * the failures are profiled as a program that reads them makes them.
 *
 * Usage: kprofile REPS CASE...
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../../kernel/tests/guest/err_desc.h"
#include "../../kernel/tests/guest/perf_sigtrap.h"
#include "kreq.h"

#define PR_ERR_DESC_NOTES 1UL
#define WARMUP 100
#define DESC_SIZE 4096

/* A warm-up copy of a case's argument, and the profiled one. */
#define KARG(type, name) type warm_##name, kprofile_##name
/* A page-aligned one: mount(2) reads its data a page at a time. */
#define KPAGE(name) \
	char warm_##name[4096] __attribute__((aligned(4096))), \
	kprofile_##name[4096] __attribute__((aligned(4096)))

KARG(char, getppid);
KARG(struct perf_event_attr, fail_size1);
KARG(struct perf_event_attr, fail_sigtrap);
KARG(char, fetch[DESC_SIZE]);
KARG(char, fetch_size1[DESC_SIZE]);
KARG(struct open_how, openat2);
KARG(struct open_how, fail_openat2);
KARG(char, close_openat2);
KARG(struct clone_args, clone3);
KARG(struct clone_args, fail_clone3);
KARG(struct sched_attr, sched_setattr);
KARG(struct sched_attr, fail_sched_setattr);
KARG(struct mount_attr, mount_setattr);
KARG(struct mount_attr, fail_mount_setattr);
KARG(struct io_uring_params, io_uring_setup);
KARG(struct io_uring_params, fail_io_uring_setup);
KARG(char, close_io_uring);
KPAGE(mount);
KPAGE(fail_mount);
KARG(char, umount);
KARG(struct v4l2_format, s_fmt);
KARG(struct v4l2_format, s_fmt_adjusted);

#define ARG(name) (prof ? (void *)&kprofile_##name : (void *)&warm_##name)

static int patched, vivid_fd = -1;
static struct v4l2_format fmt_cur;

/*
 * The one syscall instruction of every call. noinline keeps it one
 * instruction at one address, which the label names for the debugger.
 * Returns the raw result: -errno on failure.
 */
static __attribute__((noinline)) long
marked_syscall(long nr, long a1, long a2, long a3, long a4, long a5)
{
	register long r10 asm("r10") = a4;
	register long r8 asm("r8") = a5;
	long ret;

	asm volatile(".globl kprofile_syscall\n"
		     "kprofile_syscall:\n\t"
		     "syscall"
		     : "=a"(ret)
		     : "a"(nr), "D"(a1), "S"(a2), "d"(a3), "r"(r10), "r"(r8)
		     : "rcx", "r11", "memory");
	return ret;
}

static void die(const char *what, long ret)
{
	printf("kprofile FAIL %s (returned %ld)\n", what, ret);
	exit(1);
}

/* Each request must give the result it is meant to. */
static void want(const char *what, long ret, long expected)
{
	if (ret != expected)
		die(what, ret);
}

static void ok(const char *what, long ret)
{
	if (ret < 0)
		die(what, ret);
}

/* getppid() with a marker argument it ignores; the guest's init is 1. */
static void c_getppid(int prof)
{
	ok("getppid", marked_syscall(SYS_getppid, (long)ARG(getppid), 0, 0, 0, 0));
}

static void c_fail_size1(int prof)
{
	struct perf_event_attr *attr = ARG(fail_size1);

	perf_sw_clock_attr(attr);
	attr->size = 1;		/* the kernel writes the expected size back */
	want("size1", marked_syscall(SYS_perf_event_open, (long)attr, 0, -1, -1, 0),
	     -E2BIG);
}

static void sigtrap_attr(struct perf_event_attr *attr)
{
	perf_sw_clock_attr(attr);
	attr->sigtrap = 1;	/* without remove_on_exec: EINVAL */
}

static void c_fail_sigtrap(int prof)
{
	struct perf_event_attr *attr = ARG(fail_sigtrap);

	sigtrap_attr(attr);
	want("sigtrap", marked_syscall(SYS_perf_event_open, (long)attr, 0, -1, -1, 0),
	     -EINVAL);
}

/* Fetches the description @fail (a warm-up call) left into @buf. */
static void fetch_after(void (*fail)(int prof), char *buf)
{
	long ret;

	fail(0);
	/*
	 * Fault the buffer in now: a first write by copy_to_user() would
	 * put a page fault into the profiled fetch.
	 */
	memset(buf, 1, DESC_SIZE);
	ret = marked_syscall(SYS_prctl, PR_GET_ERR_DESC, (long)buf, DESC_SIZE, 0, 0);
	if (ret <= 0)
		die("fetch", ret);
}

/* The fetch of the description a sigtrap failure left: no values. */
static void c_fetch(int prof)
{
	fetch_after(c_fail_sigtrap, ARG(fetch));
}

/* The same after attr.size=1: two values (size and kernel_size). */
static void c_fetch_size1(int prof)
{
	fetch_after(c_fail_size1, ARG(fetch_size1));
}

static void c_openat2(int prof)
{
	struct open_how *how = ARG(openat2);
	long fd;

	kreq_how(how, 0);
	fd = marked_syscall(SYS_openat2, AT_FDCWD, (long)"/", (long)how, sizeof(*how), 0);
	ok("openat2", fd);
	close(fd);
}

static void c_close_openat2(int prof)
{
	struct open_how how;
	long fd;

	kreq_how(&how, 0);
	fd = syscall(SYS_openat2, AT_FDCWD, "/", &how, sizeof(how));
	ok("openat2", fd);
	want("close", marked_syscall(SYS_close, fd, (long)ARG(close_openat2), 0, 0, 0), 0);
}

static void c_fail_openat2(int prof)
{
	struct open_how *how = ARG(fail_openat2);

	kreq_how(how, 1);
	want("openat2 unknown flag", marked_syscall(SYS_openat2, AT_FDCWD, (long)"/",
						    (long)how, sizeof(*how), 0), -EINVAL);
}

/* SCHED_BATCH (3) or SCHED_OTHER (0), at nice 0. */
static void policy(unsigned int p)
{
	struct sched_attr attr;

	kreq_sched(&attr, 0);
	attr.sched_policy = p;
	if (syscall(SYS_sched_setattr, 0, &attr, 0))
		die("sched_setattr", -errno);
}

/*
 * The parent's clone3(). The child inherits SCHED_BATCH, which does not
 * preempt at wake-up: else the child could take the CPU on the parent's
 * way out, and the trace would end in the child's return to user space
 * (at the same address) instead of the parent's.
 */
static void c_clone3(int prof)
{
	struct clone_args *args = ARG(clone3);
	long pid;

	policy(3);
	kreq_clone(args, 0);
	pid = marked_syscall(SYS_clone3, (long)args, sizeof(*args), 0, 0, 0);
	ok("clone3", pid);
	if (!pid)
		syscall(SYS_exit_group, 0);
	policy(0);
	if (waitpid(pid, NULL, 0) != pid)
		die("waitpid", -errno);
}

static void c_fail_clone3(int prof)
{
	struct clone_args *args = ARG(fail_clone3);

	kreq_clone(args, 1);
	want("clone3 unknown flag", marked_syscall(SYS_clone3, (long)args, sizeof(*args),
						   0, 0, 0), -EINVAL);
}

static void c_sched_setattr(int prof)
{
	struct sched_attr *attr = ARG(sched_setattr);

	kreq_sched(attr, 0);
	want("sched_setattr", marked_syscall(SYS_sched_setattr, 0, (long)attr, 0, 0, 0), 0);
}

static void c_fail_sched_setattr(int prof)
{
	struct sched_attr *attr = ARG(fail_sched_setattr);

	kreq_sched(attr, 1);
	want("sched_setattr unknown flag",
	     marked_syscall(SYS_sched_setattr, 0, (long)attr, 0, 0, 0), -EINVAL);
}

static void c_mount_setattr(int prof)
{
	struct mount_attr *attr = ARG(mount_setattr);

	kreq_mattr(attr, 0);
	want("mount_setattr", marked_syscall(SYS_mount_setattr, AT_FDCWD,
					     (long)KREQ_SETATTR_DIR, 0, (long)attr,
					     sizeof(*attr)), 0);
}

static void c_fail_mount_setattr(int prof)
{
	struct mount_attr *attr = ARG(fail_mount_setattr);

	kreq_mattr(attr, 1);
	want("mount_setattr unknown attr_set bit",
	     marked_syscall(SYS_mount_setattr, AT_FDCWD, (long)KREQ_SETATTR_DIR, 0,
			    (long)attr, sizeof(*attr)), -EINVAL);
}

static void c_io_uring_setup(int prof)
{
	struct io_uring_params *p = ARG(io_uring_setup);
	long fd;

	kreq_uring(p, 0);
	fd = marked_syscall(SYS_io_uring_setup, 1, (long)p, 0, 0, 0);
	ok("io_uring_setup", fd);
	close(fd);
}

static void c_close_io_uring(int prof)
{
	struct io_uring_params p;
	long fd;

	kreq_uring(&p, 0);
	fd = syscall(SYS_io_uring_setup, 1, &p);
	ok("io_uring_setup", fd);
	want("close io_uring", marked_syscall(SYS_close, fd, (long)ARG(close_io_uring),
					      0, 0, 0), 0);
}

static void c_fail_io_uring_setup(int prof)
{
	struct io_uring_params *p = ARG(fail_io_uring_setup);

	kreq_uring(p, 1);
	want("io_uring_setup unknown flag",
	     marked_syscall(SYS_io_uring_setup, 1, (long)p, 0, 0, 0), -EINVAL);
}

static long do_mount(char *data)
{
	return marked_syscall(SYS_mount, (long)"none", (long)KREQ_MOUNT_DIR,
			      (long)"tmpfs", 0, (long)data);
}

static void c_mount(int prof)
{
	char *data = ARG(mount);

	kreq_mount_data(data, 0);
	want("mount", do_mount(data), 0);
	if (umount2(KREQ_MOUNT_DIR, 0))
		die("umount2", -errno);
}

static void c_umount(int prof)
{
	char data[4096];

	kreq_mount_data(data, 0);
	if (mount("none", KREQ_MOUNT_DIR, "tmpfs", 0, data))
		die("mount", -errno);
	want("umount2", marked_syscall(SYS_umount2, (long)KREQ_MOUNT_DIR, 0,
				       (long)ARG(umount), 0, 0), 0);
}

static void c_fail_mount(int prof)
{
	char *data = ARG(fail_mount);

	kreq_mount_data(data, 1);
	want("mount size=bogus", do_mount(data), -EINVAL);
}

static void s_fmt(int prof, int adjusted)
{
	struct v4l2_format *f = adjusted ? ARG(s_fmt_adjusted) : ARG(s_fmt);

	kreq_fmt(f, &fmt_cur, adjusted);
	want("VIDIOC_S_FMT", marked_syscall(SYS_ioctl, vivid_fd, VIDIOC_S_FMT, (long)f,
					    0, 0), 0);
	if (f->fmt.pix.pixelformat != fmt_cur.fmt.pix.pixelformat)
		die("VIDIOC_S_FMT's pixelformat", f->fmt.pix.pixelformat);
}

static void c_s_fmt(int prof)
{
	s_fmt(prof, 0);
}

static void c_s_fmt_adjusted(int prof)
{
	s_fmt(prof, 1);
}

static const struct kcase {
	const char *name;
	void (*run)(int prof);
	unsigned int success:1;		/* runs with nothing pending */
	unsigned int patched_only:1;
	unsigned int mounts:1;		/* needs kreq_mounts() */
	unsigned int vivid:1;		/* needs vivid's capture node */
} kcases[] = {
	{ "getppid", c_getppid, 1 },
	{ "fail_size1", c_fail_size1 },
	{ "fail_sigtrap", c_fail_sigtrap },
	{ "fetch", c_fetch, .patched_only = 1 },
	{ "fetch_size1", c_fetch_size1, .patched_only = 1 },
	{ "openat2", c_openat2, 1 },
	{ "close_openat2", c_close_openat2, 1 },
	{ "fail_openat2", c_fail_openat2 },
	{ "clone3", c_clone3, 1 },
	{ "fail_clone3", c_fail_clone3 },
	{ "sched_setattr", c_sched_setattr, 1 },
	{ "fail_sched_setattr", c_fail_sched_setattr },
	{ "mount_setattr", c_mount_setattr, 1, .mounts = 1 },
	{ "fail_mount_setattr", c_fail_mount_setattr, .mounts = 1 },
	{ "io_uring_setup", c_io_uring_setup, 1 },
	{ "close_io_uring", c_close_io_uring, 1 },
	{ "fail_io_uring_setup", c_fail_io_uring_setup },
	{ "mount", c_mount, 1, .mounts = 1 },
	{ "umount", c_umount, 1, .mounts = 1 },
	{ "fail_mount", c_fail_mount, .mounts = 1 },
	{ "s_fmt", c_s_fmt, 1, .vivid = 1 },
	{ "s_fmt_adjusted", c_s_fmt_adjusted, 1, .vivid = 1 },
};

/* Forget whatever is pending, a note too. */
static void drain(void)
{
	char buf[DESC_SIZE];

	syscall(SYS_prctl, PR_GET_ERR_DESC, buf, sizeof(buf), PR_ERR_DESC_NOTES, 0);
}

static void one_round(const struct kcase **run, int n, int prof)
{
	int i;

	for (i = 0; i < n; i++) {
		if (run[i]->success)
			drain();
		run[i]->run(prof);
	}
}

/* The console log level: 1 keeps a refused mount's words off the console. */
static void quiet_console(void)
{
	int fd = open("/proc/sys/kernel/printk", O_WRONLY);

	if (fd < 0 || write(fd, "1\n", 2) != 2)
		die("console log level", -errno);
	close(fd);
}

int main(int argc, char **argv)
{
	const struct kcase *run[sizeof(kcases) / sizeof(kcases[0])];
	int reps = argc > 1 ? atoi(argv[1]) : 3;
	int mounts = 0, vivid = 0, fetch = 0, n = 0, i, j;

	kreq_no_aslr(argv);
	patched = marked_syscall(SYS_prctl, PR_GET_ERR_DESC, 0, 0, 0, 0) != -EINVAL;
	/*
	 * Descriptions are opt-in: without it the failures would record
	 * nothing and there would be nothing to fetch. Not through
	 * marked_syscall(), which only the calls of the cases use.
	 */
	if (patched && (err_desc_enable() || err_desc_enabled() != 1))
		die("enabling descriptions", -errno);
	/*
	 * Mapped on both kernels, though only the patched one fetches: a
	 * fork copies the page tables, which must hold the same pages.
	 */
	memset(warm_fetch, 1, sizeof(warm_fetch));
	memset(kprofile_fetch, 1, sizeof(kprofile_fetch));
	memset(warm_fetch_size1, 1, sizeof(warm_fetch_size1));
	memset(kprofile_fetch_size1, 1, sizeof(kprofile_fetch_size1));
	for (i = 2; i < argc; i++) {
		for (j = 0; j < (int)(sizeof(kcases) / sizeof(kcases[0])); j++)
			if (!strcmp(argv[i], kcases[j].name))
				break;
		if (j == sizeof(kcases) / sizeof(kcases[0]))
			die(argv[i], -EINVAL);
		if (kcases[j].patched_only && !patched)
			continue;
		fetch |= kcases[j].run == c_fetch ? 1 :
			 kcases[j].run == c_fetch_size1 ? 2 : 0;
		mounts |= kcases[j].mounts;
		vivid |= kcases[j].vivid;
		run[n++] = &kcases[j];
	}
	quiet_console();
	if (mounts && kreq_mounts())
		die("mounts", -1);
	if (vivid) {
		if (kreq_load_vivid())
			die("modprobe vivid", -1);
		vivid_fd = kreq_vivid_capture(&fmt_cur);
		if (vivid_fd < 0)
			die("vivid", -1);
	}
	printf("kprofile kernel=%s reps=%d warmup=%d cases=%d\n",
	       patched ? "patched" : "unpatched", reps, WARMUP, n);

	for (i = 0; i < WARMUP; i++)
		one_round(run, n, 0);
	/* Nothing but the profiled calls in these rounds: print afterwards. */
	for (i = 0; i < reps; i++)
		one_round(run, n, 1);
	if (fetch & 1)
		printf("kprofile desc=%s\n", kprofile_fetch);
	if (fetch & 2)
		printf("kprofile desc_size1=%s\n", kprofile_fetch_size1);
	printf("kprofile done\n");
	return 0;
}

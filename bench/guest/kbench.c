// SPDX-License-Identifier: GPL-2.0
/*
 * kbench: the kernel-side cost of extended errors, run as PID 1 in a guest
 * booted by kernel/vm-run --icount. Under -icount shift=0 the guest clock
 * advances 1 ns per guest instruction, so CLOCK_MONOTONIC deltas are
 * instruction counts (deterministic; they include the user-space part of
 * each iteration and the loop itself, and the kernel entry/exit).
 *
 * For each case: WARMUP iterations, then REPS repetitions of N iterations
 * timed as a whole; prints the per-iteration value of every repetition
 * and their minimum:
 *
 *   kbench CASE min=<insns> reps=<r1>,<r2>,...
 *
 * Besides perf_event_open(), a success and a typical failure of each call
 * the series converted (bench/guest/kreq.h: openat2(), clone3(),
 * sched_setattr(), mount_setattr(), io_uring_setup(), mount(2), and
 * VIDIOC_S_FMT on vivid, loaded with modprobe), and on the patched kernel
 * what one more call of each left: "kbench desc_CASE JSON" after a
 * failure, "kbench left_CASE JSON|none" after a success (a note, or
 * nothing).
 *
 * Descriptions are opt-in per process: kbench enables them before its
 * first case, so that all of the above is measured in a process that
 * records them. One more case is the sigtrap failure in a process that
 * never asked (a program that does not use the interface),
 * "kbench not_enabled_fail_sigtrap". kbench cannot be that process:
 * libexterr's constructor, linked in with exterr_fetch(), enables it
 * before main(), and every process it could start inherits that. So
 * bench/run builds this file a second time without libexterr
 * (-DKBENCH_NO_LIBEXTERR), and that program runs first in the guest with
 * --not-enabled: it times the failure, checks that the kernel recorded
 * nothing, and execs kbench, which goes on in the same process.
 *
 * Usage: kbench [--quick]
 *        kbench --not-enabled KBENCH [--quick]   (built without libexterr)
 * On a kernel without PR_GET_ERR_DESC the fetch cases are skipped.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <exterr.h>

#include "../../kernel/tests/guest/err_desc.h"
#include "../../kernel/tests/guest/perf_sigtrap.h"
#include "kreq.h"

static int n_iter = 1000, n_reps = 7, n_warm = 100;
static char desc[4096];

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static long perf_open(struct perf_event_attr *attr)
{
	return syscall(SYS_perf_event_open, attr, 0, -1, -1, 0);
}

static struct perf_event_attr a_ok, a_sigtrap, a_size1, a_inhthr;

static void die(const char *what)
{
	printf("kbench FAIL %s (errno %d)\n", what, errno);
	exit(1);
}

/* The failing requests: each must fail with the errno it is meant to. */
static void fail_sigtrap(void)
{
	if (perf_open(&a_sigtrap) != -1 || errno != EINVAL)
		die("sigtrap");
}

static void fail_size1(void)
{
	a_size1.size = 1;	/* the kernel writes the expected size back */
	if (perf_open(&a_size1) != -1 || errno != E2BIG)
		die("size1");
}

static void fail_inhthr(void)
{
	if (perf_open(&a_inhthr) != -1 || errno != EINVAL)
		die("inherit_thread");
}

static void c_getppid(void)
{
	syscall(SYS_getppid);
}

static void c_open_close(void)
{
	long fd = perf_open(&a_ok);

	if (fd < 0)
		die("open");
	close(fd);
}

static void fetch(void)
{
	if (syscall(SYS_prctl, PR_GET_ERR_DESC, desc, sizeof(desc), 0, 0) <= 0)
		die("prctl(PR_GET_ERR_DESC)");
}

static void c_sigtrap(void) { fail_sigtrap(); }
static void c_size1(void) { fail_size1(); }
static void c_inhthr(void) { fail_inhthr(); }
static void c_sigtrap_fetch(void) { fail_sigtrap(); fetch(); }
static void c_size1_fetch(void) { fail_size1(); fetch(); }
static void c_inhthr_fetch(void) { fail_inhthr(); fetch(); }

static void c_sigtrap_fetch_parse(void)
{
#ifdef KBENCH_NO_LIBEXTERR
	die("exterr_fetch: built without libexterr");
#else
	struct exterr *err;

	fail_sigtrap();
	if (exterr_fetch(&err))
		die("exterr_fetch");
	exterr_free(err);
#endif
}

/* prctl(PR_GET_ERR_DESC) with nothing pending: the bare call, -ENODATA. */
static void c_prctl_nodata(void)
{
	if (syscall(SYS_prctl, PR_GET_ERR_DESC, desc, sizeof(desc), 0, 0) != -1 ||
	    errno != ENODATA)
		die("prctl ENODATA");
}

/*
 * With a description pending, prctl(NULL, 0) returns the size and
 * prctl(buf, 1) fails with ERANGE: both build the whole description
 * (allocation, JSON) but copy nothing and leave it pending, so they
 * repeat without a new failure and split the fetch into its parts.
 */
static void c_size_query(void)
{
	if (syscall(SYS_prctl, PR_GET_ERR_DESC, NULL, 0, 0, 0) <= 0)
		die("prctl(PR_GET_ERR_DESC, NULL, 0)");
}

static void c_erange(void)
{
	if (syscall(SYS_prctl, PR_GET_ERR_DESC, desc, 1, 0, 0) != -1 ||
	    errno != ERANGE)
		die("prctl ERANGE");
}

/*
 * The converted system calls (kreq.h): a success that repeats, and a
 * typical failure, each checked for its result.
 */
static struct open_how how_ok, how_bad;
static struct clone_args cargs_ok, cargs_bad;
static struct sched_attr sattr_ok, sattr_bad;
static struct mount_attr mattr_ok, mattr_bad;
static struct io_uring_params params_ok, params_bad;
static char mdata_ok[4096], mdata_bad[4096];
static struct v4l2_format fmt_cur, fmt;
static int vivid_fd = -1;

static void c_openat2_close(void)
{
	long fd;

	kreq_how(&how_ok, 0);
	fd = syscall(SYS_openat2, AT_FDCWD, "/", &how_ok, sizeof(how_ok));
	if (fd < 0)
		die("openat2");
	close(fd);
}

static void c_fail_openat2(void)
{
	kreq_how(&how_bad, 1);
	if (syscall(SYS_openat2, AT_FDCWD, "/", &how_bad, sizeof(how_bad)) != -1 ||
	    errno != EINVAL)
		die("openat2 unknown flag");
}

/* clone3() as fork(), and wait4() for the child, which exits at once. */
static void c_clone3_wait(void)
{
	long pid;

	kreq_clone(&cargs_ok, 0);
	pid = syscall(SYS_clone3, &cargs_ok, sizeof(cargs_ok));
	if (pid < 0)
		die("clone3");
	if (!pid)
		syscall(SYS_exit_group, 0);
	if (syscall(SYS_wait4, pid, NULL, 0, NULL) != pid)
		die("wait4");
}

static void c_fail_clone3(void)
{
	kreq_clone(&cargs_bad, 1);
	if (syscall(SYS_clone3, &cargs_bad, sizeof(cargs_bad)) != -1 || errno != EINVAL)
		die("clone3 unknown flag");
}

static void c_sched_setattr(void)
{
	kreq_sched(&sattr_ok, 0);
	if (syscall(SYS_sched_setattr, 0, &sattr_ok, 0))
		die("sched_setattr");
}

static void c_fail_sched_setattr(void)
{
	kreq_sched(&sattr_bad, 1);
	if (syscall(SYS_sched_setattr, 0, &sattr_bad, 0) != -1 || errno != EINVAL)
		die("sched_setattr unknown flag");
}

static void c_mount_setattr(void)
{
	kreq_mattr(&mattr_ok, 0);
	if (syscall(SYS_mount_setattr, AT_FDCWD, KREQ_SETATTR_DIR, 0, &mattr_ok,
		    sizeof(mattr_ok)))
		die("mount_setattr");
}

static void c_fail_mount_setattr(void)
{
	kreq_mattr(&mattr_bad, 1);
	if (syscall(SYS_mount_setattr, AT_FDCWD, KREQ_SETATTR_DIR, 0, &mattr_bad,
		    sizeof(mattr_bad)) != -1 || errno != EINVAL)
		die("mount_setattr unknown attr_set bit");
}

static void c_io_uring_setup_close(void)
{
	long fd;

	kreq_uring(&params_ok, 0);
	fd = syscall(SYS_io_uring_setup, 1, &params_ok);
	if (fd < 0)
		die("io_uring_setup");
	close(fd);
}

static void c_fail_io_uring_setup(void)
{
	kreq_uring(&params_bad, 1);
	if (syscall(SYS_io_uring_setup, 1, &params_bad) != -1 || errno != EINVAL)
		die("io_uring_setup unknown flag");
}

static void c_mount_umount(void)
{
	kreq_mount_data(mdata_ok, 0);
	if (syscall(SYS_mount, "none", KREQ_MOUNT_DIR, "tmpfs", 0, mdata_ok))
		die("mount");
	if (syscall(SYS_umount2, KREQ_MOUNT_DIR, 0))
		die("umount2");
}

static void c_fail_mount(void)
{
	kreq_mount_data(mdata_bad, 1);
	if (syscall(SYS_mount, "none", KREQ_MOUNT_DIR, "tmpfs", 0, mdata_bad) != -1 ||
	    errno != EINVAL)
		die("mount size=bogus");
}

static void c_s_fmt(void)
{
	kreq_fmt(&fmt, &fmt_cur, 0);
	if (ioctl(vivid_fd, VIDIOC_S_FMT, &fmt) ||
	    fmt.fmt.pix.pixelformat != fmt_cur.fmt.pix.pixelformat ||
	    fmt.fmt.pix.width != fmt_cur.fmt.pix.width)
		die("VIDIOC_S_FMT");
}

static void c_s_fmt_adjusted(void)
{
	kreq_fmt(&fmt, &fmt_cur, 1);
	if (ioctl(vivid_fd, VIDIOC_S_FMT, &fmt) ||
	    fmt.fmt.pix.pixelformat != V4L2_PIX_FMT_YUYV)
		die("VIDIOC_S_FMT, unknown pixelformat");
}

/*
 * Forget whatever is pending, a note too: a description kept from an
 * earlier call keeps the exit work armed, which would count in a success.
 */
static void drain(void)
{
	syscall(SYS_prctl, PR_GET_ERR_DESC, desc, sizeof(desc), PR_ERR_DESC_NOTES, 0);
}

/* What the last call left, errors and notes: "none" for nothing. */
static void print_left(const char *what, const char *name)
{
	long n = syscall(SYS_prctl, PR_GET_ERR_DESC, desc, sizeof(desc),
			 PR_ERR_DESC_NOTES, 0);

	printf("kbench %s_%s %s\n", what, name, n > 0 ? desc : "none");
}

/* Pin to CPU 0 (1) or let run anywhere (0): see the clone3 case. */
static void pin(int on)
{
	unsigned long mask = on ? 1 : ~0UL;

	syscall(SYS_sched_setaffinity, 0, sizeof(mask), &mask);
}

static void bench(const char *name, void (*fn)(void), int iters);

/* A success of each converted call, and a failure. */
static void bench_converted(int patched)
{
	static const struct {
		const char *name;
		void (*fn)(void);
		int div;	/* of the iterations: the long ones run fewer */
		int fails;
	} cases[] = {
		/*
		 * First, while the slabs are as the boot left them: an
		 * ioctl() with an argument above 128 bytes makes
		 * video_usercopy() kmalloc() and kfree() a copy, whose cost
		 * depends on the state of the kmalloc-256 slabs (SLUB_TINY):
		 * after the cases below it was 1,000 instructions more on
		 * one kernel in some runs.
		 */
		{ "s_fmt", c_s_fmt, 4, 0 },
		{ "s_fmt_adjusted", c_s_fmt_adjusted, 4, 0 },
		{ "openat2_close", c_openat2_close, 4, 0 },
		{ "fail_openat2_flags", c_fail_openat2, 1, 1 },
		{ "clone3_wait", c_clone3_wait, 20, 0 },
		{ "fail_clone3_flags", c_fail_clone3, 1, 1 },
		{ "sched_setattr", c_sched_setattr, 1, 0 },
		{ "fail_sched_setattr_flags", c_fail_sched_setattr, 1, 1 },
		{ "mount_setattr", c_mount_setattr, 4, 0 },
		{ "fail_mount_setattr_attr_set", c_fail_mount_setattr, 1, 1 },
		{ "io_uring_setup_close", c_io_uring_setup_close, 20, 0 },
		{ "fail_io_uring_setup_flags", c_fail_io_uring_setup, 1, 1 },
		{ "mount_umount", c_mount_umount, 20, 0 },
		{ "fail_mount_option", c_fail_mount, 4, 1 },
	};
	unsigned int i;
	int fd;

	/*
	 * The refused mount's words go to the kernel log at KERN_ERR, and
	 * from there to the serial console, which would dwarf the call and
	 * break this program's lines: console log level 1 keeps them in the
	 * log buffer only, on both kernels.
	 */
	fd = open("/proc/sys/kernel/printk", O_WRONLY);
	if (fd < 0 || write(fd, "1\n", 2) != 2)
		die("console log level");
	close(fd);
	if (kreq_mounts() || kreq_load_vivid())
		die("setup");
	vivid_fd = kreq_vivid_capture(&fmt_cur);
	if (vivid_fd < 0)
		die("vivid");
	printf("kbench vivid_format %ux%u %.4s\n", fmt_cur.fmt.pix.width,
	       fmt_cur.fmt.pix.height, (char *)&fmt_cur.fmt.pix.pixelformat);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int iters = n_iter / cases[i].div;

		drain();
		/*
		 * The child of clone3() on the parent's CPU: it runs while
		 * the parent waits, and the other CPU stays idle, so no
		 * wake-up depends on when an idle CPU notices.
		 */
		if (cases[i].fn == c_clone3_wait)
			pin(1);
		bench(cases[i].name, cases[i].fn, iters ? iters : 1);
		if (cases[i].fn == c_clone3_wait)
			pin(0);
		/* What one more call leaves: its description, or a note. */
		if (patched) {
			drain();
			cases[i].fn();
			print_left(cases[i].fails ? "desc" : "left", cases[i].name);
		}
	}
	close(vivid_fd);
}

/* Leave the description of @fail pending, and print its length. */
static void pend(const char *name, void (*fail)(void))
{
	long size;

	syscall(SYS_prctl, PR_GET_ERR_DESC, desc, sizeof(desc), 0, 0);
	fail();
	size = syscall(SYS_prctl, PR_GET_ERR_DESC, NULL, 0, 0, 0);
	if (size <= 0)
		die("size query");
	printf("kbench desc_len_%s=%ld\n", name, size - 1);
}

static void bench(const char *name, void (*fn)(void), int iters)
{
	long long best = -1, t;
	int r, i;

	for (i = 0; i < n_warm; i++)
		fn();
	printf("kbench %s", name);
	fflush(stdout);
	char reps[1024] = "";
	size_t off = 0;
	double bestd = 0;

	for (r = 0; r < n_reps; r++) {
		t = now_ns();
		for (i = 0; i < iters; i++)
			fn();
		t = now_ns() - t;
		off += snprintf(reps + off, sizeof(reps) - off, "%s%.1f",
				r ? "," : "", (double)t / iters);
		if (best < 0 || t < best) {
			best = t;
			bestd = (double)t / iters;
		}
	}
	printf(" min=%.1f reps=%s\n", bestd, reps);
}

/*
 * The boot line in which the kernel reports the memory its index of sites
 * takes ("exterr: N sites indexed in M bytes"); a site's description is
 * rendered at its first fetch, and its size is the fetch's business.
 */
static void print_site_index(void)
{
	static char log[1 << 17];
	unsigned long sites, bytes;
	int n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, log, sizeof(log) - 1);
	char *p;

	if (n <= 0)
		return;
	log[n] = '\0';
	for (p = log; (p = strstr(p, "exterr: ")); p++) {
		if (sscanf(p, "exterr: %lu sites indexed in %lu bytes",
			   &sites, &bytes) == 2) {
			printf("kbench site-index sites=%lu bytes=%lu\n", sites,
			       bytes);
			return;
		}
	}
}

/*
 * kbench --not-enabled KBENCH [--quick]: the sigtrap failure in this
 * process, which has not enabled descriptions, then KBENCH [--quick] in
 * its place. Only a build without libexterr can run it (see the top).
 */
static void not_enabled_then(int patched, char **argv)
{
	if (patched && err_desc_enabled() != 0)
		die("--not-enabled: descriptions enabled already");
	bench("not_enabled_fail_sigtrap", c_sigtrap, n_iter);
	/* A fork: copy_process() asks whether the creator records. */
	bench("not_enabled_clone3_wait", c_clone3_wait,
	      n_iter / 20 ? n_iter / 20 : 1);
	/* What the case measured: a failure the kernel recorded nothing for. */
	if (patched &&
	    (syscall(SYS_prctl, PR_GET_ERR_DESC, NULL, 0, 0, 0) != -1 ||
	     errno != ENODATA))
		die("--not-enabled: a description was recorded");
	fflush(stdout);
	execv(argv[2], argv + 2);
	die(argv[2]);
}

int main(int argc, char **argv)
{
	int not_enabled = argc > 2 && !strcmp(argv[1], "--not-enabled");
	int patched;

	kreq_no_aslr(argv);
	if (argc > 1 && !strcmp(argv[argc - 1], "--quick")) {
		n_iter = 100;
		n_reps = 3;
		n_warm = 10;
	}
	perf_sw_clock_attr(&a_ok);
	perf_sw_clock_attr(&a_sigtrap);
	a_sigtrap.sigtrap = 1;		/* without remove_on_exec: EINVAL */
	perf_sw_clock_attr(&a_size1);
	perf_sw_clock_attr(&a_inhthr);
	a_inhthr.inherit_thread = 1;	/* without inherit: EINVAL */

	/* Mapped on both kernels, though only the patched one writes it. */
	memset(desc, 0, sizeof(desc));
	patched = !(syscall(SYS_prctl, PR_GET_ERR_DESC, NULL, 0, 0, 0) == -1 &&
		    errno == EINVAL);
	if (not_enabled)
		not_enabled_then(patched, argv);
	/*
	 * Every case below in a process that records descriptions. The
	 * constructor of libexterr has asked already; what kbench measures
	 * does not depend on the library doing so.
	 */
	if (patched && (err_desc_enable() || err_desc_enabled() != 1))
		die("enabling descriptions");
	printf("kbench kernel=%s iters=%d reps=%d warmup=%d\n",
	       patched ? "patched" : "unpatched", n_iter, n_reps, n_warm);
	print_site_index();

	/* A clock read pair alone: the per-repetition overhead. */
	{
		long long t0 = now_ns(), t1 = now_ns();

		printf("kbench clock_pair=%lld\n", t1 - t0);
	}
	bench("getppid", c_getppid, n_iter);
	bench("open_close", c_open_close, n_iter / 4 ? n_iter / 4 : 1);
	bench("fail_sigtrap", c_sigtrap, n_iter);
	bench("fail_size1", c_size1, n_iter);
	bench("fail_inherit_thread", c_inhthr, n_iter);
	/*
	 * Before what only the patched kernel runs (libexterr's fetch and
	 * parse, with malloc()): clone3() copies the page tables of the
	 * process, which must map the same pages on both kernels.
	 */
	bench_converted(patched);
	if (patched) {
		/* Drain what the failures above left pending. */
		syscall(SYS_prctl, PR_GET_ERR_DESC, desc, sizeof(desc), 0, 0);
		bench("prctl_nodata", c_prctl_nodata, n_iter);
		bench("fail_fetch_sigtrap", c_sigtrap_fetch, n_iter);
		bench("fail_fetch_size1", c_size1_fetch, n_iter);
		bench("fail_fetch_inherit_thread", c_inhthr_fetch, n_iter);
		bench("fail_fetch_parse_sigtrap", c_sigtrap_fetch_parse, n_iter);
		pend("sigtrap", fail_sigtrap);
		bench("size_query_sigtrap", c_size_query, n_iter);
		bench("erange_sigtrap", c_erange, n_iter);
		pend("size1", fail_size1);
		bench("size_query_size1", c_size_query, n_iter);
		pend("inherit_thread", fail_inhthr);
		bench("size_query_inherit_thread", c_size_query, n_iter);
		if (syscall(SYS_prctl, PR_GET_ERR_DESC, desc, sizeof(desc), 0, 0) < 0 &&
		    errno != ENODATA)
			die("final prctl");
		fail_sigtrap();
		if (syscall(SYS_prctl, PR_GET_ERR_DESC, desc, sizeof(desc), 0, 0) > 0)
			printf("kbench desc %s\n", desc);
	}
	printf("kbench done\n");
	return 0;
}

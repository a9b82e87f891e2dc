// SPDX-License-Identifier: GPL-2.0
/*
 * io_uring executes requests for a task outside that task's system calls:
 * in io-wq workers, in the SQPOLL thread, or inline in io_uring_enter().
 * A request that fails at a described site (IORING_OP_READ of
 * test_exterr.ko's debugfs file, whose read() fails with a described
 * EINVAL) reports the site's errno in its CQE, and its description must
 * reach no system call of the submitter: the workers record nothing (PF_IO_WORKER), and a recording
 * made inline belongs to io_uring_enter(), which succeeded, so it is
 * dropped with the call. Raw io_uring system calls, no liburing.
 *
 * Each way runs the same sequence:
 *
 *   1. write("enoent") fails, described: the thread's pending description.
 *   2. The request is submitted and reaped: io_uring_enter() succeeds and
 *      the CQE's res is -EINVAL, the site's errno.
 *   3. PR_GET_ERR_DESC: what the rules say for the thread's last failure.
 *      Through a worker or the SQPOLL thread the thread recorded nothing,
 *      so a successful io_uring_enter() keeps the write()'s description
 *      (case "enoent", syscall write). Inline, io_uring_enter() itself
 *      recorded the request's error and succeeded: like any error the
 *      kernel handled in a call that succeeded, nothing is described
 *      (ENODATA), and never the request's error.
 *   4. After a fresh described failure, a write() of one byte to an
 *      eventfd fails with EINVAL, the site's errno, undescribed:
 *      PR_GET_ERR_DESC must say ENODATA.
 *
 * Which check catches which wrong kernel:
 *   - a kernel that records in a worker or the SQPOLL thread on behalf of
 *     the submitter (into its task, or into the worker's and hands that
 *     out as the submitter's) replaces the pending "enoent" while
 *     io_uring_enter() runs, or after it: step 3 sees "read" or ENODATA
 *     instead of "enoent", or step 4 sees the "read" description
 *     attached to an eventfd write();
 *   - a kernel that reports the inline case, i.e. keeps the request's
 *     description as io_uring_enter()'s although that call succeeded:
 *     step 3 sees case "read" with the number of io_uring_enter();
 *   - a recording that outlives its call (made after the system call exit
 *     work, as task work runs on the way back to user space) replaces
 *     "enoent" and is then taken by the thread's next call: step 3 sees
 *     ENODATA (the next call succeeded and dropped it) or the request's
 *     description, or step 4 sees it attached to the eventfd write().
 *     The "task_work" case below is that one: the work task_work_run()
 *     runs records nothing, so the write()'s description is still the
 *     thread's after io_uring_enter().
 * A worker recording into its own task_struct is not visible from user
 * space at all (a worker never returns there); that create_io_thread()
 * marks a worker's state so that ext_err_record() skips it is what keeps
 * such a record from existing.
 *
 * The test also checks that each way was taken: no "iou-wrk-" thread after
 * the inline request (this process has none until a request is punted),
 * one after the punted ones, an "iou-sqp-" thread with SQPOLL.
 *
 * Usage: iowq_exterr [task_work]. With "task_work", only the request
 * linked after a NOP, which io_uring issues from task work when the
 * submitter returns to user space; by default, every case.
 * Exit status 0 when every check holds; the first failure is printed.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/io_uring.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "check.h"
#include "err_desc.h"
#include "test_module.h"

#define RAISE "/sys/kernel/debug/test_exterr/raise"

struct ring {
	int fd;
	unsigned int *sq_head, *sq_tail, *sq_mask, *sq_flags, *sq_array;
	unsigned int *cq_head, *cq_tail, *cq_mask;
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqes;
};

static char desc[4096];

/* The pending description, or NULL with errno set. */
static const char *fetch(const char *when)
{
	long n = prctl(PR_GET_ERR_DESC, desc, sizeof(desc), 0, 0);

	if (n < 0) {
		printf("%s: PR_GET_ERR_DESC: %s\n", when, strerror(errno));
		return NULL;
	}
	printf("%s: %s\n", when, desc);
	return desc;
}

static int ring_init(struct ring *r, unsigned int flags)
{
	struct io_uring_params p;
	size_t sq_size, cq_size;
	char *sq, *cq;

	memset(&p, 0, sizeof(p));
	p.flags = flags;
	/* Long enough that the SQPOLL thread is awake for our request. */
	p.sq_thread_idle = 1000;
	r->fd = syscall(__NR_io_uring_setup, 4, &p);
	if (r->fd < 0)
		return -errno;
	sq_size = p.sq_off.array + p.sq_entries * sizeof(unsigned int);
	cq_size = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	if (p.features & IORING_FEAT_SINGLE_MMAP && cq_size > sq_size)
		sq_size = cq_size;
	sq = mmap(NULL, sq_size, PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_POPULATE, r->fd, IORING_OFF_SQ_RING);
	if (sq == MAP_FAILED)
		return -errno;
	cq = sq;
	if (!(p.features & IORING_FEAT_SINGLE_MMAP)) {
		cq = mmap(NULL, cq_size, PROT_READ | PROT_WRITE,
			  MAP_SHARED | MAP_POPULATE, r->fd, IORING_OFF_CQ_RING);
		if (cq == MAP_FAILED)
			return -errno;
	}
	r->sqes = mmap(NULL, p.sq_entries * sizeof(struct io_uring_sqe),
		       PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
		       r->fd, IORING_OFF_SQES);
	if (r->sqes == MAP_FAILED)
		return -errno;
	r->sq_head = (unsigned int *)(sq + p.sq_off.head);
	r->sq_tail = (unsigned int *)(sq + p.sq_off.tail);
	r->sq_mask = (unsigned int *)(sq + p.sq_off.ring_mask);
	r->sq_flags = (unsigned int *)(sq + p.sq_off.flags);
	r->sq_array = (unsigned int *)(sq + p.sq_off.array);
	r->cq_head = (unsigned int *)(cq + p.cq_off.head);
	r->cq_tail = (unsigned int *)(cq + p.cq_off.tail);
	r->cq_mask = (unsigned int *)(cq + p.cq_off.ring_mask);
	r->cqes = (struct io_uring_cqe *)(cq + p.cq_off.cqes);
	return 0;
}

static char buf[64];

/* Queue one SQE (this program is the only producer). */
static void queue(struct ring *r, __u8 opcode, int fd, __u8 sqe_flags,
		  __u64 user_data)
{
	unsigned int tail = *r->sq_tail, idx = tail & *r->sq_mask;
	struct io_uring_sqe *sqe = &r->sqes[idx];

	memset(sqe, 0, sizeof(*sqe));
	sqe->opcode = opcode;
	sqe->fd = fd;
	sqe->flags = sqe_flags;
	sqe->user_data = user_data;
	if (opcode == IORING_OP_READ) {
		sqe->addr = (unsigned long)buf;
		sqe->len = sizeof(buf);
	}
	r->sq_array[idx] = idx;
	__atomic_store_n(r->sq_tail, tail + 1, __ATOMIC_RELEASE);
}

static long enter(struct ring *r, unsigned int to_submit,
		  unsigned int min_complete, unsigned int flags)
{
	return syscall(__NR_io_uring_enter, r->fd, to_submit, min_complete,
		       flags, NULL, 0);
}

/* The res of the CQE with @user_data among those completed, or 1. */
static int reap(struct ring *r, __u64 user_data)
{
	unsigned int head = *r->cq_head;
	int res = 1;

	while (head != __atomic_load_n(r->cq_tail, __ATOMIC_ACQUIRE)) {
		struct io_uring_cqe *cqe = &r->cqes[head & *r->cq_mask];

		if (cqe->user_data == user_data)
			res = cqe->res;
		head++;
	}
	__atomic_store_n(r->cq_head, head, __ATOMIC_RELEASE);
	return res;
}

/* How many threads of this process have a name starting with @prefix. */
static int threads_named(const char *prefix)
{
	DIR *dir = opendir("/proc/self/task");
	struct dirent *de;
	int n = 0;

	if (!dir)
		return -1;
	while ((de = readdir(dir))) {
		char path[300], comm[32] = "";
		FILE *f;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm",
			 de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f) &&
		    !strncmp(comm, prefix, strlen(prefix)))
			n++;
		fclose(f);
	}
	closedir(dir);
	return n;
}

static int raise_fd, raise_nonblock_fd, efd;

/* Step 1: the earlier failure, left pending. */
static int fail_described_write(void)
{
	CHECK(write(raise_fd, "enoent", 6) == -1 && errno == ENOENT);
	return 0;
}

/*
 * Steps 3 and 4. @earlier_kept: whether step 3 wants the write()'s
 * description (the request ran outside the thread), else ENODATA.
 */
static int check_after(const char *way, int earlier_kept)
{
	char want_nr[32];
	const char *d;
	char when[64];

	snprintf(when, sizeof(when), "%s, after io_uring_enter()", way);
	d = fetch(when);
	/* Whatever the rest, never the request's error, never this call. */
	CHECK(!d || !strstr(d, "\"case\":\"read\""));
	snprintf(want_nr, sizeof(want_nr), "\"syscall\":%d,",
		 __NR_io_uring_enter);
	CHECK(!d || !strstr(d, want_nr));
	if (earlier_kept) {
		snprintf(want_nr, sizeof(want_nr), "\"syscall\":%d,", SYS_write);
		CHECK(d && strstr(d, "\"case\":\"enoent\""));
		CHECK(strstr(d, want_nr));
	} else {
		CHECK(!d && errno == ENODATA);
	}

	/*
	 * Step 4: the site's errno, undescribed, from a later call, with a
	 * description pending again so that the check can fail.
	 */
	CHECK(fail_described_write() == 0);
	CHECK(write(efd, "x", 1) == -1 && errno == EINVAL);
	snprintf(when, sizeof(when), "%s, after an eventfd write()", way);
	CHECK(!fetch(when) && errno == ENODATA);
	return 0;
}

/*
 * Submit a read of @fd with @sqe_flags and wait for it in the same
 * io_uring_enter(), which must succeed; the CQE must carry -EINVAL.
 */
static int request(struct ring *r, int fd, __u8 sqe_flags)
{
	queue(r, IORING_OP_READ, fd, sqe_flags, 1);
	CHECK(enter(r, 1, 1, IORING_ENTER_GETEVENTS) == 1);
	CHECK(reap(r, 1) == -EINVAL);
	return 0;
}

/*
 * (b) Inline: the file is O_NONBLOCK, so io_uring's nonblocking attempt
 * calls its ->read() in the submitter's io_uring_enter(). The test
 * module's file has no FMODE_NOWAIT; O_NONBLOCK alone lets io_uring try.
 * (A write() would not do: io_uring punts writes to regular files.)
 */
static int inline_request(void)
{
	struct ring r;

	CHECK(ring_init(&r, 0) == 0);
	CHECK(fail_described_write() == 0);
	CHECK(request(&r, raise_nonblock_fd, 0) == 0);
	/* Ran in this thread: no worker was ever needed. */
	CHECK(threads_named("iou-wrk-") == 0);
	CHECK(check_after("inline", 0) == 0);
	close(r.fd);
	return 0;
}

/*
 * (a) io-wq: with IOSQE_ASYNC the request goes to a worker at once;
 * without it, on a file that cannot do nonblocking reads, the first
 * attempt returns EAGAIN and io_uring punts it to a worker.
 */
static int worker_request(const char *way, int fd, __u8 sqe_flags)
{
	struct ring r;

	CHECK(ring_init(&r, 0) == 0);
	CHECK(fail_described_write() == 0);
	CHECK(request(&r, fd, sqe_flags) == 0);
	CHECK(threads_named("iou-wrk-") > 0);
	CHECK(check_after(way, 1) == 0);
	close(r.fd);
	return 0;
}

/* (c) SQPOLL: the ring's own thread submits, inline (O_NONBLOCK). */
static int sqpoll_request(void)
{
	struct ring r;
	int err = ring_init(&r, IORING_SETUP_SQPOLL);

	/* Only an unprivileged caller may be refused SQPOLL. */
	if (err == -EPERM && geteuid()) {
		printf("SKIP sqpoll: io_uring_setup: %s\n", strerror(-err));
		return 0;
	}
	CHECK(err == 0);
	CHECK(fail_described_write() == 0);
	queue(&r, IORING_OP_READ, raise_nonblock_fd, 0, 1);
	/* Submits nothing itself: wakes the thread if idle, waits for it. */
	CHECK(enter(&r, 1, 1, IORING_ENTER_GETEVENTS |
		    IORING_ENTER_SQ_WAKEUP) == 1);
	CHECK(reap(&r, 1) == -EINVAL);
	CHECK(threads_named("iou-sqp-") == 1);
	CHECK(check_after("sqpoll", 1) == 0);
	close(r.fd);
	return 0;
}

/*
 * A request linked after a NOP: the NOP completes in io_uring_enter(),
 * and io_uring queues the next request of the link as task work, which
 * runs in this thread on its way back to user space, after the system
 * call's exit work has attributed what io_uring_enter() recorded (the
 * call is made without GETEVENTS, so that it runs no task work itself).
 * The read is then issued inline (O_NONBLOCK) in this thread's context,
 * outside any system call.
 *
 * A kernel that keeps what task work records fails here: the thread's
 * next system call takes the recording for its own. Here that is an
 * eventfd write() failing with the site's errno, made right after
 * io_uring_enter() (reaping is memory access only), which would read the
 * read()'s description with io_uring_enter()'s number. A kernel that
 * drops what task work records drops the write()'s description with it;
 * task work records nothing, so the write()'s is still there, whole.
 */
static int task_work_request(void)
{
	struct ring r;

	CHECK(ring_init(&r, 0) == 0);
	CHECK(fail_described_write() == 0);
	queue(&r, IORING_OP_NOP, -1, IOSQE_IO_LINK, 2);
	queue(&r, IORING_OP_READ, raise_nonblock_fd, 0, 1);
	CHECK(enter(&r, 2, 0, 0) == 2);
	/* Both completed by now: the task work ran before we got here. */
	CHECK(reap(&r, 1) == -EINVAL);
	CHECK(check_after("task work", 1) == 0);
	CHECK(threads_named("iou-wrk-") == 0);
	close(r.fd);
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	/*
	 * First, so that the io-wq and SQPOLL threads are created in an
	 * enabled process: that they record nothing must then be the
	 * kernel's marking of them, not a missing opt-in.
	 */
	CHECK(err_desc_enable() == 0);
	CHECK(load_test_exterr() == 0);
	raise_fd = open(RAISE, O_RDWR);
	raise_nonblock_fd = open(RAISE, O_RDWR | O_NONBLOCK);
	efd = eventfd(0, 0);
	CHECK(raise_fd >= 0 && raise_nonblock_fd >= 0 && efd >= 0);

	if (argc > 1 && !strcmp(argv[1], "task_work")) {
		CHECK(task_work_request() == 0);
		printf("PASS task_work\n");
		return 0;
	}
	/* First: this process has no io-wq worker yet (none is made here). */
	CHECK(task_work_request() == 0);
	CHECK(inline_request() == 0);
	CHECK(worker_request("io-wq (IOSQE_ASYNC)", raise_nonblock_fd,
			     IOSQE_ASYNC) == 0);
	CHECK(worker_request("io-wq (punted)", raise_fd, 0) == 0);
	CHECK(sqpoll_request() == 0);
	printf("PASS\n");
	return 0;
}

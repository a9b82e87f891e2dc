/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The requests of the converted system calls that bench/guest/kbench
 * times and bench/guest/kprofile profiles, in one place so that both make
 * the same ones: for openat2(), clone3(), sched_setattr(),
 * mount_setattr(), io_uring_setup() (the uapi domain, patches 0033-0039)
 * and mount(2) (the fs domain, 0055-0057) a request that succeeds and can
 * repeat without anything accumulating, and one typical failure from the
 * selftests' tables (unknown bits in a flags member, a bad mount option);
 * for VIDIOC_S_FMT on vivid's capture node (0049) a format vivid takes as
 * it is and one it adjusts (an unknown pixelformat, replaced by YUYV:
 * one note).
 *
 * Each kreq_*() fills the argument in full, so a page the argument
 * lies in is written by user space right before the call: a fork earlier
 * in the program leaves the parent's pages write-protected, and the
 * kernel's own first write would otherwise take a page fault inside the
 * call that is measured.
 */
#ifndef KBENCH_KREQ_H
#define KBENCH_KREQ_H

#include <errno.h>
#include <fcntl.h>
#include <linux/io_uring.h>
#include <linux/openat2.h>
#include <linux/sched.h>
#include <linux/sched/types.h>
#include <linux/videodev2.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/personality.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* The bench's tmpfs mounts: one mount_setattr() changes, one mounted and unmounted. */
#define KREQ_SETATTR_DIR	"/kbench_setattr"
#define KREQ_MOUNT_DIR		"/kbench_mount"
/* mount(2)'s data: the option string, read by the kernel a page at a time. */
#define KREQ_MOUNT_OK		"size=1m"
#define KREQ_MOUNT_BAD		"size=bogus"

/* openat2(): open "/" read-only, and a flags member with an unknown bit. */
static inline void kreq_how(struct open_how *how, int bad)
{
	memset(how, 0, sizeof(*how));
	how->flags = bad ? 1ULL << 40 : O_RDONLY | O_DIRECTORY;
}

/*
 * clone3(): a plain fork (exit_signal SIGCHLD), and a flags member with
 * an unknown bit.
 */
static inline void kreq_clone(struct clone_args *args, int bad)
{
	memset(args, 0, sizeof(*args));
	args->exit_signal = SIGCHLD;
	if (bad)
		args->flags = 1ULL << 40;
}

/*
 * sched_setattr(0, attr, 0): SCHED_OTHER at nice 0, what the task has
 * (the scheduler returns early when nothing changes), and sched_flags
 * with an unknown bit.
 */
static inline void kreq_sched(struct sched_attr *attr, int bad)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->sched_policy = 0;		/* SCHED_OTHER */
	if (bad)
		attr->sched_flags = 1ULL << 40;
}

/*
 * mount_setattr(AT_FDCWD, KREQ_SETATTR_DIR, 0, attr, size): set nosuid,
 * which the mount keeps having (attr_set 0 would return before the struct
 * is checked), and attr_set with an unknown bit.
 */
static inline void kreq_mattr(struct mount_attr *attr, int bad)
{
	memset(attr, 0, sizeof(*attr));
	attr->attr_set = bad ? 0x400 : MOUNT_ATTR_NOSUID;
}

/* io_uring_setup(1, params): the smallest ring, and an unknown flag. */
static inline void kreq_uring(struct io_uring_params *p, int bad)
{
	memset(p, 0, sizeof(*p));
	if (bad)
		p->flags = 1U << 31;
}

/* mount(2)'s option string, in a buffer of a page or more. */
static inline void kreq_mount_data(char *page, int bad)
{
	memset(page, 0, 4096);
	strcpy(page, bad ? KREQ_MOUNT_BAD : KREQ_MOUNT_OK);
}

/*
 * VIDIOC_S_FMT: @cur (from VIDIOC_G_FMT) as it is, or with a pixelformat
 * vivid does not have.
 */
static inline void kreq_fmt(struct v4l2_format *f, const struct v4l2_format *cur,
			    int adjusted)
{
	*f = *cur;
	if (adjusted)
		f->fmt.pix.pixelformat = v4l2_fourcc('X', 'X', 'X', 'X');
}

/*
 * Run the program again without address space randomization, once: where
 * the stack and the mappings land decides how many page-table pages the
 * process has, and so what clone3() copies (a page-table page more or less
 * is 4,000 instructions of clear_page). Returns only if that fails.
 */
static inline void kreq_no_aslr(char **argv)
{
	int cur = personality(0xffffffff);

	if (cur == -1 || (cur & ADDR_NO_RANDOMIZE))
		return;
	if (personality(cur | ADDR_NO_RANDOMIZE) == -1)
		return;
	execv("/proc/self/exe", argv);
}

/* Both mounts' directories, and the tmpfs mount_setattr() changes. */
static inline int kreq_mounts(void)
{
	mkdir(KREQ_SETATTR_DIR, 0755);
	mkdir(KREQ_MOUNT_DIR, 0755);
	if (mount("none", KREQ_SETATTR_DIR, "tmpfs", 0, "size=1m")) {
		printf("kreq: mount tmpfs on %s: %m\n", KREQ_SETATTR_DIR);
		return -1;
	}
	return 0;
}

/* modprobe vivid, with its default parameters (as the V4L2 selftest). */
static inline int kreq_load_vivid(void)
{
	int status;
	pid_t pid;

	if (!access("/sys/module/vivid", F_OK))
		return 0;
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		execlp("modprobe", "modprobe", "-q", "vivid", (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		printf("kreq: modprobe vivid failed\n");
		return -1;
	}
	return 0;
}

/*
 * vivid's first video capture node, open, on input 0 (the webcam), and
 * its current format in @cur; -1 if there is none.
 */
static inline int kreq_vivid_capture(struct v4l2_format *cur)
{
	struct v4l2_capability cap;
	char path[32];
	int i, fd, input = 0;

	for (i = 0; i < 64; i++) {
		snprintf(path, sizeof(path), "/dev/video%d", i);
		fd = open(path, O_RDWR);
		if (fd < 0)
			continue;
		memset(&cap, 0, sizeof(cap));
		if (!ioctl(fd, VIDIOC_QUERYCAP, &cap) &&
		    !strcmp((char *)cap.driver, "vivid") &&
		    (cap.device_caps & V4L2_CAP_VIDEO_CAPTURE) &&
		    !ioctl(fd, VIDIOC_S_INPUT, &input)) {
			memset(cur, 0, sizeof(*cur));
			cur->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
			if (!ioctl(fd, VIDIOC_G_FMT, cur))
				return fd;
		}
		close(fd);
	}
	printf("kreq: no vivid capture node\n");
	return -1;
}

#endif /* KBENCH_KREQ_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vivid for guest programs that need no shell or modprobe: load
 * /modules/vivid.ko after the modules its .modinfo "depends=" names,
 * recursively (names there are the file names without .ko), then find
 * its video capture node. Needs _GNU_SOURCE (memmem()) before the first
 * include.
 */
#ifndef EXTERR_GUEST_VIVID_H
#define EXTERR_GUEST_VIVID_H

#include <errno.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Load /modules/@name.ko and what it depends on; 0 or an errno. */
static int vivid_load_module(const char *name, int depth)
{
	static const char key[] = "depends=";
	char path[256], deps[256], *buf, *p, *dep;
	struct stat st;
	int fd, ret = 0;

	if (depth > 8)
		return ELOOP;
	snprintf(path, sizeof(path), "/modules/%s.ko", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) || !(buf = malloc(st.st_size + 1))) {
		ret = errno;
		goto out;
	}
	if (read(fd, buf, st.st_size) != st.st_size) {
		ret = EIO;
		free(buf);
		goto out;
	}
	buf[st.st_size] = 0;
	/* .modinfo holds NUL-separated key=value strings. */
	deps[0] = 0;
	p = memmem(buf, st.st_size, key, sizeof(key) - 1);
	if (p && (p == buf || p[-1] == 0))
		snprintf(deps, sizeof(deps), "%s", p + sizeof(key) - 1);
	free(buf);
	for (dep = strtok_r(deps, ",", &p); dep && !ret;
	     dep = strtok_r(NULL, ",", &p))
		ret = vivid_load_module(dep, depth + 1);
	if (!ret && syscall(SYS_finit_module, fd, "", 0) && errno != EEXIST)
		ret = errno;
out:
	if (fd >= 0)
		close(fd);
	return ret;
}

static int vivid_load(void)
{
	return vivid_load_module("vivid", 0) ? -1 : 0;
}

/* Open vivid's video capture node; -1 when there is none. */
static int vivid_open_capture(void)
{
	struct v4l2_capability cap;
	char path[32];
	int i, fd;

	for (i = 0; i < 64; i++) {
		snprintf(path, sizeof(path), "/dev/video%d", i);
		fd = open(path, O_RDWR);
		if (fd < 0)
			continue;
		memset(&cap, 0, sizeof(cap));
		if (!ioctl(fd, VIDIOC_QUERYCAP, &cap) &&
		    !strcmp((char *)cap.driver, "vivid") &&
		    (cap.device_caps & V4L2_CAP_VIDEO_CAPTURE))
			return fd;
		close(fd);
	}
	return -1;
}

#endif /* EXTERR_GUEST_VIVID_H */

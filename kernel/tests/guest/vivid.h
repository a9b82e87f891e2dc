/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vivid for guest programs: the guest has no modprobe, so load every
 * module of /modules but the exterr test module until vivid is in (each
 * pass loads those whose dependencies are now there), then find its video
 * capture node.
 */
#ifndef EXTERR_GUEST_VIVID_H
#define EXTERR_GUEST_VIVID_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static int vivid_load(void)
{
	int pass, progress = 1, loaded = 0;

	for (pass = 0; pass < 8 && progress && !loaded; pass++) {
		DIR *d = opendir("/modules");
		struct dirent *e;

		if (!d)
			return -1;
		progress = 0;
		while ((e = readdir(d))) {
			size_t len = strlen(e->d_name);
			char path[512];
			int fd, ret;

			if (len < 4 || strcmp(e->d_name + len - 3, ".ko") ||
			    !strcmp(e->d_name, "test_exterr.ko"))
				continue;
			snprintf(path, sizeof(path), "/modules/%s", e->d_name);
			fd = open(path, O_RDONLY | O_CLOEXEC);
			if (fd < 0)
				continue;
			ret = syscall(SYS_finit_module, fd, "", 0) ? errno : 0;
			close(fd);
			progress += !ret;
			if (!strcmp(e->d_name, "vivid.ko") &&
			    (!ret || ret == EEXIST))
				loaded = 1;
		}
		closedir(d);
	}
	return loaded ? 0 : -1;
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

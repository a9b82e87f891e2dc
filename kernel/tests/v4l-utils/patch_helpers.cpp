// SPDX-License-Identifier: GPL-2.0
/*
 * The helpers that patches/0001-*.patch adds to v4l2-ctl, exactly as the
 * patch has them (the run script cuts them out of it into
 * v4l2_ctl_exterr.inc), called around vivid's ioctls in the order
 * v4l2-ctl's doioctl_name() calls them: kernel_desc_drop(), the ioctl,
 * kernel_desc(). This checks the patch's logic in the guest even where
 * v4l-utils itself cannot be built, and the rules it relies on: what is
 * printed belongs to that ioctl, errno survives, and on a kernel without
 * the interface nothing at all is printed.
 *
 * Usage (in the guest): patch_helpers [--no-exterr]. Exit 0 when every
 * check passed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <string>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/videodev2.h>

#include <exterr.h>

/* v4l2-ctl is built with -DHAVE_LIBEXTERR for the patched part. */
#define HAVE_LIBEXTERR 1
#include "v4l2_ctl_exterr.inc"

static int failures;
static int checks;

static void check(bool ok, const char *what, const std::string &desc)
{
	checks++;
	printf("%s %d - %s%s%s\n", ok ? "ok" : "not ok", checks, what,
	       desc.empty() ? "" : ": ", desc.c_str());
	if (!ok)
		failures++;
}

/* One doioctl_name() of the patched v4l2-ctl, without its printing. */
static int call(int fd, unsigned long request, void *arg, std::string &desc,
		int &err)
{
	int ret;

	kernel_desc_drop();
	ret = ioctl(fd, request, arg);
	desc = kernel_desc(ret, request);
	err = errno;
	return ret;
}

/* vivid's video capture node, after modprobe (busybox, in the guest). */
static int open_capture(void)
{
	struct v4l2_capability cap;
	char path[32];
	int i, fd;

	if (system("modprobe vivid"))
		return -1;
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

static bool starts(const std::string &s, const char *prefix)
{
	return s.compare(0, strlen(prefix), prefix) == 0;
}

int main(int argc, char **argv)
{
	bool exterr = !(argc > 1 && !strcmp(argv[1], "--no-exterr"));
	struct v4l2_format cur, f;
	std::string desc;
	int fd, err, input;

	setvbuf(stdout, NULL, _IOLBF, 0);
	fd = open_capture();
	if (fd < 0) {
		printf("not ok 1 - vivid's capture node\n");
		return 1;
	}
	memset(&cur, 0, sizeof(cur));
	cur.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;

	/* A successful ioctl that cannot adjust anything: never a line. */
	check(!call(fd, VIDIOC_G_FMT, &cur, desc, err) && desc.empty(),
	      "G_FMT: succeeds, nothing printed", desc);

	/* A failure: its explanation, errno as the ioctl left it. */
	input = 9;
	call(fd, VIDIOC_S_INPUT, &input, desc, err);
	check(err == EINVAL, "S_INPUT 9: EINVAL kept through kernel_desc()", "");
	if (exterr)
		check(starts(desc, "Invalid argument: ") &&
		      desc.find("ioctl=VIDIOC_S_INPUT") != std::string::npos,
		      "S_INPUT 9: the kernel's explanation", desc);
	else
		check(desc.empty(), "S_INPUT 9: nothing without exterr", desc);

	/* A replaced pixelformat: the note, on S_FMT and TRY_FMT. */
	for (unsigned long request : { VIDIOC_TRY_FMT, VIDIOC_S_FMT }) {
		const char *name = request == VIDIOC_S_FMT ? "S_FMT" : "TRY_FMT";
		char what[80];

		f = cur;
		f.fmt.pix.pixelformat = v4l2_fourcc('A', 'B', 'C', 'D');
		snprintf(what, sizeof(what), "%s ABCD: %s", name,
			 exterr ? "the note" : "nothing without exterr");
		check(!call(fd, request, &f, desc, err) &&
		      (exterr ? starts(desc, "note: pixelformat not supported") :
				desc.empty()), what, desc);
	}
	/* S_FMT back to what it was: nothing adjusted, nothing printed. */
	f = cur;
	check(!call(fd, VIDIOC_S_FMT, &f, desc, err) && desc.empty(),
	      "S_FMT unchanged: nothing printed", desc);

	/*
	 * A note nobody read, then an S_FMT that adjusts nothing: the old
	 * note must not be shown for it (kernel_desc_drop()).
	 */
	f = cur;
	f.fmt.pix.pixelformat = v4l2_fourcc('A', 'B', 'C', 'D');
	ioctl(fd, VIDIOC_TRY_FMT, &f);
	f = cur;
	check(!call(fd, VIDIOC_S_FMT, &f, desc, err) && desc.empty(),
	      "an earlier unread note is not S_FMT's", desc);
	/* The same with an earlier unread failure. */
	input = 9;
	ioctl(fd, VIDIOC_S_INPUT, &input);
	f = cur;
	check(!call(fd, VIDIOC_S_FMT, &f, desc, err) && desc.empty(),
	      "an earlier unread error is not S_FMT's", desc);

	/*
	 * A failure after an unread note and an unread error: whatever is
	 * shown is its own (EFAULT's, if the kernel describes it at all).
	 */
	f = cur;
	f.fmt.pix.pixelformat = v4l2_fourcc('A', 'B', 'C', 'D');
	ioctl(fd, VIDIOC_TRY_FMT, &f);
	input = 9;
	ioctl(fd, VIDIOC_S_INPUT, &input);
	call(fd, VIDIOC_QUERYCTRL, NULL, desc, err);
	check(err == EFAULT && (desc.empty() || starts(desc, "Bad address: ")),
	      "QUERYCTRL(NULL): EFAULT, nothing older shown", desc);

	close(fd);
	printf("%d checks, %d failed\n", checks, failures);
	return failures ? 1 : 0;
}

/* SPDX-License-Identifier: GPL-2.0 */
/* Loading lib/test_exterr.ko from the guest's /modules, for guest programs. */
#ifndef EXTERR_GUEST_TEST_MODULE_H
#define EXTERR_GUEST_TEST_MODULE_H

#include <errno.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#define TEST_EXTERR_KO "/modules/test_exterr.ko"

/* 0 once test_exterr is loaded (by this call or earlier), else -errno. */
static inline int load_test_exterr(void)
{
	int fd = open(TEST_EXTERR_KO, O_RDONLY | O_CLOEXEC), r = 0;

	if (fd < 0)
		return -errno;
	if (syscall(SYS_finit_module, fd, "", 0) && errno != EEXIST)
		r = -errno;
	close(fd);
	return r;
}

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The prctl() options of extended error descriptions, which the C
 * library's headers do not have, and the opt-in a guest program makes
 * before it expects any description.
 */
#ifndef EXTERR_GUEST_ERR_DESC_H
#define EXTERR_GUEST_ERR_DESC_H

#include <errno.h>
#include <sys/prctl.h>

#ifndef PR_GET_ERR_DESC
#define PR_GET_ERR_DESC 0x45525244
#endif
#ifndef PR_SET_ERR_DESC_ENABLED
#define PR_SET_ERR_DESC_ENABLED 0x45525245
#endif
#ifndef PR_GET_ERR_DESC_ENABLED
#define PR_GET_ERR_DESC_ENABLED 0x45525246
#endif

/*
 * The kernel records descriptions only for processes that asked for them:
 * ask, for every thread of this process and every child it will have
 * (the choice survives execve() and cannot be undone). Call it first in
 * main(), so that no call the program checks precedes it and every thread
 * it starts is created with it.
 *
 * Returns 0, or -errno: -EINVAL from a kernel without the interface (the
 * unpatched one, CONFIG_EXTERR=n), which a program that also runs there
 * ignores, so that it behaves as it did before descriptions were opt-in.
 */
static inline int err_desc_enable(void)
{
	return prctl(PR_SET_ERR_DESC_ENABLED, 1UL, 0UL, 0UL, 0UL) ? -errno : 0;
}

/* 1 when the calling thread records descriptions, 0 if not, -1 on error. */
static inline long err_desc_enabled(void)
{
	return prctl(PR_GET_ERR_DESC_ENABLED, 0UL, 0UL, 0UL, 0UL);
}

#endif

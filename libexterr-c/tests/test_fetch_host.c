// SPDX-License-Identifier: MIT
/*
 * exterr_fetch() and exterr_supported() against the kernel this runs on.
 * An unpatched kernel must give -EOPNOTSUPP and 0; a patched one, with
 * nothing pending, -ENODATA and 1, and descriptions enabled for this
 * thread by libexterr's constructor. Either way nothing may be left
 * behind: errno, *errp and later prctl() calls.
 */
#include <errno.h>
#include <string.h>
#include <sys/prctl.h>

#include <exterr.h>
#include "t.h"

int main(void)
{
	struct exterr *err = (struct exterr *)&t_passed;
	char name[32] = "";
	int probe, probe_errno, want, i;

	errno = 0;
	probe = prctl(PR_GET_ERR_DESC, 0UL, 0UL, 0UL, 0UL);
	probe_errno = errno;
	CHECK_INT(probe, -1);
	if (probe_errno == EINVAL) {
		printf("kernel without exterr: expecting -EOPNOTSUPP\n");
		want = -EOPNOTSUPP;
	} else {
		printf("kernel with exterr: expecting -ENODATA\n");
		CHECK_INT(probe_errno, ENODATA);
		want = -ENODATA;
		/*
		 * Enabled before main() by loading libexterr; only a kernel
		 * from before the switch (EINVAL) records for everyone.
		 */
		errno = 0;
		probe = prctl(PR_GET_ERR_DESC_ENABLED, 0UL, 0UL, 0UL, 0UL);
		if (probe < 0)
			CHECK_INT(errno, EINVAL);
		else
			CHECK_INT(probe, 1);
	}

	for (i = 0; i < 3; i++) {
		errno = 1234;
		CHECK_INT(exterr_supported(), want != -EOPNOTSUPP);
		CHECK_INT(errno, 1234);
		CHECK_INT(exterr_fetch(&err), want);
		CHECK(err == NULL);
		CHECK_INT(errno, 1234);
	}
	CHECK_INT(exterr_fetch(NULL), -EINVAL);

	/* prctl() itself still works for everything else. */
	CHECK_INT(prctl(PR_SET_NAME, (unsigned long)"exterr-t", 0UL, 0UL, 0UL),
		  0);
	CHECK_INT(prctl(PR_GET_NAME, (unsigned long)name, 0UL, 0UL, 0UL), 0);
	CHECK_STR(name, "exterr-t");
	return t_done();
}

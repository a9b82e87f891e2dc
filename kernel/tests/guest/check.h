/* SPDX-License-Identifier: GPL-2.0 */
/* CHECK(): for guest programs whose main() fails on the first wrong thing. */
#ifndef EXTERR_GUEST_CHECK_H
#define EXTERR_GUEST_CHECK_H

#include <stdio.h>

/* Print the failed condition with its place and return 1 from the caller. */
#define CHECK(cond) do {						\
	if (!(cond)) {							\
		printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);	\
		return 1;						\
	}								\
} while (0)

#endif

// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The library's version at run time, to compare with the EXTERR_VERSION
 * macro the caller was compiled against.
 */
#include "internal.h"

EXTERR_API const char *exterr_version(void)
{
	return EXTERR_VERSION;
}

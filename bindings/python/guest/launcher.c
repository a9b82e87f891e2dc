// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * /prog of the Python test guest (bindings/python/guest/run): kernel/vm-run
 * runs one static executable, so this sets up the environment of the staged
 * interpreter and execs it on the test script, passing our arguments on.
 *
 * The paths are compiled in by guest/run:
 *   GUEST_PYTHON      the interpreter, at the path it has on the host
 *   GUEST_HOME        its prefix (PYTHONHOME), holding lib/python3.X
 *   GUEST_SITE        site-packages with exterr and cffi's backend
 *   GUEST_SCRIPT      guest_test.py
 *   GUEST_LIBPATH     the directories of the staged shared libraries
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#ifndef GUEST_PYTHON
#error "build with -DGUEST_PYTHON=... (see guest/run)"
#endif

#define MAX_ARGS 64

int main(int argc, char **argv)
{
	char *args[MAX_ARGS + 4];
	int i, n = 0;

	setenv("PYTHONHOME", GUEST_HOME, 1);
	setenv("PYTHONPATH", GUEST_SITE, 1);
	setenv("PYTHONDONTWRITEBYTECODE", "1", 1);
	setenv("PYTHONNOUSERSITE", "1", 1);
	setenv("PYTHONUNBUFFERED", "1", 1);
	setenv("LC_ALL", "C.UTF-8", 1);
	/* Not needed when the libraries sit where ldd found them, but cheap. */
	setenv("LD_LIBRARY_PATH", GUEST_LIBPATH, 1);

	args[n++] = GUEST_PYTHON;
	args[n++] = GUEST_SCRIPT;
	for (i = 1; i < argc && i <= MAX_ARGS; i++)
		args[n++] = argv[i];
	args[n] = NULL;
	execv(args[0], args);
	perror("launcher: execv " GUEST_PYTHON);
	return 127;
}

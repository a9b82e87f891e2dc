// SPDX-License-Identifier: MIT
/*
 * Loading libexterr enables descriptions for the process: its constructor
 * calls prctl(PR_SET_ERR_DESC_ENABLED, 1, 0, 0, 0). The host kernel has no
 * exterr and fails that call with EINVAL, which leaves no trace; so each
 * library named on the command line is dlopen()ed in a child under a
 * seccomp filter that kills the process on exactly that call. Dying of
 * SIGSYS in dlopen() is the proof that the call was made, on the real
 * kernel, by the built library (shared, or the preload shim), with the
 * arguments the kernel takes.
 *
 * This program is not linked with libexterr: a copy already loaded would
 * make dlopen() run no constructor. Exit status 77 (skipped) where the
 * filter cannot be installed.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include <exterr.h>
#include "t.h"

#if defined(__x86_64__) && !defined(__ILP32__)
#define ARCH_SELF AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define ARCH_SELF AUDIT_ARCH_AARCH64
#endif

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define LO 0
#define HI 4
#else
#define LO 4
#define HI 0
#endif

#define ARG(i) offsetof(struct seccomp_data, args[i])

#ifdef ARCH_SELF
/* Each 32-bit word of seccomp_data that must match for the kill. */
static const struct {
	unsigned int offset;
	unsigned int value;
} words[] = {
	{ offsetof(struct seccomp_data, arch), ARCH_SELF },
	{ offsetof(struct seccomp_data, nr), __NR_prctl },
	/* The option is an int: the kernel ignores the upper half. */
	{ ARG(0) + LO, PR_SET_ERR_DESC_ENABLED },
	{ ARG(1) + LO, 1 }, { ARG(1) + HI, 0 },
	{ ARG(2) + LO, 0 }, { ARG(2) + HI, 0 },
	{ ARG(3) + LO, 0 }, { ARG(3) + HI, 0 },
	{ ARG(4) + LO, 0 }, { ARG(4) + HI, 0 },
};
#define NR_WORDS (sizeof(words) / sizeof(words[0]))

/*
 * Load and compare each word; the first that differs jumps over the rest
 * and the kill to the allow at the end.
 */
static int install_filter(void)
{
	struct sock_filter f[2 * NR_WORDS + 2];
	struct sock_fprog prog = { .len = 2 * NR_WORDS + 2, .filter = f };
	unsigned int i;

	for (i = 0; i < NR_WORDS; i++) {
		f[2 * i] = (struct sock_filter)
			BPF_STMT(BPF_LD | BPF_W | BPF_ABS, words[i].offset);
		f[2 * i + 1] = (struct sock_filter)
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, words[i].value,
				 0, 2 * (NR_WORDS - i) - 1);
	}
	f[2 * NR_WORDS] = (struct sock_filter)
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
	f[2 * NR_WORDS + 1] = (struct sock_filter)
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1UL, 0UL, 0UL, 0UL))
		return -1;
	return prctl(PR_SET_SECCOMP, (unsigned long)SECCOMP_MODE_FILTER,
		     (unsigned long)&prog, 0UL, 0UL);
}
#else
static int install_filter(void)
{
	errno = EOPNOTSUPP;
	return -1;
}
#endif

/* What a child does under the filter; it exits 0 if it survives. */
enum action { CALL_ENABLE, CALL_OTHERS, LOAD };

/*
 * Runs @action in a child under the filter: returns the signal that
 * killed it, 0 when it exited 0, -1 when the filter could not be
 * installed there, or -2 for any other end (dlopen() failed).
 */
static int run(enum action action, const char *lib)
{
	struct rlimit no_core = { 0, 0 };
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		perror("fork");
		exit(1);
	}
	if (!pid) {
		/* The kill is expected: no core file for it. */
		setrlimit(RLIMIT_CORE, &no_core);
		if (install_filter()) {
			fprintf(stderr, "seccomp filter: %s\n",
				strerror(errno));
			_exit(77);
		}
		switch (action) {
		case CALL_ENABLE:
			prctl(PR_SET_ERR_DESC_ENABLED, 1UL, 0UL, 0UL, 0UL);
			break;
		case CALL_OTHERS:
			prctl(PR_SET_ERR_DESC_ENABLED, 2UL, 0UL, 0UL, 0UL);
			prctl(PR_SET_ERR_DESC_ENABLED, 1UL, 0UL, 0UL, 1UL);
			prctl(PR_GET_ERR_DESC_ENABLED, 0UL, 0UL, 0UL, 0UL);
			prctl(PR_SET_NAME, (unsigned long)"exterr-t", 0UL, 0UL,
			      0UL);
			break;
		case LOAD:
			if (!dlopen(lib, RTLD_NOW)) {
				fprintf(stderr, "dlopen: %s\n", dlerror());
				_exit(2);
			}
			break;
		}
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid) {
		perror("waitpid");
		exit(1);
	}
	if (WIFSIGNALED(status))
		return WTERMSIG(status);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 77)
		return -1;
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -2;
}

int main(int argc, char **argv)
{
	int i, ret;

	if (argc < 2) {
		fprintf(stderr, "usage: %s LIBRARY...\n", argv[0]);
		return 2;
	}
	/* The filter kills the enable call itself, and nothing else. */
	ret = run(CALL_ENABLE, NULL);
	if (ret == -1) {
		printf("no seccomp filter here: skipped\n");
		return 77;
	}
	CHECK_INT(ret, SIGSYS);
	CHECK_INT(run(CALL_OTHERS, NULL), 0);
	/* Loading a library without the constructor is harmless. */
	CHECK_INT(run(LOAD, "libm.so.6"), 0);

	for (i = 1; i < argc; i++) {
		ret = run(LOAD, argv[i]);
		if (ret != SIGSYS)
			fprintf(stderr,
				"%s: loaded without enabling descriptions\n",
				argv[i]);
		CHECK_INT(ret, SIGSYS);
	}
	return t_done();
}

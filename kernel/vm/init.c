// SPDX-License-Identifier: GPL-2.0
/*
 * /init of the test guest: mount the pseudo file systems, run /prog with
 * the arguments in /args (NUL-separated) as a child, report its status on
 * the console in a line kernel/vm-run looks for, and reboot (which, with
 * QEMU's -no-reboot, ends the VM).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_ARGS 256

static void mount_or_warn(const char *src, const char *dir, const char *type)
{
	mkdir(dir, 0755);
	if (mount(src, dir, type, 0, NULL))
		fprintf(stderr, "init: mount %s on %s: %m\n", type, dir);
}

static void setup_console(void)
{
	int fd = open("/dev/console", O_RDWR);

	if (fd < 0)
		return;
	dup2(fd, 0);
	dup2(fd, 1);
	dup2(fd, 2);
	if (fd > 2)
		close(fd);
}

static int read_args(char **argv)
{
	static char buf[65536];
	int fd = open("/args", O_RDONLY);
	ssize_t n = 0, r;
	int argc = 0;
	char *p;

	argv[argc++] = "/prog";
	if (fd < 0)
		goto out;
	while ((r = read(fd, buf + n, sizeof(buf) - 1 - n)) > 0)
		n += r;
	close(fd);
	for (p = buf; p < buf + n && argc < MAX_ARGS; p += strlen(p) + 1)
		argv[argc++] = p;
out:
	argv[argc] = NULL;
	return argc;
}

int main(void)
{
	char *argv[MAX_ARGS + 1];
	int status, code;
	pid_t pid, w;

	mount_or_warn("devtmpfs", "/dev", "devtmpfs");
	setup_console();
	mount_or_warn("proc", "/proc", "proc");
	mount_or_warn("sysfs", "/sys", "sysfs");
	mount_or_warn("debugfs", "/sys/kernel/debug", "debugfs");
	mount_or_warn("tmpfs", "/tmp", "tmpfs");
	chmod("/tmp", 01777);
	/* /bin: the busybox tools vm-run adds (modprobe for the selftests). */
	setenv("PATH", "/:/bin", 1);
	setenv("HOME", "/", 1);
	read_args(argv);

	/*
	 * The firmware's "Booting from ROM.." has no newline: start the
	 * program's output on a line of its own, so that tests can match
	 * its first line.
	 */
	fputc('\n', stderr);
	fflush(stderr);

	pid = fork();
	if (pid == 0) {
		execv("/prog", argv);
		fprintf(stderr, "init: exec /prog: %m\n");
		_exit(127);
	}
	/* Reap orphans too, until the program itself has ended. */
	do {
		w = wait(&status);
	} while (w >= 0 && w != pid);
	if (w < 0)
		code = 126;
	else if (WIFEXITED(status))
		code = WEXITSTATUS(status);
	else
		code = 128 + WTERMSIG(status);
	fflush(stdout);
	fprintf(stderr, "\nexterr-vm: exit status %d\n", code);
	sync();
	reboot(RB_AUTOBOOT);
	return 0;
}

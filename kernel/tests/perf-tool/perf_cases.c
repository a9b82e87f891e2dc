// SPDX-License-Identifier: GPL-2.0
/*
 * Guest side of the perf tool test: run every perf command line of a case
 * file with every perf binary given, and print each one's output between
 * markers for the host to compare. Usage: perf_cases CASES PERF...
 *
 * A CASES line is "NAME USER ARGS... [## ...]" (USER "root" or "nobody";
 * ARGS split on spaces; what follows "##" is for the host). Installed as /true as well, it is the workload perf runs:
 * called "true", it exits at once.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_ARGS	32
/* perf top and record must fail at once; a hang is a failure too. */
#define CASE_TIMEOUT	60
#define NOBODY		65534

static void run(const char *perf, const char *name, const char *user,
		char **args)
{
	char *argv[MAX_ARGS + 2];
	char *envp[] = { "HOME=/tmp", "PATH=/", "TERM=dumb", "PAGER=cat",
			 "LC_ALL=C", NULL };
	char line[8192];
	size_t len = 0;
	int fds[2], status, i;
	pid_t pid;
	FILE *out;

	argv[0] = (char *)perf;
	for (i = 0; args[i]; i++)
		argv[i + 1] = args[i];
	argv[i + 1] = NULL;
	if (pipe(fds))
		exit(2);
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		exit(2);
	if (!pid) {
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		close(fds[0]);
		close(fds[1]);
		/* Each run starts afresh, whoever wrote the last output. */
		unlink("/tmp/perf.data");
		unlink("/tmp/perf.data.old");
		if (chdir("/tmp"))
			_exit(126);
		if (!strcmp(user, "nobody") &&
		    (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY)))
			_exit(126);
		alarm(CASE_TIMEOUT);
		execve(perf, argv, envp);
		_exit(127);
	}
	close(fds[1]);
	printf("=== BEGIN %s %s\n", perf, name);
	/* Every output line prefixed, so console noise cannot mix in. */
	out = fdopen(fds[0], "r");
	while (out && fgets(line, sizeof(line), out)) {
		len = strlen(line);
		printf("| %s%s", line, len && line[len - 1] == '\n' ? "" : "\n");
	}
	if (out)
		fclose(out);
	if (waitpid(pid, &status, 0) < 0)
		exit(2);
	printf("=== END %s %s status %d\n", perf, name,
	       WIFEXITED(status) ? WEXITSTATUS(status) :
	       128 + WTERMSIG(status));
	fflush(stdout);
}

int main(int argc, char **argv)
{
	char line[1024], *args[MAX_ARGS + 1], *name, *user, *tok;
	const char *base = strrchr(argv[0], '/');
	FILE *cases;
	int i, n;

	if (!strcmp(base ? base + 1 : argv[0], "true"))
		return 0;
	if (argc < 3) {
		fprintf(stderr, "usage: perf_cases CASES PERF...\n");
		return 2;
	}
	/* /tmp for perf.data and $HOME, writable by nobody as well. */
	mkdir("/tmp", 01777);
	chmod("/tmp", 01777);
	chmod("/true", 0755);
	for (i = 2; i < argc; i++)
		chmod(argv[i], 0755);
	cases = fopen(argv[1], "r");
	if (!cases) {
		perror(argv[1]);
		return 2;
	}
	while (fgets(line, sizeof(line), cases)) {
		line[strcspn(line, "\n")] = '\0';
		if (!line[0] || line[0] == '#')
			continue;
		name = strtok(line, " ");
		user = strtok(NULL, " ");
		n = 0;
		/* "## ..." ends the command line: the host's expectations. */
		while ((tok = strtok(NULL, " ")) && strcmp(tok, "##") &&
		       n < MAX_ARGS)
			args[n++] = tok;
		args[n] = NULL;
		if (!name || !user) {
			fprintf(stderr, "bad case line\n");
			return 2;
		}
		for (i = 2; i < argc; i++)
			run(argv[i], name, user, args);
	}
	fclose(cases);
	printf("=== DONE\n");
	return 0;
}

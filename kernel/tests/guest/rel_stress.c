// SPDX-License-Identifier: GPL-2.0
/*
 * Stress test for extended error descriptions, bounded in time.
 *
 * Worker threads each cause errors of their own two cases, alternately,
 * and fetch them: every fetch must be exactly the description of the
 * error that thread just caused (never another thread's, never the
 * previous one), and then nothing is pending. Meanwhile other threads
 * fork (the child must inherit nothing but the opt-in; it then execs with
 * an error pending, and the new image must start clean, still enabled),
 * start threads that exit with a description pending, and load and
 * unload test_exterr.ko, leaving one of its descriptions pending across
 * the unload (which must clear it).
 * At the end kmemleak looks for anything the whole run leaked.
 *
 * Usage: rel_stress [SECONDS [WORKERS]]   (default 20 s, 6 workers)
 *        rel_stress --exec-check          (the image a forked child execs)
 */
#include "rel_cases.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <sys/wait.h>

#define KMEMLEAK "/sys/kernel/debug/kmemleak"

static atomic_bool stop, quiesce;
static atomic_ulong fetches, skipped, forks, execs, exits, loads, unloads;
static atomic_ulong cleared_by_unload, busy_unloads;

/* Exit status of a forked child: what went wrong. */
enum {
	CHILD_OK, CHILD_INHERITED = 10, CHILD_EXEC_FAILED, CHILD_NO_ERROR,
	CHILD_NOT_ENABLED
};

static void *worker(void *arg)
{
	size_t id = (size_t)arg, mine[2], i;
	unsigned long n;
	char who[32];
	int fd, err;

	/*
	 * Two cases per worker, distinct from every other thread's (case 0
	 * is the module cycler's, the last three the forker's and exiter's).
	 */
	mine[0] = 1 + 2 * id;
	mine[1] = 2 + 2 * id;
	snprintf(who, sizeof(who), "worker %zu", id);
	for (n = 0; !atomic_load(&stop); n++) {
		i = mine[n & 1];
		if (rel_cases[i].raise && atomic_load(&quiesce)) {
			atomic_fetch_add(&skipped, 1);
			usleep(1000);
			continue;
		}
		err = rel_cause(&rel_cases[i], &fd);
		if (err == -1) {
			/* test_exterr.ko is being unloaded: no error. */
			atomic_fetch_add(&skipped, 1);
			usleep(1000);
			continue;
		}
		if (err != rel_cases[i].err)
			REL_FAIL("%s: %s: errno %d", who, rel_cases[i].name, err);
		/* A successful system call leaves the description alone. */
		if (n % 3 == 0)
			REL_CHECK(getppid() > 0);
		/* So does asking for its size, or a buffer one byte short. */
		if (n % 5 == 0) {
			long size = rel_prctl(NULL, 0, 0, 0);
			char *buf = malloc(size);

			REL_CHECK(size > 0 && buf);
			REL_CHECK(rel_prctl(buf, size - 1, 0, 0) == -1 &&
				  errno == ERANGE);
			free(buf);
		}
		rel_expect(i, who);
		rel_done(fd);
		atomic_fetch_add(&fetches, 1);
	}
	return NULL;
}

/*
 * A new image starts with nothing pending, whatever the old one left, and
 * still enabled: else finding nothing pending would prove nothing.
 */
static int exec_check(void)
{
	if (err_desc_enabled() != 1)
		return CHILD_NOT_ENABLED;
	errno = 0;
	if (rel_prctl(NULL, 0, 0, 0) != -1 || errno != ENODATA)
		return CHILD_INHERITED;
	return CHILD_OK;
}

static void *forker(void *arg)
{
	/* perf cases: they do not depend on the module being loaded. */
	size_t mine = REL_NCASES - 1, other = REL_NCASES - 2;
	unsigned long n;
	int status, fd;
	pid_t pid;

	for (n = 0; !atomic_load(&stop); n++) {
		REL_CHECK(rel_cause(&rel_cases[mine], &fd) == rel_cases[mine].err);
		pid = fork();
		REL_CHECK(pid >= 0);
		if (pid == 0) {
			/*
			 * Only async-signal-safe calls in a forked thread.
			 * The child inherits the opt-in, not the description.
			 */
			if (err_desc_enabled() != 1)
				_exit(CHILD_NOT_ENABLED);
			errno = 0;
			if (rel_prctl(NULL, 0, 0, 0) != -1 || errno != ENODATA)
				_exit(CHILD_INHERITED);
			if (rel_perf_open(&rel_cases[other]) != -1)
				_exit(CHILD_NO_ERROR);
			if (n & 1) {
				char *argv[] = { "/prog", "--exec-check", NULL };

				execv("/proc/self/exe", argv);
				_exit(CHILD_EXEC_FAILED);
			}
			/* Exit with the description pending. */
			_exit(CHILD_OK);
		}
		REL_CHECK(waitpid(pid, &status, 0) == pid);
		if (!WIFEXITED(status) || WEXITSTATUS(status) != CHILD_OK)
			REL_FAIL("forked child: status %#x", status);
		atomic_fetch_add(n & 1 ? &execs : &forks, 1);
		/* The parent's own description survived the fork. */
		rel_expect(mine, "forker");
	}
	return NULL;
}

static void *exit_pending(void *arg)
{
	int fd;

	REL_CHECK(rel_cause(&rel_cases[REL_NCASES - 3], &fd) ==
		  rel_cases[REL_NCASES - 3].err);
	return NULL;
}

/* Threads that end with a description pending. */
static void *exiter(void *arg)
{
	pthread_t t;

	while (!atomic_load(&stop)) {
		REL_CHECK(pthread_create(&t, NULL, exit_pending, NULL) == 0);
		REL_CHECK(pthread_join(t, NULL) == 0);
		atomic_fetch_add(&exits, 1);
	}
	return NULL;
}

/*
 * Load and unload test_exterr.ko over and over. Before each unload this
 * thread raises one of the module's errors and leaves it pending. A
 * successful delete_module() would keep it (a successful call ends no
 * description), so after an unload it must be gone only because the
 * unload cleared it (the site it pointed to is freed memory). An unload
 * refused because a worker holds the file open is itself a failing call
 * that recorded nothing, so it ends the description: nothing may be
 * pending after it. Workers stop opening the module's file while an
 * unload is wanted, or it might never find the module idle.
 */
static void *module_cycler(void *arg)
{
	unsigned int tries;
	int fd, r;

	while (!atomic_load(&stop)) {
		r = rel_load_module();
		if (r)
			REL_FAIL("loading %s: %d", REL_MODULE_KO, r);
		atomic_fetch_add(&loads, 1);
		usleep(20000);
		atomic_store(&quiesce, true);
		for (tries = 0;; tries++) {
			REL_CHECK(rel_cause(&rel_cases[0], &fd) ==
				  rel_cases[0].err);
			rel_done(fd);
			/* Pending now: a size query leaves it so. */
			REL_CHECK(rel_prctl(NULL, 0, 0, 0) > 0);
			r = syscall(SYS_delete_module, REL_MODULE, O_NONBLOCK);
			if (r == 0)
				break;
			REL_CHECK(errno == EWOULDBLOCK || errno == EBUSY);
			REL_CHECK(tries < 10000);
			atomic_fetch_add(&busy_unloads, 1);
			errno = 0;
			if (rel_prctl(NULL, 0, 0, 0) != -1 || errno != ENODATA)
				REL_FAIL("a refused unload kept the description");
			usleep(1000);
		}
		atomic_fetch_add(&unloads, 1);
		errno = 0;
		if (rel_prctl(NULL, 0, 0, 0) != -1 || errno != ENODATA)
			REL_FAIL("a description of an unloaded module");
		atomic_fetch_add(&cleared_by_unload, 1);
		/* Workers now race their open() with the next load. */
		atomic_store(&quiesce, false);
		usleep(5000);
	}
	return NULL;
}

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY), r;

	if (fd < 0)
		return -errno;
	r = write(fd, text, strlen(text)) < 0 ? -errno : 0;
	close(fd);
	return r;
}

/*
 * Ask kmemleak for unreferenced objects allocated since the stress test
 * started, print them and return their number.
 */
static int kmemleak_report(void)
{
	char line[512];
	int leaks = 0;
	FILE *f;

	/*
	 * kmemleak ignores objects younger than 5 s, and reports an object
	 * only once it has stayed unreferenced over more than one scan.
	 */
	sleep(6);
	REL_CHECK(write_file(KMEMLEAK, "scan") == 0);
	sleep(1);
	REL_CHECK(write_file(KMEMLEAK, "scan") == 0);
	f = fopen(KMEMLEAK, "r");
	REL_CHECK(f);
	while (fgets(line, sizeof(line), f)) {
		fputs(line, stdout);
		if (strstr(line, "unreferenced object"))
			leaks++;
	}
	fclose(f);
	return leaks;
}

int main(int argc, char **argv)
{
	unsigned int seconds = 20, workers = 6, i;
	pthread_t tids[64], others[3];
	int leaks = -1;

	if (argc > 1 && !strcmp(argv[1], "--exec-check"))
		return exec_check();
	if (argc > 1)
		seconds = atoi(argv[1]);
	if (argc > 2)
		workers = atoi(argv[2]);
	REL_CHECK(workers >= 1 && workers <= 64 &&
		  2 * workers <= REL_NCASES - 4);
	setvbuf(stdout, NULL, _IOLBF, 0);

	rel_enable();
	rel_calibrate();
	/*
	 * Objects from before (boot, the first module load) are none of this
	 * test's: scan once so that kmemleak knows them, then forget them.
	 */
	if (!access(KMEMLEAK, F_OK)) {
		REL_CHECK(write_file(KMEMLEAK, "scan") == 0);
		REL_CHECK(write_file(KMEMLEAK, "clear") == 0);
	}

	for (i = 0; i < workers; i++)
		REL_CHECK(pthread_create(&tids[i], NULL, worker,
					 (void *)(size_t)i) == 0);
	REL_CHECK(pthread_create(&others[0], NULL, forker, NULL) == 0);
	REL_CHECK(pthread_create(&others[1], NULL, exiter, NULL) == 0);
	REL_CHECK(pthread_create(&others[2], NULL, module_cycler, NULL) == 0);
	sleep(seconds);
	atomic_store(&stop, true);
	for (i = 0; i < workers; i++)
		REL_CHECK(pthread_join(tids[i], NULL) == 0);
	for (i = 0; i < 3; i++)
		REL_CHECK(pthread_join(others[i], NULL) == 0);

	printf("stress: %u s, %u workers: %lu fetches checked (%lu module errors skipped around unloads), %lu forks, %lu fork+execs, %lu thread exits with a description pending, %lu loads, %lu unloads (%lu cleared a pending description), %lu unloads refused while busy\n",
	       seconds, workers, atomic_load(&fetches), atomic_load(&skipped),
	       atomic_load(&forks), atomic_load(&execs), atomic_load(&exits),
	       atomic_load(&loads), atomic_load(&unloads),
	       atomic_load(&cleared_by_unload), atomic_load(&busy_unloads));
	/* Every kind of activity must really have happened. */
	REL_CHECK(atomic_load(&fetches) >= workers && atomic_load(&forks) &&
		  atomic_load(&execs) && atomic_load(&exits) &&
		  atomic_load(&unloads));

	if (!access(KMEMLEAK, F_OK)) {
		leaks = kmemleak_report();
		printf("kmemleak: %d unreferenced objects\n", leaks);
		if (leaks)
			return 1;
	} else {
		printf("kmemleak: not in this kernel\n");
	}
	printf("ok stress\n");
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Races, for a bounded time under memory pressure: processes fork, exec,
 * spawn threads and exit while others change their swapnice through
 * /proc and prctl, and reclaim walks their pages, on both LRUs.  Passes
 * when every process that should finish did, values stayed in range, and
 * (checked by the runner) the kernel logged nothing.  The values written
 * are random, up to 39 apart, and a difference of more than 10 never
 * yields (Documentation/admin-guide/mm/swapnice.rst), so the OOM killer
 * may take a churner: one killed by SIGKILL counts as accounted for when
 * the kernel's oom_kill counter rose at least as much.
 *
 *   races [SECONDS]   per LRU (default 20)
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "kselftest.h"
#include "scenario.h"

static unsigned int seed = 2004;
static volatile int stop_threads;

static void *thread_fn(void *arg)
{
	char *p = arg;

	while (!stop_threads) {
		prctl(PR_SET_SWAPNICE, (unsigned long)(long)(rand_r(&seed) % 40 - 20), 0, 0, 0);
		p[(rand_r(&seed) % 64) * 4096] = 1;
	}
	return NULL;
}

/* A churner: maps memory, spawns threads, forks and execs, then exits. */
static int churn(void)
{
	size_t len = 16UL << 20;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	pthread_t th[2];
	pid_t c;
	size_t i;

	if (p == MAP_FAILED)
		return 1;
	for (i = 0; i < len; i += 4096)
		p[i] = 1;
	pthread_create(&th[0], NULL, thread_fn, p);
	pthread_create(&th[1], NULL, thread_fn, p);
	c = fork();
	if (!c) {
		execl("/bin/true", "true", NULL);
		_exit(127);
	}
	waitpid(c, NULL, 0);
	usleep(rand_r(&seed) % 20000);
	stop_threads = 1;
	pthread_join(th[0], NULL);
	pthread_join(th[1], NULL);
	return 0;
}

/* A changer: writes random values to random processes' files. */
static long change_all(long *bad)
{
	struct dirent *de;
	long n = 0;
	DIR *d = opendir("/proc");

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		char path[300], buf[16];
		int v = rand_r(&seed) % 40 - 20;
		long got;

		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/swapnice", de->d_name);
		snprintf(buf, sizeof(buf), "%d", v);
		write_file(path, buf);
		got = read_long(path, 0);
		if (got < -20 || got > 19)
			(*bad)++;
		n++;
	}
	closedir(d);
	return n;
}

static void count_exit(int status, long *finished, long *killed)
{
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		(*finished)++;
	else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
		(*killed)++;
}

static void run(bool mglru, int secs, long *spawned, long *finished, long *killed,
		long *writes, long *bad)
{
	char *hog_argv[] = { "/tests/scenario", "hold", "180", "2", NULL };
	long long end = now_ms() + secs * 1000LL;
	pid_t hog;

	set_mglru(mglru);
	hog = fork();
	if (!hog) {
		prctl(PR_SET_SWAPNICE, 10, 0, 0, 0);
		execv(hog_argv[0], hog_argv);
		_exit(127);
	}
	while (now_ms() < end) {
		int i, status;
		pid_t w;

		for (i = 0; i < 4; i++) {
			pid_t c = fork();

			if (!c)
				_exit(churn());
			if (c > 0)
				(*spawned)++;
		}
		*writes += change_all(bad);
		prctl(PR_SET_SWAPNICE, (unsigned long)(long)(rand_r(&seed) % 40 - 20), 0, 0, 0);
		while ((w = waitpid(-1, &status, WNOHANG)) > 0) {
			if (w == hog)
				hog = -1;	/* OOM-killed: not a churner */
			else
				count_exit(status, finished, killed);
		}
	}
	if (hog > 0)
		kill(hog, SIGTERM);
	for (;;) {
		int status;
		pid_t w = waitpid(-1, &status, 0);

		if (w < 0)
			break;
		if (w != hog)
			count_exit(status, finished, killed);
	}
}

int main(int argc, char **argv)
{
	int secs = argc > 1 ? atoi(argv[1]) : 20;
	int lru;

	setvbuf(stdout, NULL, _IOLBF, 0);
	ksft_print_header();
	if (!have_swapnice())
		ksft_exit_fail_msg("no /proc/self/swapnice: the kernel lacks the series\n");
	ksft_set_plan(4);
	for (lru = 0; lru < 2; lru++) {
		long spawned = 0, finished = 0, killed = 0, writes = 0, bad = 0;
		long long t0 = now_ms(), oom0 = vmstat("oom_kill"), ooms;

		run(lru, secs, &spawned, &finished, &killed, &writes, &bad);
		ooms = vmstat("oom_kill") - oom0;
		ksft_print_msg("%s: %d s, %ld churners, %ld /proc writes, %lld ms to wind down, %lld OOM kills\n",
			       lru ? "mglru" : "classic", secs, spawned, writes,
			       now_ms() - t0 - secs * 1000LL, ooms);
		ksft_test_result(spawned > 0 && finished + killed == spawned && killed <= ooms,
				 "%s: every churner finished (%ld of %ld; %ld SIGKILLed, %lld OOM kills)\n",
				 lru ? "mglru" : "classic", finished, spawned, killed, ooms);
		ksft_test_result(!bad, "%s: every value read back was in range (%ld bad)\n",
				 lru ? "mglru" : "classic", bad);
	}
	ksft_finished();
}

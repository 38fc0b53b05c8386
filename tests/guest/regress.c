// SPDX-License-Identifier: GPL-2.0
/*
 * Regression tests for the bugs of the linux-mm review of 2026-12-06,
 * one sub-command per bug; each failed on the series before its fix.
 *
 *   regress unevictable SECONDS  folios that become unevictable while a
 *                                process at swapnice 10 adds them to the
 *                                LRU (shmem MAP_LOCKED, mlock of swapped
 *                                anon, SHM_LOCK); the debug kernel's list
 *                                checks and KASAN find a corruption
 *   regress explicit             explicit reclaim is neutral: MADV_PAGEOUT
 *                                pages out at -5, 0 and 5 alike, and
 *                                memory.reclaim and memory.max writes
 *                                neither protect nor demote; both LRUs
 *   regress exec                 the value reclaim uses is the one /proc
 *                                shows, after a write that races an exec
 *                                and after a vfork child sets its own
 *   regress perms                /proc writes are judged by the opener's
 *                                credentials; lowering follows
 *                                RLIMIT_NICE as setpriority(2) does
 *   regress kswapd               with every process at 0, kswapd neither
 *                                protects nor demotes, across idle gaps
 *                                that empty its record of demand
 *   regress putback              (two NUMA nodes) a process at swapnice 10
 *                                that migrates another process's memory
 *                                does not put it where reclaim meets it
 *                                first: migrated folios start at the head
 *
 * Memory that goes to swap is checked when it comes back: each page holds
 * a word made of a seed and its index.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "kselftest.h"
#include "scenario.h"

#define PAGE		4096UL
#define MB		(1024UL * 1024)
#define CG		"/sys/fs/cgroup/regress"

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT	21
#endif
#ifndef SYS_pidfd_open
#define SYS_pidfd_open	434
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd	438
#endif

static unsigned long pattern(unsigned long seed, size_t page)
{
	return (seed << 32) ^ (page * 0x9e3779b97f4a7c15UL) ^ 0x5a5a;
}

static void fill(char *p, size_t len, unsigned long seed)
{
	size_t i;

	for (i = 0; i < len / PAGE; i++)
		*(volatile unsigned long *)(p + i * PAGE) = pattern(seed, i);
}

/* The first page whose word is wrong, or -1. */
static long verify(const char *p, size_t len, unsigned long seed)
{
	size_t i;

	for (i = 0; i < len / PAGE; i++)
		if (*(const volatile unsigned long *)(p + i * PAGE) != pattern(seed, i))
			return (long)i;
	return -1;
}

static long long protected_and_demoted(void)
{
	return vmstat("swapnice_protected") + vmstat("swapnice_demoted");
}

static int set_self(int v)
{
	return prctl(PR_SET_SWAPNICE, (unsigned long)(long)v, 0, 0, 0) ? -errno : 0;
}

static int proc_set(int pid, int v)
{
	char path[64], buf[16];

	snprintf(path, sizeof(path), "/proc/%d/swapnice", pid);
	snprintf(buf, sizeof(buf), "%d", v);
	return write_file(path, buf);
}

static void join_cgroup(const char *cg)
{
	char path[128], buf[16];

	snprintf(path, sizeof(path), "%s/cgroup.procs", cg);
	snprintf(buf, sizeof(buf), "%d", getpid());
	if (write_file(path, buf))
		ksft_exit_fail_msg("cannot join %s: %s\n", cg, strerror(errno));
}

static void make_cgroup(const char *max)
{
	rmdir(CG);
	if (mkdir(CG, 0755) && errno != EEXIST)
		ksft_exit_fail_msg("mkdir %s: %s\n", CG, strerror(errno));
	if (max && write_file(CG "/memory.max", max))
		ksft_exit_fail_msg("memory.max %s: %s\n", max, strerror(errno));
}

static int wait_child(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid)
		return -1;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

/* ------------------------------------------------------------ bug 1 */

/* shmem faulted into a locked mapping: the reviewer's reproducer. */
static long locked_shmem(unsigned long seed)
{
	size_t len = 2 * MB;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS | MAP_LOCKED | MAP_POPULATE, -1, 0);
	long bad;

	if (p == MAP_FAILED)
		return -2;
	fill(p, len, seed);
	bad = verify(p, len, seed);
	munmap(p, len);
	return bad;
}

/* Anonymous memory paged out, then mlocked back in through swap-in. */
static long mlock_swapped(unsigned long seed)
{
	size_t len = 2 * MB;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	long bad;

	if (p == MAP_FAILED)
		return -2;
	fill(p, len, seed);
	madvise(p, len, MADV_PAGEOUT);
	if (mlock(p, len)) {
		munmap(p, len);
		return -3;
	}
	bad = verify(p, len, seed);
	munlock(p, len);
	munmap(p, len);
	return bad;
}

/* SysV shared memory locked with SHM_LOCK, faulted page by page. */
static long shm_locked(unsigned long seed)
{
	size_t len = 2 * MB;
	int id = shmget(IPC_PRIVATE, len, IPC_CREAT | 0600);
	char *p;
	long bad = -2;

	if (id < 0)
		return -2;
	if (shmctl(id, SHM_LOCK, NULL) == 0) {
		p = shmat(id, NULL, 0);
		if (p != (void *)-1) {
			fill(p, len, seed);
			bad = verify(p, len, seed);
			shmdt(p);
		}
	}
	shmctl(id, IPC_RMID, NULL);
	return bad;
}

static int test_unevictable(int seconds)
{
	static const struct {
		const char *name;
		long (*fn)(unsigned long seed);
	} paths[] = {
		{ "shmem in a MAP_LOCKED mapping", locked_shmem },
		{ "swapped-out anon mlocked back", mlock_swapped },
		{ "SysV shm under SHM_LOCK", shm_locked },
	};
	long long t_end = now_ms() + seconds * 1000LL;
	long loops[3] = { 0 }, bad[3] = { -1, -1, -1 };
	struct rlimit unlimited = { RLIM_INFINITY, RLIM_INFINITY };
	unsigned long seed = 1;
	long long swapped0 = vmstat("pswpout");
	size_t i;
	int err;

	ksft_set_plan(2 + 2 * ARRAY_SIZE(paths));
	setrlimit(RLIMIT_MEMLOCK, &unlimited);
	/* The folios of a process at 10 started at the inactive tail. */
	err = set_self(10);
	ksft_test_result(!err, "the process raised its own swapnice to 10 (err %d)\n", err);
	set_mglru(false);
	while (now_ms() < t_end) {
		for (i = 0; i < ARRAY_SIZE(paths); i++) {
			long r = paths[i].fn(seed++);

			if (r != -1 && bad[i] == -1)
				bad[i] = r;
			loops[i]++;
		}
	}
	for (i = 0; i < ARRAY_SIZE(paths); i++) {
		ksft_test_result(loops[i] >= 10, "%s: %ld rounds in %d s (wanted at least 10)\n",
				 paths[i].name, loops[i], seconds);
		ksft_test_result(bad[i] == -1, "%s: every page came back intact (%s %ld)\n",
				 paths[i].name, bad[i] >= 0 ? "first bad page" : "error", bad[i]);
	}
	/* The mlock path must have gone through swap to test anything. */
	ksft_test_result(vmstat("pswpout") - swapped0 >= 512,
			 "MADV_PAGEOUT wrote pages to swap for the mlock path (%lld pages)\n",
			 vmstat("pswpout") - swapped0);
	set_mglru(true);
	return 0;
}

/* ------------------------------------------------------------ bug 2 */

/* Page out 16 MB at swapnice @v; the kB that went to swap, or -errno. */
static long pageout_at(int v, long long *counted)
{
	size_t len = 16 * MB;
	int fd[2];
	pid_t pid;
	int st;
	long r = -1;

	if (pipe(fd))
		return -errno;
	pid = fork();
	if (!pid) {
		char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		long kb;

		if (p == MAP_FAILED || set_self(v))
			_exit(2);
		fill(p, len, 7);
		if (madvise(p, len, MADV_PAGEOUT))
			_exit(3);
		kb = pid_status(getpid(), "VmSwap");
		if (write(fd[1], &kb, sizeof(kb)) != sizeof(kb))
			_exit(4);
		_exit(verify(p, len, 7) == -1 ? 0 : 5);
	}
	close(fd[1]);
	*counted = protected_and_demoted();
	if (read(fd[0], &r, sizeof(r)) != sizeof(r))
		r = -1;
	close(fd[0]);
	*counted = protected_and_demoted() - *counted;
	st = wait_child(pid);
	if (st)
		return -1000 - st;
	return r;
}

/* Hold 16 MB at @v in CG; write @file; the kB of it that went to swap. */
static long cgroup_request_at(int v, const char *file, const char *val, long long *counted,
			      int *werr)
{
	size_t len = 16 * MB;
	int ready[2], go[2];
	pid_t pid;
	int st;
	long kb;
	char c;

	make_cgroup(NULL);
	if (pipe(ready) || pipe(go))
		return -errno;
	pid = fork();
	if (!pid) {
		char *p;

		join_cgroup(CG);
		p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED || set_self(v))
			_exit(2);
		fill(p, len, 9);
		if (write(ready[1], "r", 1) != 1 || read(go[0], &c, 1) != 1)
			_exit(3);
		_exit(verify(p, len, 9) == -1 ? 0 : 5);
	}
	if (read(ready[0], &c, 1) != 1)
		return -1;
	*counted = protected_and_demoted();
	*werr = write_file(strcmp(file, "memory.reclaim") ? CG "/memory.max" : CG "/memory.reclaim",
			   val);
	*counted = protected_and_demoted() - *counted;
	kb = pid_status(pid, "VmSwap");
	if (write(go[1], "g", 1) != 1)
		kb = -1;
	st = wait_child(pid);
	if (st)
		kb = -1000 - st;
	close(ready[0]); close(ready[1]); close(go[0]); close(go[1]);
	rmdir(CG);
	return kb;
}

static int test_explicit(void)
{
	static const int values[] = { -5, 0, 5 };
	long long counted;
	int lru, werr;
	size_t i;
	long kb;

	ksft_set_plan(2 * (2 * ARRAY_SIZE(values) + 6));
	for (lru = 0; lru < 2; lru++) {
		const char *name = lru ? "MGLRU" : "classic";

		if (!set_mglru(lru))
			ksft_exit_fail_msg("cannot switch to the %s LRU\n", name);
		/* The key on: reclaim weighs swapnice from here on. */
		set_self(1);
		set_self(0);
		for (i = 0; i < ARRAY_SIZE(values); i++) {
			kb = pageout_at(values[i], &counted);
			ksft_test_result(kb >= 15 * 1024,
					 "%s: MADV_PAGEOUT of 16 MB at swapnice %d: %ld kB in swap (wanted >= 15360, data checked)\n",
					 name, values[i], kb);
			ksft_test_result(counted == 0,
					 "%s: MADV_PAGEOUT at %d neither protected nor demoted (%lld pages counted)\n",
					 name, values[i], counted);
		}
		kb = cgroup_request_at(-5, "memory.reclaim", "12M", &counted, &werr);
		ksft_test_result(!werr && kb >= 8 * 1024,
				 "%s: memory.reclaim 12M of a cgroup at -5: %ld kB in swap (wanted >= 8192; write %d)\n",
				 name, kb, werr);
		ksft_test_result(counted == 0, "%s: memory.reclaim neither protected nor demoted (%lld)\n",
				 name, counted);
		kb = cgroup_request_at(5, "memory.reclaim", "12M", &counted, &werr);
		ksft_test_result(!werr && kb >= 8 * 1024,
				 "%s: memory.reclaim 12M of a cgroup at 5: %ld kB in swap (wanted >= 8192; write %d)\n",
				 name, kb, werr);
		ksft_test_result(counted == 0, "%s: memory.reclaim at 5 neither protected nor demoted (%lld)\n",
				 name, counted);
		kb = cgroup_request_at(-5, "memory.max", "4M", &counted, &werr);
		ksft_test_result(!werr && kb >= 8 * 1024,
				 "%s: writing memory.max 4M over 16 MB at -5: %ld kB in swap (wanted >= 8192; write %d)\n",
				 name, kb, werr);
		ksft_test_result(counted == 0, "%s: the memory.max write neither protected nor demoted (%lld)\n",
				 name, counted);
	}
	return 0;
}

/* ------------------------------------------------------------ bug 3 */

/*
 * What reclaim makes of @pid's memory, seen from a charging task: a hog at
 * 5 fills CG (memory.max 24M) in which @pid holds 8 MB.  An owner below 5
 * keeps its memory; one at or above 5 loses it first, being idle.  Returns
 * @pid's VmSwap in kB afterwards.
 */
static long hog_at_5(pid_t pid)
{
	size_t len = 40 * MB;
	pid_t hog = fork();
	long kb;

	if (!hog) {
		char *p;
		int round;

		join_cgroup(CG);
		if (set_self(5))
			_exit(2);
		p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			_exit(3);
		for (round = 0; round < 3; round++)
			fill(p, len, 11);
		_exit(verify(p, len, 11) == -1 ? 0 : 5);
	}
	if (wait_child(hog))
		return -1000 - 1;
	kb = pid_status(pid, "VmSwap");
	return kb;
}

/* The holder: exec @execs times, writing 'x' before each; then hold 8 MB. */
static int exec_child(int execs, int fd, char *self)
{
	size_t len = 8 * MB;
	char *p;
	char c;

	if (execs > 0) {
		/* Below MAX_ARG_STRLEN (32 pages) each, 1.5 MB in all. */
		static char big[12][120 * 1024];
		char *envp[ARRAY_SIZE(big) + 1];
		char n[16], f[16];
		char *argv[] = { self, "exec-child", n, f, NULL };
		size_t i;

		/* A large environment widens exec's window between mm and switch. */
		for (i = 0; i < ARRAY_SIZE(big); i++) {
			memset(big[i], 'e', sizeof(big[i]) - 1);
			big[i][0] = 'A' + i;
			big[i][1] = '=';
			envp[i] = big[i];
		}
		envp[i] = NULL;
		snprintf(n, sizeof(n), "%d", execs - 1);
		snprintf(f, sizeof(f), "%d", fd);
		if (write(fd, "x", 1) != 1)
			return 2;
		execve(self, argv, envp);
		return 3;
	}
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 4;
	fill(p, len, 13);
	if (write(fd, "r", 1) != 1)
		return 5;
	/* Wait for the parent's verdict, then check what came back. */
	if (read(fd, &c, 1) < 0)
		return 7;
	return verify(p, len, 13) == -1 ? 0 : 6;
}

/*
 * @pid's /proc value in @shown, then the kB a hog at 5 takes of its memory;
 * a byte on @go lets it check what came back.  Reaps it, removes CG.
 */
static long hog_verdict(pid_t pid, int go, int *shown)
{
	char path[64];
	long kb;
	int st;

	snprintf(path, sizeof(path), "/proc/%d/swapnice", pid);
	*shown = (int)read_long(path, -100);
	kb = hog_at_5(pid);
	if (write(go, "g", 1) != 1)
		kb = -1;
	st = wait_child(pid);
	if (st)
		kb = -1000 - st;
	rmdir(CG);
	return kb;
}

/*
 * Start the holder at @from in CG; as it starts its last exec, set it to
 * @to through /proc.  Return its VmSwap after a hog at 5, or -errno.
 */
static long exec_race(int from, int to, int *shown)
{
	int sv[2];
	pid_t pid;
	long kb;
	char c;

	make_cgroup("24M");
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		return -errno;
	pid = fork();
	if (!pid) {
		char fd[16];
		char *argv[] = { "/proc/self/exe", "exec-child", "1", fd, NULL };

		close(sv[0]);
		join_cgroup(CG);
		if (set_self(from))
			_exit(2);
		snprintf(fd, sizeof(fd), "%d", sv[1]);
		execv("/proc/self/exe", argv);
		_exit(3);
	}
	close(sv[1]);
	/* Writes that land while each exec copies its environment. */
	while (read(sv[0], &c, 1) == 1 && c == 'x')
		proc_set(pid, to);
	kb = hog_verdict(pid, sv[0], shown);
	close(sv[0]);
	return kb;
}

/* A vfork child that sets its value and execs must leave its parent's alone. */
static long vfork_sets(int *shown)
{
	size_t len = 8 * MB;
	int ready[2], go[2];
	pid_t pid;
	long kb;
	char c;

	make_cgroup("24M");
	if (pipe(ready) || pipe(go))
		return -errno;
	pid = fork();
	if (!pid) {
		char *p;
		pid_t v;

		join_cgroup(CG);
		p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED || set_self(0))
			_exit(2);
		fill(p, len, 17);
		v = vfork();
		if (!v) {
			/* posix_spawn's child, setting its own priority. */
			prctl(PR_SET_SWAPNICE, 10UL, 0, 0, 0);
			execl("/bin/true", "true", (char *)NULL);
			_exit(127);
		}
		if (v < 0 || wait_child(v))
			_exit(4);
		if (write(ready[1], "r", 1) != 1 || read(go[0], &c, 1) != 1)
			_exit(5);
		_exit(verify(p, len, 17) == -1 ? 0 : 6);
	}
	if (read(ready[0], &c, 1) != 1)
		return -1;
	kb = hog_verdict(pid, go[1], shown);
	close(ready[0]); close(ready[1]); close(go[0]); close(go[1]);
	return kb;
}

static int test_exec(void)
{
	int shown, round;
	long kb;

	ksft_set_plan(2 + 2 * 2 + 2);
	set_mglru(false);

	/* Both ways first: the hog takes an owner at 10's memory, not one at 0's. */
	kb = exec_race(10, 10, &shown);
	ksft_test_result(shown == 10 && kb >= 4 * 1024,
			 "control: a holder at 10 loses its memory to a hog at 5 (%ld kB of 8192 swapped, wanted >= 4096)\n",
			 kb);
	kb = exec_race(0, 0, &shown);
	ksft_test_result(shown == 0 && kb >= 0 && kb < 1024,
			 "control: a holder at 0 keeps its memory from a hog at 5 (%ld kB swapped, wanted < 1024)\n",
			 kb);
	for (round = 0; round < 2; round++) {
		kb = exec_race(0, 10, &shown);
		ksft_test_result(shown == 10 && kb >= 4 * 1024,
				 "exec race %d: set to 10 during exec; /proc shows %d, reclaim took %ld kB (wanted >= 4096)\n",
				 round, shown, kb);
		kb = exec_race(10, 0, &shown);
		ksft_test_result(shown == 0 && kb >= 0 && kb < 1024,
				 "exec race %d: set to 0 during exec; /proc shows %d, reclaim took %ld kB (wanted < 1024)\n",
				 round, shown, kb);
	}
	kb = vfork_sets(&shown);
	ksft_test_result(shown == 0,
			 "vfork: the parent's /proc value is still 0 after its child set 10 (got %d)\n", shown);
	ksft_test_result(kb >= 0 && kb < 1024,
			 "vfork: reclaim still treats the parent as 0 (%ld kB swapped, wanted < 1024)\n", kb);
	set_mglru(true);
	return 0;
}

/* ------------------------------------------------------------ bug 6 */

/* As uid 65534 with RLIMIT_NICE allowing nice -5: lower to -5, not -6. */
static int rlimit_child(void)
{
	struct rlimit rl = { 25, 25 };	/* 20 - (-5) */
	int bad = 0;

	if (setrlimit(RLIMIT_NICE, &rl) || setgid(65534) || setuid(65534))
		return 0x80;
	if (set_self(-5) != 0 || self_swapnice() != -5)
		bad |= 1;
	if (set_self(-6) != -EACCES || self_swapnice() != -5)
		bad |= 2;
	return bad;
}

static int test_perms(void)
{
	int sv[2], fd = -1, pidfd, err, status, c;
	pid_t pid;

	ksft_set_plan(7);

	/* An unprivileged opener hands its fd to root, who writes -5. */
	if (pipe(sv))
		ksft_exit_fail_msg("pipe: %s\n", strerror(errno));
	pid = fork();
	if (!pid) {
		int f;

		if (setgid(65534) || setuid(65534) || prctl(PR_SET_DUMPABLE, 1))
			_exit(2);
		f = open("/proc/self/swapnice", O_WRONLY);
		if (f < 0 || write(sv[1], &f, sizeof(f)) != sizeof(f))
			_exit(3);
		pause();
		_exit(0);
	}
	if (read(sv[0], &fd, sizeof(fd)) != sizeof(fd))
		fd = -1;
	pidfd = syscall(SYS_pidfd_open, pid, 0);
	fd = pidfd >= 0 && fd >= 0 ? syscall(SYS_pidfd_getfd, pidfd, fd, 0) : -1;
	err = fd < 0 ? -1000 : (write(fd, "-5", 2) < 0 ? -errno : 0);
	{
		char path[64];

		snprintf(path, sizeof(path), "/proc/%d/swapnice", pid);
		c = (int)read_long(path, -100);
	}
	ksft_test_result(err == -EACCES && c == 0,
			 "root writing -5 through an fd opened by uid 65534: EACCES, value 0 (err %d, value %d)\n",
			 err, c);
	kill(pid, SIGKILL);
	wait_child(pid);
	if (fd >= 0)
		close(fd);

	/* setpriority(2)'s rule: within RLIMIT_NICE without CAP_SYS_NICE. */
	pid = fork();
	if (!pid)
		_exit(rlimit_child());
	status = wait_child(pid);
	ksft_test_result(!(status & ~2) && !(status & 1),
			 "uid 65534 with RLIMIT_NICE 25 lowers its swapnice to -5 (status %#x)\n", status);
	ksft_test_result(!(status & ~1) && !(status & 2),
			 "but not to -6: EACCES, value unchanged (status %#x)\n", status);

	/* An int through prctl()'s varargs arrives with its upper half zero. */
	err = prctl(PR_SET_SWAPNICE, -3, 0, 0, 0) ? -errno : 0;
	ksft_test_result(!err && self_swapnice() == -3,
			 "prctl(PR_SET_SWAPNICE, -3) with an int: accepted (err %d, value %d)\n",
			 err, self_swapnice());
	err = syscall(SYS_prctl, PR_SET_SWAPNICE, 0xfffffffbUL, 0UL, 0UL, 0UL) ? -errno : 0;
	ksft_test_result(!err && self_swapnice() == -5,
			 "0xfffffffb, a zero-extended -5: accepted (err %d, value %d)\n",
			 err, self_swapnice());
	err = syscall(SYS_prctl, PR_SET_SWAPNICE, (1UL << 32) | 3, 0UL, 0UL, 0UL) ? -errno : 0;
	ksft_test_result(err == -EINVAL && self_swapnice() == -5,
			 "(1 << 32) | 3 is not taken for 3: EINVAL (err %d, value %d)\n",
			 err, self_swapnice());
	set_self(0);
	/* kthreadd: a kernel thread's value would weigh nothing. */
	err = proc_set(2, 5);
	ksft_test_result(err == -EINVAL, "writing a kernel thread's swapnice: EINVAL (err %d)\n", err);
	return 0;
}

/* ------------------------------------------------------------ bug 5 */

static int test_kswapd(void)
{
	size_t len, burst = 32 * MB;
	long long before, pressed0;
	int round;
	long bad = -1;
	char *p, *q;

	ksft_set_plan(3);
	/* Somebody used swapnice once: the key is on, reclaim weighs it. */
	set_self(10);
	set_self(0);
	/* Fill what is free, then allocate bursts beyond it, idle between. */
	len = (size_t)status_field("/proc/meminfo", "MemAvailable") * 1024 - 16 * MB;
	len &= ~(PAGE - 1);
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));
	fill(p, len, 19);
	before = protected_and_demoted();
	pressed0 = vmstat("pgsteal_kswapd");
	for (round = 0; round < 4; round++) {
		/* Longer than kswapd's record of demand lasts. */
		sleep(2);
		q = mmap(NULL, burst, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (q == MAP_FAILED)
			ksft_exit_fail_msg("mmap: %s\n", strerror(errno));
		fill(q, burst, 23);
		if (bad == -1 && verify(q, burst, 23) != -1)
			bad = 1000000;
		munmap(q, burst);
	}
	ksft_test_result(vmstat("pgsteal_kswapd") - pressed0 > 1000,
			 "kswapd reclaimed (%lld pages, wanted > 1000)\n",
			 vmstat("pgsteal_kswapd") - pressed0);
	ksft_test_result(protected_and_demoted() - before == 0,
			 "with everybody at 0 nothing was protected or demoted (%lld pages)\n",
			 protected_and_demoted() - before);
	if (bad == -1)
		bad = verify(p, len, 19);
	ksft_test_result(bad == -1, "the memory came back intact (first bad page %ld)\n", bad);
	munmap(p, len);
	return 0;
}

/* ------------------------------------------- putback (review of 12-07) */

#define NODE_BITS	64

static long node_free_kb(int node)
{
	char path[80], line[256], key[32];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/meminfo", node);
	snprintf(key, sizeof(key), "Node %d MemFree:", node);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, strlen(key)))
			v = strtol(line + strlen(key), NULL, 10);
	fclose(f);
	return v;
}

static int bind_to_node(int node)
{
	unsigned long mask = 1UL << node;

	/* MPOL_BIND */
	return syscall(SYS_set_mempolicy, 2, &mask, NODE_BITS) ? -errno : 0;
}

/*
 * An idle holder of @len bytes at swapnice @v on @node: fills them, says
 * so on @fd, waits for a byte on @go, checks them and exits with 0, or 1
 * if a page came back wrong.
 */
static pid_t idle_holder(int node, int v, size_t len, unsigned long seed,
			 int fd, int go)
{
	pid_t pid = fork();
	char *p, c = 0;
	long bad;

	if (pid)
		return pid;
	if (bind_to_node(node) || set_self(v))
		_exit(3);
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		_exit(3);
	fill(p, len, seed);
	if (write(fd, &c, 1) != 1 || read(go, &c, 1) != 1)
		_exit(3);
	bad = verify(p, len, seed);
	if (bad != -1)
		fprintf(stderr, "# holder on node %d: page %ld came back wrong\n", node, bad);
	_exit(bad != -1);
}

/* Migrate all of @pid's memory from node 0 to node 1, at swapnice @v. */
static long migrate_at(pid_t pid, int v)
{
	unsigned long from = 1UL, to = 2UL;
	pid_t mover = fork();
	long left;

	if (!mover) {
		if (set_self(v))
			_exit(3);
		left = syscall(SYS_migrate_pages, pid, NODE_BITS, &from, &to);
		_exit(left ? 4 : 0);
	}
	return wait_child(mover);
}

/*
 * Two idle processes at 0 hold the same amount on node 1: B faulted its
 * memory there first, A's was faulted on node 0 and then migrated to
 * node 1 by a process at @mover_value.  C, at 10, faulted a smaller
 * amount on node 1 after B.  A process at 0 then allocates on node 1
 * beyond what is free.  C's new folios start at the inactive tail (while
 * kswapd sleeps, those of a process above 0 do), so reclaim at 0 takes
 * C's first: the control that tail placement works in this boot.
 * Migrated folios are put back at the head, newer than B's, so B loses
 * before A whoever migrated them.  When the mover's value decided, a
 * mover at 10 put A's folios at the tail, and A lost first.
 */
static int putback_case(int mover_value)
{
	size_t len = 24 * MB, clen = 8 * MB, extra;
	long long migrated0, moved, want = (long long)(len / PAGE) * 9 / 10;
	long a_kb, b_kb, c_kb, a_peak = 0, b_peak = 0, c_peak = 0, free_before;
	int ready[2], go[2], sa, sb, sc, rc;
	pid_t a, b, cp, hog;
	char c = 0;

	if (pipe(ready) || pipe(go))
		ksft_exit_fail_msg("pipe: %s\n", strerror(errno));
	b = idle_holder(1, 0, len, 41, ready[1], go[0]);
	if (read(ready[0], &c, 1) != 1)
		ksft_exit_fail_msg("holder on node 1 did not start\n");
	cp = idle_holder(1, 10, clen, 53, ready[1], go[0]);
	if (read(ready[0], &c, 1) != 1)
		ksft_exit_fail_msg("holder at 10 on node 1 did not start\n");
	a = idle_holder(0, 0, len, 43, ready[1], go[0]);
	if (read(ready[0], &c, 1) != 1)
		ksft_exit_fail_msg("holder on node 0 did not start\n");
	free_before = node_free_kb(1);
	migrated0 = vmstat("pgmigrate_success");
	rc = migrate_at(a, mover_value);
	moved = vmstat("pgmigrate_success") - migrated0;
	/* A migration that ran short of node 1's memory says so here. */
	ksft_print_msg("mover at %d: node 1 had %ld kB free before the migration, %ld kB after\n",
		       mover_value, free_before, node_free_kb(1));
	ksft_test_result(rc == 0 && moved >= want,
			 "mover at %d: migrate_pages moved the holder to node 1 (status %d, %lld pages, expected >= %lld)\n",
			 mover_value, rc, moved, want);
	/* Press node 1: its free memory and 24 MB more, from a process at 0. */
	extra = (size_t)node_free_kb(1) * 1024 + 24 * MB;
	hog = fork();
	if (!hog) {
		char *p;

		if (bind_to_node(1))
			_exit(3);
		p = mmap(NULL, extra, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			_exit(3);
		fill(p, extra, 47);
		_exit(verify(p, extra, 47) != -1);
	}
	for (rc = -1;;) {
		pid_t done = waitpid(hog, &rc, WNOHANG);

		a_kb = pid_status(a, "VmSwap");
		b_kb = pid_status(b, "VmSwap");
		c_kb = pid_status(cp, "VmSwap");
		a_peak = a_kb > a_peak ? a_kb : a_peak;
		b_peak = b_kb > b_peak ? b_kb : b_peak;
		c_peak = c_kb > c_peak ? c_kb : c_peak;
		if (done)
			break;
		usleep(100000);
	}
	ksft_print_msg("result mover=%d migrated_pages=%lld migrated_peak_swap_kb=%ld older_peak_swap_kb=%ld at10_peak_swap_kb=%ld\n",
		       mover_value, moved, a_peak, b_peak, c_peak);
	ksft_test_result(c_peak * 10 >= (long)(clen / 1024) * 9,
			 "mover at %d: the holder at 10, faulted last, lost its memory first (%ld of %zu kB, expected >= 90%%)\n",
			 mover_value, c_peak, clen / 1024);
	ksft_test_result(WIFEXITED(rc) && !WEXITSTATUS(rc),
			 "mover at %d: the allocation on node 1 finished with its memory intact (status %#x)\n",
			 mover_value, rc);
	/* The scenario pressed: the holders lost at least 4 MB between them. */
	ksft_test_result(a_peak + b_peak >= 4096,
			 "mover at %d: reclaim on node 1 reached the idle holders (%ld kB lost between them, expected >= 4096)\n",
			 mover_value, a_peak + b_peak);
	ksft_test_result(a_peak < b_peak,
			 "mover at %d: the migrated holder lost less than the older one (%ld kB against %ld kB)\n",
			 mover_value, a_peak, b_peak);
	if (write(go[1], "ggg", 3) != 3)
		ksft_exit_fail_msg("write: %s\n", strerror(errno));
	sa = wait_child(a);
	sb = wait_child(b);
	sc = wait_child(cp);
	ksft_test_result(sa == 0 && sb == 0 && sc == 0,
			 "mover at %d: the holders' memory came back intact (status %d, %d, %d)\n",
			 mover_value, sa, sb, sc);
	close(ready[0]);
	close(ready[1]);
	close(go[0]);
	close(go[1]);
	return 0;
}

static int test_putback(void)
{
	if (node_free_kb(1) < 0)
		ksft_exit_fail_msg("no node 1: boot with two NUMA nodes\n");
	ksft_set_plan(12);
	/* Somebody used swapnice once: the key is on, reclaim weighs it. */
	set_self(10);
	set_self(0);
	/* Placement at the tail is the active/inactive lists'. */
	if (!set_mglru(false))
		ksft_exit_fail_msg("cannot switch to the active/inactive lists\n");
	/* The mover at 0 shows the order without swapnice; at 10, with it. */
	putback_case(0);
	putback_case(10);
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	/* A child that died shows as a failed check, not as our death. */
	signal(SIGPIPE, SIG_IGN);
	if (argc >= 4 && !strcmp(argv[1], "exec-child"))
		return exec_child(atoi(argv[2]), atoi(argv[3]), argv[0]);
	if (argc < 2) {
		fprintf(stderr, "usage: regress unevictable SECONDS|explicit|exec|perms|kswapd|putback\n");
		return 2;
	}
	ksft_print_header();
	if (!have_swapnice())
		ksft_exit_fail_msg("no /proc/self/swapnice: the kernel lacks the series\n");
	if (!strcmp(argv[1], "unevictable"))
		test_unevictable(argc > 2 ? atoi(argv[2]) : 30);
	else if (!strcmp(argv[1], "explicit"))
		test_explicit();
	else if (!strcmp(argv[1], "exec"))
		test_exec();
	else if (!strcmp(argv[1], "perms"))
		test_perms();
	else if (!strcmp(argv[1], "kswapd"))
		test_kswapd();
	else if (!strcmp(argv[1], "putback"))
		test_putback();
	else
		ksft_exit_fail_msg("unknown test '%s'\n", argv[1]);
	ksft_finished();
	return 0;
}

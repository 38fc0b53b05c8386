// SPDX-License-Identifier: GPL-2.0
/*
 * swapnice's interfaces: /proc/<pid>/swapnice, prctl, the status line;
 * inheritance across fork, exec and threads; rejected input; permissions.
 */
#define _GNU_SOURCE
#include <linux/capability.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "kselftest.h"
#include "scenario.h"

static int proc_get(int pid)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/swapnice", pid);
	return (int)read_long(path, -100);
}

/* Write @s (of @len bytes) to /proc/@pid/swapnice; 0 or -errno. */
static int proc_write(int pid, const char *s, size_t len)
{
	char path[64];
	int fd, err = 0;

	snprintf(path, sizeof(path), "/proc/%d/swapnice", pid);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	if (write(fd, s, len) < 0)
		err = -errno;
	close(fd);
	return err;
}

static int proc_set(int pid, int v)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%d\n", v);
	return proc_write(pid, buf, strlen(buf));
}

static int prctl_set(long v)
{
	return prctl(PR_SET_SWAPNICE, (unsigned long)v, 0, 0, 0) ? -errno : 0;
}

/* Run @fn in a child; its exit status. */
static int in_child(int (*fn)(void *), void *arg)
{
	int status;
	pid_t pid = fork();

	if (!pid)
		_exit(fn(arg));
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 255;
}

static int child_value(void *arg)
{
	(void)arg;
	return self_swapnice() + 20;
}

static void *thread_set(void *arg)
{
	(void)arg;
	prctl_set(9);
	return NULL;
}

static int capset_only(__u32 cap_bits)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2] = { { 0 } };

	d[0].effective = d[0].permitted = cap_bits;
	return syscall(SYS_capset, &h, d);
}

/* Unprivileged checks, as uid 65534; returns a bit per failed check. */
static int unprivileged(void *arg)
{
	int parent = *(int *)arg, bad = 0, err;

	if (setgid(65534) || setuid(65534))
		return 0x80;
	if (prctl_set(5) != 0 || self_swapnice() != 5)
		bad |= 1;	/* may raise its own */
	if (prctl_set(3) != -EACCES || self_swapnice() != 5)
		bad |= 2;	/* may not lower it */
	err = proc_set(parent, 8);
	if (err != -EACCES && err != -EPERM)
		bad |= 4;	/* may not touch root's process */
	return bad;
}

/* As uid 65534 with CAP_SYS_NICE only. */
static int with_sys_nice(void *arg)
{
	(void)arg;
	prctl_set(6);
	if (prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) || setgid(65534) || setuid(65534))
		return 0x80;
	if (capset_only(1U << CAP_SYS_NICE))
		return 0x40;
	if (prctl_set(-3) != 0 || self_swapnice() != -3)
		return 1;
	return 0;
}

int main(void)
{
	static const char *const bad_inputs[] = {
		"abc", "", "20", "-21", "99999999999", "5junk", "\n", " ", "+",
		"0x5", "--1", "1 2",
	};
	char big[4096], line[64];
	int self = getpid(), err, status;
	pthread_t th;
	size_t i;
	FILE *f;

	setvbuf(stdout, NULL, _IOLBF, 0);
	ksft_print_header();
	if (!have_swapnice())
		ksft_exit_fail_msg("no /proc/self/swapnice: the kernel lacks the series\n");
	ksft_set_plan(22 + ARRAY_SIZE(bad_inputs));

	ksft_test_result(proc_get(self) == 0, "default is 0 (got %d)\n", proc_get(self));
	ksft_test_result(self_swapnice() == 0, "prctl agrees: 0 (got %d)\n", self_swapnice());
	ksft_test_result(pid_status(self, "SwapNice") == 0,
			 "/proc/self/status has SwapNice: 0 (got %ld)\n", pid_status(self, "SwapNice"));

	err = prctl_set(5);
	ksft_test_result(!err && proc_get(self) == 5,
			 "prctl(PR_SET_SWAPNICE, 5) shows in /proc (err %d, got %d)\n", err, proc_get(self));
	ksft_test_result(pid_status(self, "SwapNice") == 5,
			 "status line follows: 5 (got %ld)\n", pid_status(self, "SwapNice"));
	err = proc_set(self, 7);
	ksft_test_result(!err && self_swapnice() == 7,
			 "write 7 to /proc/self/swapnice shows in prctl (err %d, got %d)\n", err, self_swapnice());
	err = proc_set(self, -20);
	ksft_test_result(!err && proc_get(self) == -20, "-20 is accepted (err %d, got %d)\n", err, proc_get(self));
	err = proc_set(self, 19);
	ksft_test_result(!err && proc_get(self) == 19, "19 is accepted (err %d, got %d)\n", err, proc_get(self));
	proc_set(self, 7);

	status = in_child(child_value, NULL) - 20;
	ksft_test_result(status == 7, "fork: the child inherits 7 (got %d)\n", status);

	f = popen("cat /proc/self/swapnice", "r");
	line[0] = '\0';
	if (f) {
		if (!fgets(line, sizeof(line), f))
			line[0] = '\0';
		pclose(f);
	}
	ksft_test_result(atoi(line) == 7 && line[0], "exec: a new program keeps 7 (got '%.*s')\n",
			 (int)strcspn(line, "\n"), line);

	pthread_create(&th, NULL, thread_set, NULL);
	pthread_join(th, NULL);
	ksft_test_result(self_swapnice() == 9 && proc_get(self) == 9,
			 "threads share it: a thread's prctl(9) shows in the main thread (got %d)\n",
			 self_swapnice());

	proc_set(self, 4);
	for (i = 0; i < ARRAY_SIZE(bad_inputs); i++) {
		err = proc_write(self, bad_inputs[i], strlen(bad_inputs[i]));
		ksft_test_result(err == -EINVAL && proc_get(self) == 4,
				 "write '%s' rejected with EINVAL, value unchanged (err %d, value %d)\n",
				 bad_inputs[i][0] == '\n' ? "\\n" : bad_inputs[i], err, proc_get(self));
	}
	memset(big, '1', sizeof(big));
	err = proc_write(self, big, sizeof(big));
	ksft_test_result(err == -EINVAL && proc_get(self) == 4,
			 "a 4 KB write is rejected with EINVAL, value unchanged (err %d, value %d)\n",
			 err, proc_get(self));

	err = prctl_set(20);
	ksft_test_result(err == -EINVAL && self_swapnice() == 4,
			 "prctl(PR_SET_SWAPNICE, 20): EINVAL, unchanged (err %d)\n", err);
	err = prctl_set(-21);
	ksft_test_result(err == -EINVAL && self_swapnice() == 4,
			 "prctl(PR_SET_SWAPNICE, -21): EINVAL, unchanged (err %d)\n", err);
	err = prctl_set(1L << 32);
	ksft_test_result(err == -EINVAL && self_swapnice() == 4,
			 "prctl(PR_SET_SWAPNICE, 1 << 32): EINVAL, unchanged (err %d)\n", err);
	err = prctl(PR_SET_SWAPNICE, 3, 1, 0, 0) ? -errno : 0;
	ksft_test_result(err == -EINVAL && self_swapnice() == 4,
			 "prctl(PR_SET_SWAPNICE, 3, 1): EINVAL for a non-zero unused argument (err %d)\n", err);
	err = prctl(PR_GET_SWAPNICE, 1, 0, 0, 0) < 0 ? -errno : 0;
	ksft_test_result(err == -EINVAL, "prctl(PR_GET_SWAPNICE, 1): EINVAL (err %d)\n", err);

	/* Root (this test) sets another process's value through /proc. */
	{
		pid_t pid = fork();

		if (!pid) {
			pause();
			_exit(0);
		}
		err = proc_set(pid, 12);
		ksft_test_result(!err && proc_get(pid) == 12,
				 "root sets another process's value (err %d, got %d)\n", err, proc_get(pid));
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}

	proc_set(self, 0);
	status = in_child(unprivileged, &self);
	ksft_test_result(!(status & 0x81), "uid 65534 raises its own value (status 0x%x)\n", status);
	ksft_test_result(!(status & 0x82), "uid 65534 cannot lower it: EACCES (status 0x%x)\n", status);
	ksft_test_result(!(status & 0x84) && proc_get(self) == 0,
			 "uid 65534 cannot change root's process: EACCES or EPERM, unchanged (status 0x%x, value %d)\n",
			 status, proc_get(self));
	status = in_child(with_sys_nice, NULL);
	ksft_test_result(status == 0, "uid 65534 with CAP_SYS_NICE lowers 6 to -3 (status 0x%x)\n", status);

	ksft_finished();
}

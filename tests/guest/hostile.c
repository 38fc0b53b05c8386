// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile input: generated writes to /proc/<pid>/swapnice, to the vm
 * sysctls of the series and to prctl.  After each, a rejected input must
 * have changed nothing and answered the documented error; an accepted one
 * must have set what it says.  The kernel must log nothing.
 *
 *   hostile [N]   N generated inputs per interface family (default 4000)
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <limits.h>
#include <sys/wait.h>

#include "kselftest.h"
#include "scenario.h"

static unsigned long long rng = 0x5eed2004ULL;

static unsigned long long next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static long failures, inputs;
static char why[512];

static void bad(const char *fmt, const char *in, size_t len, long a, long b)
{
	char shown[64];
	size_t i, n = 0;

	for (i = 0; i < len && n < sizeof(shown) - 5; i++)
		n += snprintf(shown + n, sizeof(shown) - n,
			      isprint((unsigned char)in[i]) ? "%c" : "\\x%02x",
			      (unsigned char)in[i]);
	if (failures++ < 10) {
		snprintf(why, sizeof(why), fmt, a, b);
		ksft_print_msg("input '%s' (%zu bytes): %s\n", shown, len, why);
	}
}

/* What the series documents /proc/<pid>/swapnice to accept. */
static bool proc_accepts(const char *s, size_t len, int *val)
{
	char buf[32], *p, *end;
	long v;

	if (len > 12 || memchr(s, '\0', len))
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	p = buf;
	while (*p && isspace((unsigned char)*p))
		p++;
	end = p + strlen(p);
	while (end > p && isspace((unsigned char)end[-1]))
		*--end = '\0';
	if (*p == '+' || *p == '-')
		p++;
	if (!*p)
		return false;
	for (end = p; *end; end++)
		if (!isdigit((unsigned char)*end))
			return false;
	errno = 0;
	v = strtol(buf + strspn(buf, " \t\n\v\f\r"), NULL, 10);
	if (errno || v < INT_MIN || v > INT_MAX || v < -20 || v > 19)
		return false;
	*val = (int)v;
	return true;
}

static int get(int pid)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/swapnice", pid);
	return (int)read_long(path, -100);
}

static int set_plain(int pid, int v)
{
	char path[64], buf[16];

	snprintf(path, sizeof(path), "/proc/%d/swapnice", pid);
	snprintf(buf, sizeof(buf), "%d", v);
	return write_file(path, buf);
}

/* One write of @len bytes at @off; 0 or -errno. */
static int raw_write(int pid, const char *s, size_t len, off_t off)
{
	char path[64];
	int fd, err = 0;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/swapnice", pid);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	n = off ? pwrite(fd, s, len, off) : write(fd, s, len);
	if (n < 0)
		err = -errno;
	else if ((size_t)n != len)
		err = -EIO;
	close(fd);
	return err;
}

static const char *const seeds[] = {
	"0", "19", "-20", "20", "-21", "5", "-5", "+5", "-0", "+0", "007",
	" 5", "5 ", "\t5\n", "\n", "", " ", "+", "-", "--1", "+-1", "1 2",
	"0x5", "5.0", "5junk", "junk", "2147483647", "-2147483648",
	"2147483648", "99999999999", "-99999999999", "9223372036854775807",
	"18446744073709551616", "1e3", "\v\f\r5", "0005", "00000000019",
	"000000000019", "-000000000020",
};

static void gen(char *buf, size_t *len)
{
	unsigned long long r = next();
	size_t i, n;

	switch (r % 6) {
	case 0: /* a seed */
		n = strlen(seeds[(r >> 8) % ARRAY_SIZE(seeds)]);
		memcpy(buf, seeds[(r >> 8) % ARRAY_SIZE(seeds)], n);
		*len = n;
		break;
	case 1: /* a number, in range or near it, with spaces */
		*len = snprintf(buf, 64, "%s%lld%s", (r >> 8) & 1 ? " " : "",
				(long long)((r >> 16) % 81) - 40, (r >> 9) & 1 ? "\n" : "");
		break;
	case 2: /* a huge number */
		*len = snprintf(buf, 64, "%lld", (long long)next());
		break;
	case 3: /* printable junk */
		n = 1 + (r >> 8) % 14;
		for (i = 0; i < n; i++)
			buf[i] = " +-0123456789\nx\t."[next() % 17];
		*len = n;
		break;
	case 4: /* binary */
		n = 1 + (r >> 8) % 16;
		for (i = 0; i < n; i++)
			buf[i] = (char)next();
		*len = n;
		break;
	default: /* overlong */
		n = 13 + (r >> 8) % 4000;
		for (i = 0; i < n; i++)
			buf[i] = '0' + next() % 10;
		*len = n;
		break;
	}
}

static void proc_inputs(int pid, long count)
{
	static char buf[4200];
	long i;

	for (i = 0; i < count; i++) {
		int before = (int)(next() % 40) - 20, want, after, err;
		size_t len;
		bool ok;

		set_plain(pid, before);
		gen(buf, &len);
		ok = proc_accepts(buf, len, &want);
		err = raw_write(pid, buf, len, 0);
		after = get(pid);
		inputs++;
		if (ok && (err || after != want))
			bad("valid input: expected %ld, got err %ld", buf, len, want, err);
		else if (!ok && (err != -EINVAL || after != before))
			bad("expected EINVAL and no change, got err %ld, value moved by %ld",
			    buf, len, err, after - before);
	}
}

/* Partial writes and offsets: a second write, or a write at an offset, is refused. */
static void offset_inputs(int pid, long count)
{
	char path[64];
	long i;

	snprintf(path, sizeof(path), "/proc/%d/swapnice", pid);
	for (i = 0; i < count; i++) {
		off_t off = 1 + next() % 20;
		int err, fd;

		set_plain(pid, 3);
		err = raw_write(pid, "5", 1, off);
		inputs++;
		if (err != -EINVAL || get(pid) != 3)
			bad("pwrite at offset %ld: expected EINVAL, unchanged (err %ld)", "5", 1, off, err);

		fd = open(path, O_WRONLY);
		if (write(fd, "1", 1) != 1 || write(fd, "2", 1) != -1 || errno != EINVAL)
			bad("second write on one fd: expected EINVAL (fd %ld, errno %ld)", "1;2", 3, fd, errno);
		close(fd);
		inputs++;
		if (get(pid) != 1)
			bad("second write on one fd changed the value to %ld (want %ld)", "1;2", 3, get(pid), 1);
	}
}

/* A reaped process's file: ESRCH on write, nothing else touched. */
static void exited_inputs(long count)
{
	long i;

	for (i = 0; i < count; i++) {
		char path[64];
		pid_t pid = fork();
		int fd, err = 0;

		if (!pid)
			_exit(0);
		snprintf(path, sizeof(path), "/proc/%d/swapnice", pid);
		fd = open(path, O_WRONLY);
		waitpid(pid, NULL, 0);
		if (fd >= 0) {
			if (write(fd, "5", 1) >= 0)
				err = 1;
			else if (errno != ESRCH)
				err = errno;
			close(fd);
		}
		inputs++;
		if (err)
			bad("write to an exited process: expected ESRCH, got %ld (fd %ld)", "5", 1, err, fd);
	}
}

static void sysctl_inputs(const char *name, long max, long count)
{
	static char buf[4200];
	char path[128];
	long i, old = get_sysctl(name);

	snprintf(path, sizeof(path), "/proc/sys/vm/%s", name);
	for (i = 0; i < count; i++) {
		long before = next() % (max + 1), after, v;
		char *end;
		size_t len;
		int err, fd;

		set_sysctl(name, before);
		gen(buf, &len);
		fd = open(path, O_WRONLY);
		err = write(fd, buf, len) < 0 ? -errno : 0;
		close(fd);
		after = get_sysctl(name);
		inputs++;
		buf[len < sizeof(buf) ? len : sizeof(buf) - 1] = '\0';
		errno = 0;
		/* sysctl numbers are C literals: 010 is octal */
		v = strtol(buf, &end, 0);
		if (after < 0 || after > max)
			bad("value left out of range: %ld (max %ld)", buf, len, after, max);
		else if (err && after != before)
			bad("a refused write changed %ld to something else (err %ld)", buf, len, before, err);
		else if (!errno && end != buf && !*end && strlen(buf) == len && buf[0] != '+' &&
			 !isspace((unsigned char)buf[0]) && (v < 0 || v > max) && !err)
			bad("out of range %ld accepted (err %ld)", buf, len, v, err);
		else if (!errno && end != buf && !*end && strlen(buf) == len && buf[0] != '+' &&
			 !isspace((unsigned char)buf[0]) && v >= 0 && v <= max && (err || after != v))
			bad("valid %ld refused or not set (err %ld)", buf, len, v, err);
	}
	set_sysctl(name, old);
}

static void prctl_inputs(long count)
{
	long i;

	for (i = 0; i < count; i++) {
		unsigned long a2 = next(), a3 = 0, a4 = 0, a5 = 0;
		int before = (int)(next() % 40) - 20, err, after;
		bool ok;

		switch (next() % 4) {
		case 0:
			a2 = (unsigned long)(long)((long)(next() % 60) - 30);
			break;
		case 1:
			a2 = (unsigned long)(long)((long)(next() % 40) - 20);
			a3 = next() % 2;
			a4 = next() % 2;
			a5 = next() % 2;
			break;
		case 2:
			a2 = (unsigned long)(long)((long)(next() % 40) - 20) ^ (1UL << (32 + next() % 31));
			break;
		}
		prctl(PR_SET_SWAPNICE, (unsigned long)(long)before, 0, 0, 0);
		err = prctl(PR_SET_SWAPNICE, a2, a3, a4, a5) ? -errno : 0;
		after = self_swapnice();
		ok = !a3 && !a4 && !a5 && (long)a2 >= -20 && (long)a2 <= 19;
		inputs++;
		if (ok && (err || after != (int)(long)a2))
			bad("prctl set %ld refused or not set (err %ld)", "", 0, (long)a2, err);
		else if (!ok && (err != -EINVAL || after != before))
			bad("prctl set %ld: expected EINVAL, unchanged (err %ld)", "", 0, (long)a2, err);

		err = prctl(PR_GET_SWAPNICE, next() % 2, next() % 2, 0, 0);
		inputs++;
		if (err >= 0 && err != after + PR_SWAPNICE_BIAS)
			bad("prctl get answered %ld for %ld", "", 0, err, after);
	}
	prctl(PR_SET_SWAPNICE, 0, 0, 0, 0);
}

/*
 * Kernel log lines since our marker, leaving out the late probe of the
 * emulated PS/2 mouse, which can land after the guest's /init started.
 */
static long kmsg_lines(void)
{
	FILE *f = popen("dmesg | sed -n '/swapnice-hostile: start/,$p' | grep -v ' input: ' | wc -l", "r");
	long n = -1;

	if (f) {
		if (fscanf(f, "%ld", &n) != 1)
			n = -1;
		pclose(f);
	}
	return n;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 4000, log0, log1, f0;
	int mark;
	pid_t other;

	setvbuf(stdout, NULL, _IOLBF, 0);
	ksft_print_header();
	if (!have_swapnice())
		ksft_exit_fail_msg("no /proc/self/swapnice: the kernel lacks the series\n");
	ksft_set_plan(8);
	/*
	 * The marker must be written and found: without it the two counts
	 * below are both 0 (or both -1) and would compare equal whatever
	 * the kernel logged.
	 */
	mark = write_file("/dev/kmsg", "swapnice-hostile: start\n");
	log0 = kmsg_lines();
	ksft_print_msg("marker written to /dev/kmsg: %s; %ld lines from it in dmesg\n",
		       mark ? strerror(-mark) : "yes", log0);

	f0 = failures;
	proc_inputs(getpid(), n);
	ksft_test_result(failures == f0, "%ld generated writes to /proc/self/swapnice\n", n);

	other = fork();
	if (!other) {
		pause();
		_exit(0);
	}
	f0 = failures;
	proc_inputs(other, n / 4);
	ksft_test_result(failures == f0, "%ld generated writes to another process's file\n", n / 4);
	kill(other, SIGKILL);
	waitpid(other, NULL, 0);

	f0 = failures;
	offset_inputs(getpid(), n / 20);
	ksft_test_result(failures == f0, "%ld writes at offsets and second writes refused\n", 2 * (n / 20));
	f0 = failures;
	exited_inputs(n / 40);
	ksft_test_result(failures == f0, "%ld writes to exited processes refused\n", n / 40);
	f0 = failures;
	sysctl_inputs("swapnice_weight", 100, n / 4);
	ksft_test_result(failures == f0, "%ld generated writes to vm.swapnice_weight\n", n / 4);
	f0 = failures;
	sysctl_inputs("swapnice_from_nice", 1, n / 4);
	ksft_test_result(failures == f0, "%ld generated writes to vm.swapnice_from_nice\n", n / 4);
	f0 = failures;
	prctl_inputs(n / 2);
	ksft_test_result(failures == f0, "%ld generated prctl calls\n", n);

	log1 = kmsg_lines();
	ksft_print_msg("%ld inputs in all, %ld wrong answers\n", inputs, failures);
	ksft_test_result(!mark && log0 >= 1 && log1 == log0,
			 "the kernel logged nothing (%ld new lines after the marker; marker %s, expected written and found)\n",
			 log1 - log0, mark ? "not written" : log0 >= 1 ? "found" : "not found");
	ksft_finished();
}

// SPDX-License-Identifier: GPL-2.0
/*
 * swapnice - run a command with an adjusted swap priority, or show or set
 * the swap priority of running processes.
 *
 * In the manner of nice(1), renice(1) and ionice(1): a process's swapnice
 * runs from -20 (its memory is the last to be swapped out) to 19 (it
 * cannot push anyone else's memory out).  See swapnice(1).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <unistd.h>

#include "linux/swapnice.h"

#ifndef SWAPNICE_VERSION
# error "SWAPNICE_VERSION comes from tools/swapnice/Makefile"
#endif

/* Exit statuses, as nice(1) has them. */
#define EXIT_CANCELED	125	/* swapnice itself failed */
#define EXIT_CANNOT_RUN	126	/* <command> found but not runnable */
#define EXIT_NOT_FOUND	127	/* <command> not found */

#define DEFAULT_ADJUSTMENT	10
/*
 * The widest adjustment that can matter, as nice(1)'s 2 * NZERO - 1:
 * clamping to it when parsing keeps current + adjustment from overflowing.
 */
#define MAX_ADJUSTMENT		(PR_SWAPNICE_MAX - PR_SWAPNICE_MIN)

/* The root of /proc; the host tests point it at a fake one. */
static const char *procfs = "/proc";

/* The status close_stdout() exits with when standard output failed. */
static int exit_failure = EXIT_CANCELED;

static const char no_support[] = "this kernel has no per-process swap priority";

enum who { WHO_PID, WHO_PGRP, WHO_USER };

/* What became of one process. */
enum { DONE, FAILED, GONE };

#define errtryhelp(status) do {						\
	fprintf(stderr, "Try '%s --help' for more information.\n",	\
		program_invocation_short_name);				\
	exit(status);							\
} while (0)

static void __attribute__((noreturn)) usage(void)
{
	FILE *out = stdout;

	fputs("Usage:\n", out);
	fprintf(out, " %s [-n <num>] [<command> [<argument>...]]\n",
		program_invocation_short_name);
	fprintf(out, " %s [-n <num>] -p|-g|-u <id>...\n",
		program_invocation_short_name);
	fputs("\n", out);
	fputs("Run a command with an adjusted swapnice (swap priority), or show or set\n"
	      "the swapnice of running processes.  With no command, print the current\n", out);
	fprintf(out,
	      "swapnice.  Values run from %d (memory kept longest) to %d (taken first).\n",
		PR_SWAPNICE_MIN, PR_SWAPNICE_MAX);
	fputs("\n", out);
	fputs("Options:\n", out);
	fprintf(out,
	      " -n, --adjustment <num>  with <command>: add <num> to the swapnice (default %d)\n",
		DEFAULT_ADJUSTMENT);
	fputs("                         with -p, -g or -u: set the swapnice to <num>\n"
	      " -p, --pid               interpret the IDs that follow as process IDs\n"
	      " -g, --pgrp              interpret them as process group IDs\n"
	      " -u, --user              interpret them as user names or user IDs\n", out);
	fputs("\n", out);
	fputs(" -h, --help              display this help\n"
	      " -V, --version           display version\n", out);
	fputs("\n", out);
	fputs("-p, -g and -u may be mixed among the IDs; -n must come before them.\n"
	      "\n", out);
	fputs("Exit status: 125 if swapnice itself fails, 126 if <command> cannot be run,\n"
	      "127 if it is not found, otherwise the status of <command>.  With -p, -g\n"
	      "or -u: 0 when every process was handled, 1 otherwise.\n", out);
	fputs("\n", out);
	fputs("For more details see swapnice(1).\n", out);
	exit(EXIT_SUCCESS);
}

/*
 * As util-linux's close_stdout(): a write error on standard output (a full
 * disk, say, but not EPIPE, a reader that went away) is a failure,
 * reported at exit.
 */
static int close_stream(FILE *stream)
{
	const bool some_pending = __fpending(stream) != 0;
	const bool prev_fail = ferror(stream) != 0;
	const bool fclose_fail = fclose(stream) != 0;

	if (prev_fail || (fclose_fail && (some_pending || errno != EBADF))) {
		if (!fclose_fail && errno != EPIPE)
			errno = 0;
		return EOF;
	}
	return 0;
}

static void close_stdout(void)
{
	if (close_stream(stdout) != 0 && errno != EPIPE) {
		if (errno)
			warn("write error");
		else
			warnx("write error");
		_exit(exit_failure);
	}
	if (close_stream(stderr) != 0)
		_exit(exit_failure);
}

/*
 * Parse a whole decimal integer: not empty, no leading blank, no junk.
 * Out of the range of a long, it fails, or with @saturate gives the
 * nearest bound, as coreutils' nice does with its adjustment.
 */
static bool parse_long(const char *s, long *val, bool saturate)
{
	char *end;

	if (!*s || isspace((unsigned char)*s))
		return false;
	errno = 0;
	*val = strtol(s, &end, 10);
	if (end == s || *end)
		return false;
	return !errno || (errno == ERANGE && saturate);
}

static long clamp(long v, long lo, long hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* The calling process's swapnice, or -1 with errno set. */
static int get_self(int *val)
{
	int r = prctl(PR_GET_SWAPNICE, 0, 0, 0, 0);

	if (r < 0)
		return -1;
	/* The kernel biases the value so that it never looks like an error. */
	*val = r - PR_SWAPNICE_BIAS;
	return 0;
}

static int set_self(int val)
{
	return prctl(PR_SET_SWAPNICE, (unsigned long)(long)val, 0, 0, 0);
}

/*
 * Why setting failed, in words for a user.  The kernel answers EACCES
 * exactly for a lowering without CAP_SYS_NICE (the process's own, or
 * another's written through /proc once the file is open).
 */
static const char *why(int err, bool lowering)
{
	static char buf[128];

	if (err == EACCES && lowering) {
		snprintf(buf, sizeof(buf), "%s (lowering it needs CAP_SYS_NICE)",
			 strerror(err));
		return buf;
	}
	return strerror(err);
}

/* Does @procfs/@pid still exist? */
static bool pid_exists(pid_t pid)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%d", procfs, (int)pid);
	return access(path, F_OK) == 0;
}

/*
 * Read /proc/PID/swapnice.  Returns 0, or -1 with errno: ESRCH when the
 * process is gone, ENOTSUP when it has no such file, EIO for a value that
 * is not one.
 */
static int read_pid(pid_t pid, int *val)
{
	char path[PATH_MAX], buf[32];
	ssize_t len;
	long v;
	int fd;

	snprintf(path, sizeof(path), "%s/%d/swapnice", procfs, (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT)
			errno = pid_exists(pid) ? ENOTSUP : ESRCH;
		return -1;
	}
	len = read(fd, buf, sizeof(buf) - 1);
	if (len < 0) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	close(fd);
	if (len == 0 && !pid_exists(pid)) {
		errno = ESRCH;
		return -1;
	}
	buf[len] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	if (!parse_long(buf, &v, false) || v < PR_SWAPNICE_MIN || v > PR_SWAPNICE_MAX) {
		errno = EIO;
		return -1;
	}
	*val = (int)v;
	return 0;
}

/*
 * Write @val to /proc/PID/swapnice.  Returns 0, or -1 with errno (ESRCH
 * when the process is gone) and *@opened telling whether the file could be
 * opened: an EACCES from open() is the file's mode, another user's process.
 */
static int write_pid(pid_t pid, int val, bool *opened)
{
	char path[PATH_MAX], buf[16];
	int fd, len, e = 0;

	*opened = false;
	snprintf(path, sizeof(path), "%s/%d/swapnice", procfs, (int)pid);
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT)
			errno = pid_exists(pid) ? ENOTSUP : ESRCH;
		return -1;
	}
	*opened = true;
	len = snprintf(buf, sizeof(buf), "%d\n", val);
	/* The kernel's answer comes with the write. */
	errno = 0;
	if (write(fd, buf, len) != len)
		e = errno ? errno : EIO;
	if (close(fd) && !e)
		e = errno;
	errno = e;
	return e ? -1 : 0;
}

static const char *get_error(int err)
{
	return err == ENOTSUP ? no_support : strerror(err);
}

/*
 * Show or set one process.  A process that has exited is GONE, said only
 * when @loud (it was named with -p); a scan for -g or -u skips it.
 */
static int do_pid(pid_t pid, bool set, int val, bool loud)
{
	int old, now;
	bool opened;

	if (read_pid(pid, &old))
		goto get_failed;
	if (!set) {
		printf("%d (process ID) swapnice %d\n", (int)pid, old);
		return DONE;
	}
	if (write_pid(pid, val, &opened)) {
		if (errno == ESRCH && !loud)
			return GONE;
		warnx("failed to set swapnice for %d: %s", (int)pid,
		      errno == ENOTSUP ? no_support : why(errno, opened && val < old));
		return FAILED;
	}
	/* As renice(1): say what the kernel now has, not what was asked. */
	if (read_pid(pid, &now))
		goto get_failed;
	printf("%d (process ID) old swapnice %d, new swapnice %d\n",
	       (int)pid, old, now);
	return DONE;

get_failed:
	if (errno == ESRCH && !loud)
		return GONE;
	warnx("failed to get swapnice for %d: %s", (int)pid, get_error(errno));
	return FAILED;
}

/* Is @pid in process group @id (WHO_PGRP), or of real user @id (WHO_USER)? */
static bool pid_matches(pid_t pid, enum who who, long id)
{
	char path[PATH_MAX], line[1024];
	bool match = false;
	FILE *f;

	if (who == WHO_PGRP) {
		char *p;
		int pgrp;

		snprintf(path, sizeof(path), "%s/%d/stat", procfs, (int)pid);
		f = fopen(path, "re");
		if (!f)
			return false;
		if (fgets(line, sizeof(line), f)) {
			p = strrchr(line, ')');
			/* ") S ppid pgrp" */
			if (p && sscanf(p + 1, " %*c %*d %d", &pgrp) == 1)
				match = pgrp == id;
		}
		fclose(f);
		return match;
	}

	snprintf(path, sizeof(path), "%s/%d/status", procfs, (int)pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		unsigned long uid;

		if (sscanf(line, "Uid: %lu", &uid) == 1) {
			match = uid == (unsigned long)id;
			break;
		}
	}
	fclose(f);
	return match;
}

/*
 * Every process in a group or of a user; those that exit during the scan
 * are skipped.  Returns 0, or 1 on any failure.
 */
static int do_group(enum who who, long id, const char *name, bool set, int val)
{
	struct dirent *de;
	int rc = 0, found = 0;
	DIR *d = opendir(procfs);

	if (!d) {
		warn("cannot read %s", procfs);
		return 1;
	}
	while ((de = readdir(d))) {
		long pid;

		if (!parse_long(de->d_name, &pid, false) || pid <= 0 || pid > INT_MAX)
			continue;
		if (!pid_matches((pid_t)pid, who, id))
			continue;
		switch (do_pid((pid_t)pid, set, val, false)) {
		case DONE:
			found++;
			break;
		case FAILED:
			found++;
			rc = 1;
			break;
		case GONE:
			break;
		}
	}
	closedir(d);
	if (!found) {
		warnx("no process %s %s", who == WHO_PGRP ? "in process group" :
		      "of user", name);
		return 1;
	}
	return rc;
}

/* Say once, before any process, that this kernel cannot do it. */
static void check_support(void)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/self/swapnice", procfs);
	if (access(path, F_OK) == 0)
		return;
	if (errno == ENOENT) {
		snprintf(path, sizeof(path), "%s/self", procfs);
		if (access(path, F_OK) == 0)
			errx(EXIT_FAILURE, "%s", no_support);
	}
	err(EXIT_FAILURE, "cannot access %s", path);
}

static int do_ids(char **ids, int n, enum who who, bool set, int val)
{
	int i, rc = 0;

	/* Like renice: -p, -g and -u may come between the IDs; -n may not. */
	for (i = 0; i < n; i++) {
		if (!strncmp(ids[i], "-n", 2) || !strncmp(ids[i], "--a", 3)) {
			warnx("-n must come before the IDs");
			errtryhelp(EXIT_CANCELED);
		}
	}
	check_support();

	for (i = 0; i < n; i++) {
		const char *arg = ids[i];
		long id;

		if (!strcmp(arg, "-p") || !strcmp(arg, "--pid")) {
			who = WHO_PID;
			continue;
		}
		if (!strcmp(arg, "-g") || !strcmp(arg, "--pgrp")) {
			who = WHO_PGRP;
			continue;
		}
		if (!strcmp(arg, "-u") || !strcmp(arg, "--user")) {
			who = WHO_USER;
			continue;
		}
		if (who == WHO_USER) {
			struct passwd *pw = getpwnam(arg);

			if (pw) {
				id = pw->pw_uid;
			} else if (!parse_long(arg, &id, false) || id < 0 ||
				   id > (long)UINT_MAX - 1) {
				warnx("unknown user '%s'", arg);
				rc = 1;
				continue;
			}
			rc |= do_group(who, id, arg, set, val);
			continue;
		}
		if (!parse_long(arg, &id, false) || id <= 0 || id > INT_MAX) {
			warnx("invalid %s '%s'", who == WHO_PID ? "PID" :
			      "process group ID", arg);
			rc = 1;
			continue;
		}
		if (who == WHO_PID)
			rc |= do_pid((pid_t)id, set, val, true) != DONE;
		else
			rc |= do_group(who, id, arg, set, val);
	}
	return rc;
}

/*
 * Add @adj to the own value.  As nice(1), carry on with a warning when only
 * permission is lacking.  Unlike nice, carry on too on a kernel without
 * swapnice: the command (a backup, say) matters more than its priority.
 * Anything else is a failure, and the command does not run.
 */
static void adjust_self(int adj)
{
	int cur, want;

	if (get_self(&cur)) {
		if (errno != EINVAL)
			err(EXIT_CANCELED, "cannot get swapnice");
		warnx("cannot set swapnice: %s", no_support);
		return;
	}
	/* |adj| <= MAX_ADJUSTMENT: no overflow. */
	want = (int)clamp((long)cur + adj, PR_SWAPNICE_MIN, PR_SWAPNICE_MAX);
	if (want == cur || !set_self(want))
		return;
	if (errno == EACCES || errno == EPERM)
		warnx("cannot set swapnice to %d: %s", want, why(errno, want < cur));
	else
		err(EXIT_CANCELED, "cannot set swapnice to %d", want);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "adjustment",	required_argument, NULL, 'n' },
		{ "pid",	no_argument,	   NULL, 'p' },
		{ "pgrp",	no_argument,	   NULL, 'g' },
		{ "user",	no_argument,	   NULL, 'u' },
		{ "help",	no_argument,	   NULL, 'h' },
		{ "version",	no_argument,	   NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	const char *env;
	long num = DEFAULT_ADJUSTMENT;
	bool have_n = false, have_who = false;
	enum who who = WHO_PID;
	int c, cur;

	atexit(close_stdout);

	env = secure_getenv("SWAPNICE_PROCFS");
	if (env && *env)
		procfs = env;

	while ((c = getopt_long(argc, argv, "+n:pguhV", longopts, NULL)) != -1) {
		switch (c) {
		case 'n':
			if (!parse_long(optarg, &num, true))
				errx(EXIT_CANCELED, "invalid adjustment '%s'", optarg);
			num = clamp(num, -MAX_ADJUSTMENT, MAX_ADJUSTMENT);
			have_n = true;
			break;
		case 'p':
			who = WHO_PID;
			have_who = true;
			break;
		case 'g':
			who = WHO_PGRP;
			have_who = true;
			break;
		case 'u':
			who = WHO_USER;
			have_who = true;
			break;
		case 'h':
			usage();
		case 'V':
			printf("%s %s\n", program_invocation_short_name, SWAPNICE_VERSION);
			return EXIT_SUCCESS;
		default:
			errtryhelp(EXIT_CANCELED);
		}
	}

	if (have_who) {
		if (optind >= argc) {
			warnx("no process given with -p, -g or -u");
			errtryhelp(EXIT_CANCELED);
		}
		exit_failure = EXIT_FAILURE;
		return do_ids(argv + optind, argc - optind, who, have_n,
			      (int)clamp(num, PR_SWAPNICE_MIN, PR_SWAPNICE_MAX));
	}

	if (optind >= argc) {
		if (have_n) {
			warnx("a command is required with -n");
			errtryhelp(EXIT_CANCELED);
		}
		if (get_self(&cur)) {
			if (errno == EINVAL)
				errx(EXIT_CANCELED, "%s", no_support);
			err(EXIT_CANCELED, "cannot get swapnice");
		}
		printf("%d\n", cur);
		return EXIT_SUCCESS;
	}

	adjust_self((int)num);
	/* As nice(1): if the warning could not be written, do not go on. */
	if (fflush(stderr) || ferror(stderr))
		return EXIT_CANCELED;
	execvp(argv[optind], argv + optind);
	err(errno == ENOENT ? EXIT_NOT_FOUND : EXIT_CANNOT_RUN,
	    "failed to execute %s", argv[optind]);
}

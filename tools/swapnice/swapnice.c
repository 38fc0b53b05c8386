// SPDX-License-Identifier: GPL-2.0
/*
 * swapnice - run a program with modified swap priority, or show or set
 * the swap priority of running processes.
 *
 * In the manner of nice(1), renice(1) and ionice(1): a process's swapnice
 * runs from -20 (its memory is the last to be swapped) to 19 (it cannot
 * push anyone else's memory out).  See swapnice(1).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <unistd.h>

#include <sys/capability.h>

#include "linux/swapnice.h"

#define PROGRAM		"swapnice"
#define VERSION		"0.1"

/* Exit statuses, as nice(1) has them. */
#define EXIT_CANCELED	125	/* swapnice itself failed */
#define EXIT_CANNOT_RUN	126	/* COMMAND found but not runnable */
#define EXIT_NOT_FOUND	127	/* COMMAND not found */

#define DEFAULT_ADJUSTMENT	10

/* The root of /proc; tests point it elsewhere to fake a kernel. */
static const char *procfs = "/proc";

enum who { WHO_PID, WHO_PGRP, WHO_USER };

static void __attribute__((noreturn)) usage(FILE *out, int status)
{
	fprintf(out,
		"Usage:\n"
		" %1$s [options] [<command> [<argument>...]]\n"
		" %1$s [-n <value>] -p|-g|-u <id>...\n"
		"\n"
		"Run a program with modified swap priority (swapnice), or show or\n"
		"set the swapnice of running processes.  With no command, print the\n"
		"current swapnice.  Lower values keep memory in RAM longer, from\n"
		"%2$d (highest priority) to %3$d (lowest).\n"
		"\n"
		"Options:\n"
		" -n, --adjustment <num>  with a command: add <num> to the swapnice\n"
		"                         (default %4$d); with -p, -g or -u: set it to <num>\n"
		" -p, --pid <pid>...      act on these processes\n"
		" -g, --pgrp <pgrp>...    act on the processes in these process groups\n"
		" -u, --user <user>...    act on the processes of these users\n"
		"\n"
		" -h, --help              display this help\n"
		" -V, --version           display version\n"
		"\n"
		"Exit status: 125 if %1$s itself fails, 126 if <command> cannot be run,\n"
		"127 if it is not found, otherwise the status of <command>.  With -p, -g\n"
		"or -u: 0 when every process was handled, 1 otherwise.\n"
		"\n"
		"For more details see swapnice(1).\n",
		PROGRAM, PR_SWAPNICE_MIN, PR_SWAPNICE_MAX, DEFAULT_ADJUSTMENT);
	exit(status);
}

static void __attribute__((noreturn, format(printf, 1, 2)))
fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, PROGRAM ": ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(EXIT_CANCELED);
}

static void __attribute__((format(printf, 1, 2))) warnmsg(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, PROGRAM ": ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* Parse a whole decimal long: no junk, no overflow, not empty. */
static bool parse_long(const char *s, long *val)
{
	char *end;

	if (!s || !*s || isspace((unsigned char)*s))
		return false;
	errno = 0;
	*val = strtol(s, &end, 10);
	return !errno && end != s && !*end;
}

static long clamp_swapnice(long v)
{
	if (v < PR_SWAPNICE_MIN)
		return PR_SWAPNICE_MIN;
	if (v > PR_SWAPNICE_MAX)
		return PR_SWAPNICE_MAX;
	return v;
}

static bool has_sys_nice(void)
{
	cap_flag_value_t v = CAP_CLEAR;
	cap_t caps = cap_get_proc();

	if (!caps)
		return false;
	if (cap_get_flag(caps, CAP_SYS_NICE, CAP_EFFECTIVE, &v))
		v = CAP_CLEAR;
	cap_free(caps);
	return v == CAP_SET;
}

static const char no_support[] = "this kernel has no per-process swap priority";

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

static bool kernel_has_swapnice(void)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/self/swapnice", procfs);
	return access(path, F_OK) == 0;
}

/* Explain why setting @val failed with @err, in words for a user. */
static const char *why(int err, bool lowering)
{
	static char buf[256];

	if (err == EINVAL && !kernel_has_swapnice())
		return no_support;
	if ((err == EPERM || err == EACCES) && lowering && !has_sys_nice()) {
		snprintf(buf, sizeof(buf), "%s (lowering it needs CAP_SYS_NICE)",
			 strerror(err));
		return buf;
	}
	return strerror(err);
}

static int read_pid_swapnice(pid_t pid, int *val)
{
	char path[PATH_MAX], buf[32];
	long v;
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "%s/%d/swapnice", procfs, (int)pid);
	f = fopen(path, "r");
	if (!f) {
		if (errno == ENOENT) {
			snprintf(path, sizeof(path), "%s/%d", procfs, (int)pid);
			errno = access(path, F_OK) ? ESRCH : ENOTSUP;
		}
		return -1;
	}
	ok = fgets(buf, sizeof(buf), f) != NULL;
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	if (!ok || !parse_long(buf, &v)) {
		errno = EIO;
		return -1;
	}
	*val = (int)v;
	return 0;
}

static int write_pid_swapnice(pid_t pid, int val)
{
	char path[PATH_MAX];
	FILE *f;
	int err;

	snprintf(path, sizeof(path), "%s/%d/swapnice", procfs, (int)pid);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "%d\n", val);
	/* The kernel's answer comes with the write, which fclose() flushes. */
	err = fclose(f);
	return err ? -1 : 0;
}

/* Show or set one process.  Returns 0 on success, 1 on failure. */
static int do_pid(pid_t pid, bool set, int val)
{
	int old;

	if (read_pid_swapnice(pid, &old)) {
		warnmsg("failed to get swapnice for %d: %s", (int)pid,
		      errno == ESRCH ? "No such process" :
		      errno == ENOTSUP ? no_support : strerror(errno));
		return 1;
	}
	if (!set) {
		printf("%d (process ID) swapnice %d\n", (int)pid, old);
		return 0;
	}
	if (write_pid_swapnice(pid, val)) {
		int err = errno;

		warnmsg("failed to set swapnice for %d: %s", (int)pid,
		      why(err, val < old));
		return 1;
	}
	printf("%d (process ID) old swapnice %d, new swapnice %d\n",
	       (int)pid, old, val);
	return 0;
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
		f = fopen(path, "r");
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
	f = fopen(path, "r");
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

/* Every process in a group or of a user.  Returns 0, or 1 on any failure. */
static int do_group(enum who who, long id, const char *name, bool set, int val)
{
	struct dirent *de;
	int rc = 0, found = 0;
	DIR *d = opendir(procfs);

	if (!d) {
		warnmsg("cannot read %s: %s", procfs, strerror(errno));
		return 1;
	}
	while ((de = readdir(d))) {
		long pid;

		if (!parse_long(de->d_name, &pid) || pid <= 0)
			continue;
		if (!pid_matches((pid_t)pid, who, id))
			continue;
		found++;
		rc |= do_pid((pid_t)pid, set, val);
	}
	closedir(d);
	if (!found) {
		warnmsg("no process %s %s", who == WHO_PGRP ? "in process group" :
		      "of user", name);
		return 1;
	}
	return rc;
}

static int do_ids(char **ids, int n, enum who who, bool set, int val)
{
	int i, rc = 0;

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
			} else if (!parse_long(arg, &id) || id < 0 || id > UINT_MAX - 1) {
				warnmsg("unknown user '%s'", arg);
				rc = 1;
				continue;
			}
			rc |= do_group(who, id, arg, set, val);
			continue;
		}
		if (!parse_long(arg, &id) || id <= 0 || id > INT_MAX) {
			warnmsg("invalid %s '%s'", who == WHO_PID ? "PID" :
			      "process group ID", arg);
			rc = 1;
			continue;
		}
		if (who == WHO_PID)
			rc |= do_pid((pid_t)id, set, val);
		else
			rc |= do_group(who, id, arg, set, val);
	}
	return rc;
}

/* Adjust the own value by @adj, warning (not failing) where it cannot. */
static void adjust_self(long adj)
{
	int cur, want;

	if (get_self(&cur)) {
		warnmsg("cannot set swapnice: %s",
		      errno == EINVAL ? no_support : strerror(errno));
		return;
	}
	want = (int)clamp_swapnice((long)cur + adj);
	if (want == cur)
		return;
	if (set_self(want))
		warnmsg("cannot set swapnice to %d: %s", want,
		      why(errno, want < cur));
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
	const char *env = getenv("SWAPNICE_PROCFS");
	long adj = DEFAULT_ADJUSTMENT;
	bool have_n = false, have_who = false;
	enum who who = WHO_PID;
	int c;

	if (env && *env)
		procfs = env;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "+n:pguhV", longopts, NULL)) != -1) {
		switch (c) {
		case 'n':
			if (!parse_long(optarg, &adj))
				fail("invalid adjustment '%s'", optarg);
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
			usage(stdout, EXIT_SUCCESS);
		case 'V':
			printf("%s %s\n", PROGRAM, VERSION);
			return EXIT_SUCCESS;
		case '?':
			if (optopt == 'n')
				warnmsg("option requires an argument -- 'n'");
			else if (optopt)
				warnmsg("invalid option -- '%c'", optopt);
			else
				warnmsg("unrecognized option '%s'", argv[optind - 1]);
			fprintf(stderr, "Try '%s --help' for more information.\n",
				PROGRAM);
			return EXIT_CANCELED;
		}
	}

	if (have_who) {
		if (optind >= argc)
			fail("no process given with -p, -g or -u");
		return do_ids(argv + optind, argc - optind, who, have_n,
			      (int)clamp_swapnice(adj));
	}

	if (optind >= argc) {
		int cur;

		if (have_n)
			fail("a command is required with -n");
		if (get_self(&cur))
			fail("%s", errno == EINVAL ? no_support : strerror(errno));
		printf("%d\n", cur);
		return EXIT_SUCCESS;
	}

	adjust_self(adj);
	execvp(argv[optind], argv + optind);
	c = errno;
	warnmsg("failed to execute %s: %s", argv[optind], strerror(c));
	return c == ENOENT ? EXIT_NOT_FOUND : EXIT_CANNOT_RUN;
}

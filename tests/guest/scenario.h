/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the guest test programs: files under /proc and /sys,
 * /proc/vmstat, clocks, and swapnice itself.
 */
#ifndef SWAPNICE_SCENARIO_H
#define SWAPNICE_SCENARIO_H

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "linux/swapnice.h"

static inline long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* Write @s to @path in one write(); 0 or -errno. */
static inline int write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;
	int err = 0;

	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	if (n < 0)
		err = -errno;
	close(fd);
	return err;
}

/* Read @path into @buf (NUL-terminated, trailing newline dropped). */
static inline int read_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	if (n && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	return 0;
}

static inline long read_long(const char *path, long dflt)
{
	char buf[64];

	if (read_file(path, buf, sizeof(buf)))
		return dflt;
	return strtol(buf, NULL, 0);
}

/* A "Key:   value kB" line of /proc/PID/status or /proc/meminfo. */
static inline long status_field(const char *path, const char *key)
{
	char line[256];
	size_t klen = strlen(key);
	long v = -1;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, key, klen) && line[klen] == ':') {
			v = strtol(line + klen + 1, NULL, 10);
			break;
		}
	}
	fclose(f);
	return v;
}

static inline long pid_status(int pid, const char *key)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	return status_field(path, key);
}

/* One counter of /proc/vmstat, 0 when the kernel has no such counter. */
static inline long long vmstat(const char *key)
{
	char line[128];
	size_t klen = strlen(key);
	long long v = 0;
	FILE *f = fopen("/proc/vmstat", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, key, klen) && line[klen] == ' ') {
			v = strtoll(line + klen + 1, NULL, 10);
			break;
		}
	}
	fclose(f);
	return v;
}

static inline bool have_swapnice(void)
{
	return access("/proc/self/swapnice", F_OK) == 0;
}

/* The calling process's swapnice through prctl, or -100 on error. */
static inline int self_swapnice(void)
{
	int r = prctl(PR_GET_SWAPNICE, 0, 0, 0, 0);

	return r < 0 ? -100 : r - PR_SWAPNICE_BIAS;
}

static inline int set_sysctl(const char *name, long val)
{
	char path[128], buf[32];

	snprintf(path, sizeof(path), "/proc/sys/vm/%s", name);
	snprintf(buf, sizeof(buf), "%ld", val);
	return write_file(path, buf);
}

static inline long get_sysctl(const char *name)
{
	char path[128];

	snprintf(path, sizeof(path), "/proc/sys/vm/%s", name);
	return read_long(path, -1);
}

/* Switch the multi-gen LRU on or off; false if it cannot be. */
static inline bool set_mglru(bool on)
{
	char buf[32];

	if (write_file("/sys/kernel/mm/lru_gen/enabled", on ? "y" : "n"))
		return false;
	if (read_file("/sys/kernel/mm/lru_gen/enabled", buf, sizeof(buf)))
		return false;
	return (strtol(buf, NULL, 0) != 0) == on;
}

static inline void drop_caches(void)
{
	sync();
	write_file("/proc/sys/vm/drop_caches", "3");
}

/* ------------------------------------------------ data integrity */

/*
 * Memory that may go to swap carries a pattern: the first and the last
 * word of each page hold a value derived from (seed, page index,
 * generation), never 0, so that a page lost and refaulted as zeroes, a
 * page of another process or another place, or a stale copy of an older
 * generation does not match.  Reads go through volatile pointers and
 * their results are counted and printed, so the compiler keeps them.
 */
#define PATTERN_EXIT 99	/* exit status of a program that found a wrong page */

struct pattern_fail {
	long long bad;		/* pages that came back wrong */
	long long checked;	/* pages checked */
	size_t page;		/* the first wrong one, */
	unsigned long long want, got;	/* what it should hold, what it held */
};

static inline unsigned long long pattern_word(unsigned long long seed, size_t page,
					      unsigned int gen)
{
	unsigned long long x = seed ^ (page * 0x9e3779b97f4a7c15ULL) ^
			       ((unsigned long long)gen << 40);

	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x | 1;
}

static inline size_t pattern_psz(void)
{
	static size_t psz;

	if (!psz)
		psz = sysconf(_SC_PAGESIZE);
	return psz;
}

/*
 * Over the pages of [p, p + len), numbered from @first: when @check,
 * compare each page's words with generation @old and count what differs
 * in @f; when @write, write generation @new.  Returns the pages wrong.
 */
static inline long long pattern_walk(char *p, size_t len, size_t first,
				     unsigned long long seed, bool check,
				     unsigned int old, bool write, unsigned int new,
				     struct pattern_fail *f)
{
	size_t psz = pattern_psz(), i, n = len / psz;
	long long bad = 0;

	for (i = 0; i < n; i++) {
		volatile unsigned long long *head = (void *)(p + i * psz);
		volatile unsigned long long *tail = (void *)(p + (i + 1) * psz - 8);

		if (check) {
			unsigned long long want = pattern_word(seed, first + i, old);
			unsigned long long h = *head, t = *tail;

			if (h != want || t != ~want) {
				if (!bad && f && !f->bad) {
					f->page = first + i;
					f->want = want;
					f->got = h != want ? h : ~t;
				}
				bad++;
			}
			if (f)
				f->checked++;
		}
		if (write) {
			unsigned long long w = pattern_word(seed, first + i, new);

			*head = w;
			*tail = ~w;
		}
	}
	if (f)
		f->bad += bad;
	return bad;
}

static inline void pattern_fill(char *p, size_t len, size_t first,
				unsigned long long seed, unsigned int gen)
{
	pattern_walk(p, len, first, seed, false, 0, true, gen, NULL);
}

static inline long long pattern_check(char *p, size_t len, size_t first,
				      unsigned long long seed, unsigned int gen,
				      struct pattern_fail *f)
{
	return pattern_walk(p, len, first, seed, true, gen, false, 0, f);
}

/* Report a wrong page on stderr as a TAP comment; PATTERN_EXIT or 0. */
static inline int pattern_report(const char *who, const struct pattern_fail *f)
{
	if (!f->bad)
		return 0;
	fprintf(stderr, "# %s (pid %d): %lld of %lld pages came back wrong; first page %zu: expected %016llx, got %016llx\n",
		who, (int)getpid(), f->bad, f->checked, f->page, f->want, f->got);
	return PATTERN_EXIT;
}

/* True on the debug kernel (KASAN, lockdep: about ten times slower). */
static inline bool debug_kernel(void)
{
	static int dbg = -1;

	if (dbg < 0) {
		char rel[128];
		size_t n;

		dbg = 0;
		if (!read_file("/proc/sys/kernel/osrelease", rel, sizeof(rel))) {
			n = strlen(rel);
			dbg = n >= 15 && !strcmp(rel + n - 15, "-swapnice-debug");
		}
	}
	return dbg;
}

/* A process's state letter from /proc/PID/stat (R, S, D, Z...), 0 if gone. */
static inline char pid_state(int pid)
{
	char path[64], buf[512], *p;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (read_file(path, buf, sizeof(buf)))
		return 0;
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : 0;
}

#endif

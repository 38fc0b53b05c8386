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

#endif

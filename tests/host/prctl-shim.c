// SPDX-License-Identifier: GPL-2.0
/*
 * prctl-shim.so: an LD_PRELOAD stand-in for a kernel with the swapnice
 * series, so that the host tests drive the CLI's own path (PR_GET_SWAPNICE,
 * PR_SET_SWAPNICE, then exec) on a host kernel that has no such prctl.
 *
 * It answers the two swapnice requests as the series does (see
 * Documentation/admin-guide/mm/swapnice.rst in patches/0001):
 *   PR_SET_SWAPNICE  EINVAL for a value out of [-20, 19] or a non-zero
 *                    unused argument, EACCES for a lowering when
 *                    SWAPNICE_SHIM_UNPRIVILEGED=1 (no CAP_SYS_NICE)
 *   PR_GET_SWAPNICE  the value plus PR_SWAPNICE_BIAS; EINVAL for a
 *                    non-zero unused argument
 * and passes every other request to the kernel.
 *
 * Environment:
 *   SWAPNICE_SHIM_VALUE         the process's value, read at the first
 *                               call and rewritten on every set, so that
 *                               it survives exec as the kernel's does
 *   SWAPNICE_SHIM_UNPRIVILEGED  1: lowering fails with EACCES
 *   SWAPNICE_SHIM_ERRNO         a number: every set fails with it
 *   SWAPNICE_SHIM_LOG           a file each swapnice request is appended
 *                               to, as "get" or "set VALUE -> RESULT"
 *
 * glibc declares prctl() variadic; so does the shim.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "linux/swapnice.h"

static int value;
static int loaded;

static void shim_load(void)
{
	const char *s = getenv("SWAPNICE_SHIM_VALUE");
	char *end;
	long v;

	loaded = 1;
	if (!s)
		return;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < PR_SWAPNICE_MIN || v > PR_SWAPNICE_MAX) {
		fprintf(stderr, "prctl-shim: bad SWAPNICE_SHIM_VALUE '%s'\n", s);
		abort();
	}
	value = (int)v;
}

static void shim_log(const char *line)
{
	const char *path = getenv("SWAPNICE_SHIM_LOG");
	int fd, len = (int)strlen(line);

	if (!path || !*path)
		return;
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	if (write(fd, line, len) != len)
		fprintf(stderr, "prctl-shim: cannot write %s\n", path);
	close(fd);
}

static int shim_set(unsigned long arg2, unsigned long arg3,
		    unsigned long arg4, unsigned long arg5)
{
	const char *fail = getenv("SWAPNICE_SHIM_ERRNO");
	const char *unpriv = getenv("SWAPNICE_SHIM_UNPRIVILEGED");
	long v = (long)arg2;
	char buf[16];

	if (arg3 || arg4 || arg5 || v < PR_SWAPNICE_MIN || v > PR_SWAPNICE_MAX)
		return -EINVAL;
	if (fail && *fail)
		return -atoi(fail);
	if (unpriv && !strcmp(unpriv, "1") && v < value)
		return -EACCES;
	value = (int)v;
	snprintf(buf, sizeof(buf), "%d", value);
	setenv("SWAPNICE_SHIM_VALUE", buf, 1);
	return 0;
}

int prctl(int option, ...)
{
	unsigned long arg2, arg3, arg4, arg5;
	va_list ap;
	char line[64];
	int r;

	va_start(ap, option);
	arg2 = va_arg(ap, unsigned long);
	arg3 = va_arg(ap, unsigned long);
	arg4 = va_arg(ap, unsigned long);
	arg5 = va_arg(ap, unsigned long);
	va_end(ap);

	if (option != PR_SET_SWAPNICE && option != PR_GET_SWAPNICE)
		return (int)syscall(SYS_prctl, option, arg2, arg3, arg4, arg5);

	if (!loaded)
		shim_load();
	if (option == PR_SET_SWAPNICE) {
		r = shim_set(arg2, arg3, arg4, arg5);
		snprintf(line, sizeof(line), "set %ld -> %d\n", (long)arg2, r);
	} else {
		r = (arg2 || arg3 || arg4 || arg5) ? -EINVAL : value + PR_SWAPNICE_BIAS;
		snprintf(line, sizeof(line), "get -> %d\n", r);
	}
	shim_log(line);
	if (r < 0) {
		errno = -r;
		return -1;
	}
	return r;
}

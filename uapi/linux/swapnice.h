/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * User-space definitions for per-process swap priority (swapnice).
 *
 * These are the values the kernel series in patches/ adds to
 * include/uapi/linux/prctl.h; tests/host/uapi-agree checks that the two
 * stay the same.  Include this after <sys/prctl.h>: a libc or kernel
 * header that already has them wins.
 */
#ifndef _UAPI_LINUX_SWAPNICE_H
#define _UAPI_LINUX_SWAPNICE_H

#ifndef PR_SET_SWAPNICE
#define PR_SET_SWAPNICE		0x53574e53	/* "SWNS" */
#define PR_GET_SWAPNICE		0x53574e47	/* "SWNG" */
# define PR_SWAPNICE_MIN	(-20)
# define PR_SWAPNICE_MAX	19
# define PR_SWAPNICE_BIAS	20	/* PR_GET_SWAPNICE returns value + bias */
#endif

#endif /* _UAPI_LINUX_SWAPNICE_H */

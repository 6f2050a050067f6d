/* SPDX-License-Identifier: GPL-2.0-only */
/* Entering another network namespace for the rest of the process (--netns). */
#ifndef NP_NETNS_H
#define NP_NETNS_H

#include <stddef.h>

/*
 * spec: a name in /run/netns, a path to a namespace file, or a PID (its /proc/PID/ns/net).
 * Joins that network namespace and, in a private mount namespace of this process only,
 * remounts /sys so /sys/class/net shows that namespace's devices (as `ip netns exec` does).
 * Call before np_ctx_open(). Returns 0 or -errno with a message in err.
 */
int np_netns_enter(const char *spec, char *path, size_t pathsize, char *err, size_t errlen);

#endif

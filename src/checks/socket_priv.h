/* SPDX-License-Identifier: GPL-2.0-only */
/* Stage "socket" is split over socket.c, socket_mem.c and socket_bdp.c; this joins them. */
#ifndef NP_SOCKET_PRIV_H
#define NP_SOCKET_PRIV_H

#include "check_util.h"
#include "sizing.h"

#include <stdio.h>

/* RTTs from which buffer sizing is more than insurance. */
#define NP_SOCK_LONG_RTT_MS 10.0

#endif

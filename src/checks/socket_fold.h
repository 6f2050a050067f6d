/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef NP_SOCKET_FOLD_H
#define NP_SOCKET_FOLD_H

#include "sockets.h"

/* The socket judgement, folded in while sock_diag streams (socket_fold.c). Commands hand it to
 * the collector as np_collect()'s fold. */
np_sock_fold_fn np_socket_fold;

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
/* The bounded transfer of a path test: the sending end writes and samples its streams, the
 * receiving end reads and counts (both ends use these; which is which depends on --reverse). */
#ifndef NP_PATH_XFER_H
#define NP_PATH_XFER_H

#include <stddef.h>
#include <stdint.h>

#include "path_test.h"

/* Write on every stream for duration seconds, a tcp_info sample every 100 ms into r->samples,
 * then half-close them and wait (at most grace seconds) for the receiver to close after
 * reading everything. r->duration_s: from the start to that close; r->sender_bytes: bytes
 * acked. lfd >= 0: a listening socket whose callers are turned away meanwhile ("BUSY"). 0, or
 * -1 with errno when every stream failed. */
int np_xfer_send(const int *fds, size_t n, double duration, double grace, int lfd,
		 struct np_path_result *r);
/* Read every stream until each ends or deadline seconds pass: the payload bytes counted. */
uint64_t np_xfer_recv(const int *fds, size_t n, double deadline, int lfd);
/* Turn one caller of lfd away with a one-line "BUSY" (nothing waits on it). */
void np_xfer_refuse(int lfd);

#endif

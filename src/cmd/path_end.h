/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One end of a path test judged as doctor judges a host: its snapshots at the start and the end
 * of the transfer (doctor's pipeline: np_runs_discover, np_runs_collect_again,
 * np_runs_analyze), /proc/stat around it, and its facts, flattened into struct np_path_end.
 */
#ifndef NP_PATH_END_H
#define NP_PATH_END_H

#include <stdbool.h>

#include "doctor_stack.h"
#include "path_host.h"
#include "path_test.h"
#include "target.h"

struct np_path_window {
	struct np_target *tgt;		/* opened by the command (its --netns entered) */
	struct np_dev_runs *dr;		/* NULL: no interface to judge */
	char ifname[16];
	double t0;
	struct np_cpu_times *cpu0;
	int ncpu;
};

/* The window opens: ifname's stack snapshotted (when ifname is known) and the CPU times read.
 * Never fails: what cannot be read is missing from the end's report. */
void np_path_window_begin(struct np_path_window *w, struct np_target *tgt, const char *ifname);
/* The window closes: the second snapshots, the analysis, the host's facts into e (fd: a test
 * socket, for its congestion control). e->bytes_counted is the caller's. */
void np_path_window_end(struct np_path_window *w, int fd, struct np_path_end *e);
void np_path_window_free(struct np_path_window *w);

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The command-line configurations of watch, trace, capture, diff, plan, checks and explain
 * (doctor's is in doctor_run.h): their option rows (spec_*.c) store each value at an offset
 * into these (NP_TO), so the tables, which mangen and the unit tests read too, must see them.
 * Plain types only: the tables are built without trace's or the renderers' headers.
 */
#ifndef NP_CMD_ARGS_H
#define NP_CMD_ARGS_H

#include <stdbool.h>

#include "command_config.h"
#include "doctor_config.h"
#include "opts.h"

struct watch_args {
	const char *ifname;
	const char *netns;
	double interval;
	unsigned long count;	/* 0: until interrupted (NP_DEST_LONG: a long's bits) */
	unsigned walk_every;	/* --socket-walk-every N; 0: adaptive (NP_DEST_INT) */
	bool batch, json;
	enum np_color color;
	int verbose;
	struct np_options opt;		/* rtt and bandwidth from the settings file */
	struct np_config cfg;		/* the settings file doctor reads too */
};

/* trace's own filters and XDP options (src/trace types) are filled from these in cmd_trace.c. */
struct trace_args {
	double duration;
	bool json, all;
	int verbose;
	const char *netns;
	const char *ifname;
	bool xdp;
	int xdp_mode;		/* enum np_xdp_mode: --xdp-mode's words are in its order */
	bool xdp_accept_reset;
	unsigned int top;	/* NP_DEST_INT */
	int by;			/* enum np_flow_by: --by's words are in its order */
	bool stacks;
	bool arrivals;		/* --arrivals: per rx queue and CPU, a program per packet */
	struct np_options opt;		/* rtt and bandwidth from the settings file */
	struct np_config cfg;		/* the settings file doctor reads too */
};

struct capture_args {
	const char *ifname;
	const char *output;
	const char *netns;
	double interval;
	bool all;
	bool plain;
	int verbose;
};

struct diff_args {
	const char *before, *after, *ifname, *output;
	const char *root, *at, *to;	/* --root DIR --at T1 --to T2: two windows of a recording */
	const char *netns;		/* --live --netns NS: the running system of namespace NS */
	double window;
	bool live, json;
	double interval;
	enum np_color color;
	int verbose;
};

struct plan_args {
	const char *ifname, *root, *write;
	const char *netns;	/* --netns NS: plan for an interface of namespace NS */
	int profile;		/* -1 until --profile */
	double rtt_ms, bw_bps, interval;
	bool json, all;
	int verbose;
};

/* netpath path and netpath serve (spec_path.c). */
struct path_args {
	const char *peer, *key, *netns;
	double duration;
	unsigned streams;
	bool reverse, udp_steps, json;
	int verbose;
};

struct serve_args {
	const char *listen, *key, *netns;
	double max_duration;
	bool once;
	int verbose;
};

/* checks and explain share one table. */
struct reference_args {
	bool json;
};

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
/* Every command's name, synopsis and option table (spec_*.c), in `netpath --help` order. */
#ifndef NP_SPECS_H
#define NP_SPECS_H

#include <stddef.h>

#include "optable.h"

enum np_cmd_id {
	NP_CMD_DOCTOR, NP_CMD_CHECKS, NP_CMD_EXPLAIN, NP_CMD_TRACE, NP_CMD_CAPTURE,
	NP_CMD_WATCH, NP_CMD_DIFF, NP_CMD_PLAN, NP_CMD_RECORD, NP_CMD_HISTORY, NP_CMD__COUNT
};

/* The commands, indexed by enum np_cmd_id. */
extern const struct np_cmd_spec *const np_cmd_specs[NP_CMD__COUNT];

/* Long-only option ids (>= 256), per command; short options are their letter. */
enum {
	NP_DOCTOR_RTT = 256, NP_DOCTOR_BANDWIDTH, NP_DOCTOR_COLOR, NP_DOCTOR_ROOT,
	NP_DOCTOR_BEFORE, NP_DOCTOR_ALL_COUNTERS, NP_DOCTOR_NETNS, NP_DOCTOR_CONFIG,
	NP_DOCTOR_THRESHOLD, NP_DOCTOR_CHECK, NP_DOCTOR_SKIP, NP_DOCTOR_FORMAT,
	NP_DOCTOR_NAGIOS, NP_DOCTOR_SOCKETS, NP_DOCTOR_INTERVAL_OF, NP_DOCTOR_ALL,
	NP_DOCTOR_EVERY, NP_DOCTOR_COUNT, NP_DOCTOR_BRIEF, NP_DOCTOR_AT, NP_DOCTOR_WINDOW,
};
enum { NP_WATCH_COLOR = 256, NP_WATCH_ROOT, NP_WATCH_NETNS, NP_WATCH_CONFIG,
       NP_WATCH_WALK_EVERY };
enum { NP_CAPTURE_ALL = 256, NP_CAPTURE_NETNS, NP_CAPTURE_PLAIN };
enum { NP_DIFF_LIVE = 256, NP_DIFF_COLOR, NP_DIFF_ROOT, NP_DIFF_AT, NP_DIFF_TO, NP_DIFF_WINDOW,
       NP_DIFF_NETNS };
enum { NP_RECORD_KEEP = 256, NP_RECORD_MAX_SIZE, NP_RECORD_ALL, NP_RECORD_NETNS,
       NP_RECORD_CAPTURE_ON, NP_RECORD_CAPTURE_EVERY, NP_RECORD_DROPS, NP_RECORD_ROOT };
enum { NP_HISTORY_ROOT = 256, NP_HISTORY_SINCE, NP_HISTORY_UNTIL, NP_HISTORY_STAGE,
       NP_HISTORY_WORST };
enum { NP_PLAN_RTT = 256, NP_PLAN_BANDWIDTH, NP_PLAN_ROOT, NP_PLAN_ALL, NP_PLAN_NETNS };
enum { NP_TRACE_NETNS = 256, NP_TRACE_XDP, NP_TRACE_XDP_MODE, NP_TRACE_XDP_ACCEPT_RESET,
       NP_TRACE_TOP, NP_TRACE_BY, NP_TRACE_HOST, NP_TRACE_PORT, NP_TRACE_PROTO, NP_TRACE_STACK,
       NP_TRACE_CONFIG };

extern const struct np_cmd_spec np_doctor_spec, np_checks_spec, np_explain_spec,
	np_watch_spec, np_capture_spec, np_diff_spec, np_trace_spec, np_plan_spec,
	np_record_spec, np_history_spec;

#endif

// SPDX-License-Identifier: GPL-2.0-only
/* The list of commands, for main's dispatch and usage and for the generated documentation. */
#include "specs.h"

const struct np_cmd_spec *const np_cmd_specs[NP_CMD__COUNT] = {
	[NP_CMD_DOCTOR] = &np_doctor_spec,
	[NP_CMD_CHECKS] = &np_checks_spec,
	[NP_CMD_EXPLAIN] = &np_explain_spec,
	[NP_CMD_TRACE] = &np_trace_spec,
	[NP_CMD_CAPTURE] = &np_capture_spec,
	[NP_CMD_WATCH] = &np_watch_spec,
	[NP_CMD_DIFF] = &np_diff_spec,
	[NP_CMD_PLAN] = &np_plan_spec,
	[NP_CMD_RECORD] = &np_record_spec,
	[NP_CMD_HISTORY] = &np_history_spec,
	[NP_CMD_PATH] = &np_path_spec,
	[NP_CMD_SERVE] = &np_serve_spec,
};

/* SPDX-License-Identifier: GPL-2.0-only */
/* Subcommands: each parses its own options and returns an exit code. */
#ifndef NP_COMMANDS_H
#define NP_COMMANDS_H

int np_cmd_doctor(int argc, char **argv);
int np_cmd_explain(int argc, char **argv);
int np_cmd_checks(int argc, char **argv);
int np_cmd_watch(int argc, char **argv);
int np_cmd_trace(int argc, char **argv);
int np_cmd_capture(int argc, char **argv);
int np_cmd_diff(int argc, char **argv);
int np_cmd_plan(int argc, char **argv);
int np_cmd_record(int argc, char **argv);
int np_cmd_history(int argc, char **argv);
int np_cmd_path(int argc, char **argv);
int np_cmd_serve(int argc, char **argv);

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One configuration for every command: doctor, watch and trace read the same settings (--config
 * FILE alone, else /etc/netpath.conf, /etc/netpath.conf.d/ *.conf and the same in meson's
 * $sysconfdir when that is another directory: np_config_load_dirs()), so
 * thresholds, check selection, rtt and bandwidth agree whichever command shows a finding.
 */
#ifndef NP_COMMAND_CONFIG_H
#define NP_COMMAND_CONFIG_H

#include "check.h"
#include "doctor_config.h"
#include "optable.h"
#include "status.h"

/*
 * The file before the command's other options, so that each of them overrides it: a first pass
 * over argv finds --config (option id config_id of spec). The file's rtt and bandwidth go
 * through the options' own parsers into opt; its interval into *interval when interval is not
 * NULL (doctor's sampling interval; watch's frame period is another thing). With --help in argv
 * nothing is read. *cfg is initialised on every path (all zero when nothing is read). 0, or
 * -1 with st saying which line is wrong.
 */
int np_command_config_load(const struct np_cmd_spec *spec, int config_id, int argc, char **argv,
			   struct np_config *cfg, struct np_options *opt, double *interval,
			   struct np_status *st);
/* With -v (the info level): one line on stderr per file read, in order, or one saying that
 * none was. Once the command has set its verbosity. */
void np_command_config_say(const struct np_config *cfg);

#endif

// SPDX-License-Identifier: GPL-2.0-only
/* The settings file read the same way by doctor, watch and trace. */
#include "command_config.h"

#include <string.h>

#include "conffile.h"
#include "log.h"
#include "opts.h"

int np_command_config_load(const struct np_cmd_spec *spec, int config_id, int argc, char **argv,
			   struct np_config *cfg, struct np_options *opt, double *interval,
			   struct np_status *st)
{
	const char *path = NULL, *v, *dirs[2];
	char err[512];
	int r;

	if (np_opts_prescan(spec, argc, argv, config_id, &path)) {
		memset(cfg, 0, sizeof(*cfg));	/* *cfg is initialised on every path */
		return 0;	/* --help works whatever the file says */
	}
	/* --config FILE: that file alone (no drop-ins), as a test or a check command wants. */
	if (path)
		r = np_config_load(path, true, cfg, err, sizeof(err));
	else
		r = np_config_load_dirs(dirs, np_config_default_dirs(dirs), cfg, err, sizeof(err));
	if (r < 0)
		return np_fail(st, "%s", err);
	v = cfg->interval.text;
	if (interval && cfg->interval.line && np_parse_number(v, 0, 3600, interval) < 0)
		return np_fail(st, "%s:%u: invalid interval '%s' (seconds, 0 to 3600)",
			       np_config_file(cfg, cfg->interval.file), cfg->interval.line, v);
	v = cfg->rtt.text;
	if (cfg->rtt.line && np_parse_number(v, 0.001, 100000, &opt->rtt_ms) < 0)
		return np_fail(st, "%s:%u: invalid rtt '%s' (milliseconds, > 0)",
			       np_config_file(cfg, cfg->rtt.file), cfg->rtt.line, v);
	v = cfg->bandwidth.text;
	if (cfg->bandwidth.line && np_parse_bandwidth(v, &opt->bandwidth_bps) < 0)
		return np_fail(st, "%s:%u: invalid bandwidth '%s' (e.g. 10G, 500M, 100k)",
			       np_config_file(cfg, cfg->bandwidth.file), cfg->bandwidth.line, v);
	return 0;
}

void np_command_config_say(const struct np_config *cfg)
{
	const char *dirs[2];
	size_t n;

	for (unsigned i = 1; i <= cfg->nfiles; i++)
		np_info("settings read from %s", np_config_file(cfg, i));
	if (cfg->nfiles)
		return;
	n = np_config_default_dirs(dirs);
	np_info("no settings file read (looked for %s/netpath.conf%s%s%s and their "
		"netpath.conf.d/*.conf)", dirs[0], n > 1 ? ", " : "", n > 1 ? dirs[1] : "",
		n > 1 ? "/netpath.conf" : "");
}

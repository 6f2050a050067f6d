// SPDX-License-Identifier: GPL-2.0-only
/* The settings file read the same way by doctor, watch and trace. */
#include "command_config.h"

#include "conffile.h"
#include "opts.h"

int np_command_config_load(const struct np_cmd_spec *spec, int config_id, int argc, char **argv,
			   struct np_config *cfg, struct np_options *opt, double *interval,
			   struct np_status *st)
{
	const char *path = NULL, *v;
	char err[512];

	if (np_opts_prescan(spec, argc, argv, config_id, &path))
		return 0;	/* --help works whatever the file says */
	if (np_config_load(path ? path : NP_CONFIG_PATH, path != NULL, cfg, err, sizeof(err)) < 0)
		return np_fail(st, "%s", err);
	v = cfg->interval.text;
	if (interval && cfg->interval.line && np_parse_number(v, 0, 3600, interval) < 0)
		return np_fail(st, "%s:%u: invalid interval '%s' (seconds, 0 to 3600)", cfg->path,
			       cfg->interval.line, v);
	v = cfg->rtt.text;
	if (cfg->rtt.line && np_parse_number(v, 0.001, 100000, &opt->rtt_ms) < 0)
		return np_fail(st, "%s:%u: invalid rtt '%s' (milliseconds, > 0)", cfg->path,
			       cfg->rtt.line, v);
	v = cfg->bandwidth.text;
	if (cfg->bandwidth.line && np_parse_bandwidth(v, &opt->bandwidth_bps) < 0)
		return np_fail(st, "%s:%u: invalid bandwidth '%s' (e.g. 10G, 500M, 100k)", cfg->path,
			       cfg->bandwidth.line, v);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0-only
/* netpath doctor's command line over its config file (spec_doctor.c has the table). */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

#include "doctor_run.h"
#include "specs.h"

/* The options whose values doctor parses itself; the others are stored by np_opts_parse() in
 * their rows' destinations (spec_doctor.c). */
static int set_option(void *arg, int id, const struct np_optval *v, struct np_status *st)
{
	struct doctor_args *d = arg;
	char err[512];

	if (id == NP_DOCTOR_THRESHOLD) {
		if (np_overrides_parse_option(&d->cfg.ovr, v->s, err, sizeof(err)) < 0)
			return np_fail(st, "--threshold: %s", err);
	} else if (id == NP_DOCTOR_CHECK || id == NP_DOCTOR_SKIP) {
		if (np_selection_parse(&d->cli_sel, id == NP_DOCTOR_CHECK ? NP_SEL_CHECK :
				       NP_SEL_SKIP, v->s, err, sizeof(err)) < 0)
			return np_fail(st, "--%s: %s", id == NP_DOCTOR_CHECK ? "check" : "skip",
				       err);
	} else if (id == NP_DOCTOR_FORMAT) {
		/* by the word, not its place in the row's list: --json and --format json alike */
		d->json = strcmp(v->s, "json") == 0;
		d->prom = strcmp(v->s, "prometheus") == 0;
	}
	return 0;	/* --config: read by np_command_config_load() */
}

int np_doctor_parse_args(int argc, char **argv, struct doctor_args *d, struct np_status *st)
{
	char err[512];
	int e;

	/* All but cfg (~50 KB), which np_command_config_load() initialises whatever it finds:
	 * zeroing it here as well was 2% of a doctor pass (issue #35). */
	memset(d, 0, offsetof(struct doctor_args, cfg));
	memset(&d->cli_sel, 0, sizeof(*d) - offsetof(struct doctor_args, cli_sel));
	d->opt.interval = 1;
	d->opt.rtt_ms = NAN;
	d->opt.bandwidth_bps = NAN;
	/* JSON errors need to know about --json before any other option is judged. */
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (strcmp(argv[i], "--json") == 0 || strcmp(argv[i], "-j") == 0 ||
		    strcmp(argv[i], "--format=json") == 0 ||
		    (strcmp(argv[i], "--format") == 0 && i + 1 < argc &&
		     strcmp(argv[i + 1], "json") == 0))
			d->json = true;
		/* Nagios parses stdout: even a bad option gets a "NETPATH UNKNOWN" line. */
		if (strcmp(argv[i], "--nagios") == 0)
			d->nagios = true;
	}
	/* Before the file: a misspelt --config must not read the default one. */
	e = np_opts_exact(&np_doctor_spec, argc, argv, st);
	if (e < 0)
		memset(&d->cfg, 0, sizeof(d->cfg));	/* the file is not read */
	if (e < 0 ||
	    np_command_config_load(&np_doctor_spec, NP_DOCTOR_CONFIG, argc, argv, &d->cfg, &d->opt,
				   &d->opt.interval, st) < 0 ||
	    np_opts_parse(&np_doctor_spec, argc, argv, set_option, d, st) < 0) {
		/* --help and --version under --nagios: UNKNOWN, as the Monitoring Plugins
		 * guidelines ask, so a check command given one by mistake never shows OK. */
		if (!np_failed(st) && d->nagios)
			st->code = NP_EXIT_UNKNOWN;
		return -1;
	}
	if (optind < argc)
		d->ifname = argv[optind++];
	if (d->all && d->ifname)
		return np_fail(st, "--all judges every interface: name none");
	if (optind < argc)
		return np_usage(st, "unexpected argument '%s' (one interface at a time)",
				argv[optind]);
	/* The rules between options alone are declared on their rows (spec_doctor.c) and
	 * checked by np_opts_parse(); these ones depend on values or operands. */
	if (d->nagios && (d->json || d->prom))
		return np_fail(st, "--nagios is an output format of its own: not with --json or "
			       "--format");
	/* A summary for people: machine formats carry every field, Nagios has its own line. */
	if (d->brief && (d->json || d->prom || d->nagios))
		return np_fail(st, "--brief is a short text form: not with %s",
			       d->nagios ? "--nagios" : d->json ? "--json or --format json" :
			       "--format prometheus");
	if (d->timeout > 0 && d->root == NULL && d->timeout <= d->opt.interval)
		return np_fail(st, "--timeout %g s must exceed the interval (%g s): the run samples "
			       "for that long", d->timeout, d->opt.interval);
	if (np_selection_merge(&d->cfg.sel, &d->cli_sel, err, sizeof(err)) < 0)
		return np_fail(st, "%s", err);
	if (d->nagios && !(d->timeout > 0)) {
		d->timeout = (d->root ? 0 : d->opt.interval) + NAGIOS_TIMEOUT_EXTRA;
		d->timeout_default = true;
	}
	return 0;
}

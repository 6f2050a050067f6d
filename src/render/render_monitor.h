/* SPDX-License-Identifier: GPL-2.0-only */
/* Monitoring renderers: Prometheus text exposition (textfile collector) and Nagios plugin mode. */
#ifndef NP_RENDER_MONITOR_H
#define NP_RENDER_MONITOR_H

#include <stdbool.h>
#include <stdio.h>

#include "render.h"

/*
 * Prometheus text format 0.0.4: netpath_* families, each with HELP and TYPE once. A device's
 * series carry interface (every device of v->devs), the host's carry no interface or netns and
 * appear once (left out under --netns), the run's and the namespace's carry netns with --netns
 * (see enum np_prom_scope). raw_driver_counters adds netpath_nic_driver_stat_total{name} for every
 * driver counter; otherwise only the classified ones, summed as netpath_nic_witness_total.
 */
void np_render_doctor_prom(FILE *out, const struct np_doctor_view *v, bool raw_driver_counters);

/*
 * Nagios/Icinga plugin output: "NETPATH OK|WARNING|CRITICAL - text | perfdata", then one line
 * per warning/critical finding. Returns the plugin exit code: 0 OK (info findings included),
 * 1 WARNING, 2 CRITICAL.
 */
int np_render_doctor_nagios(FILE *out, const struct np_doctor_view *v);
/*
 * A perfdata warn/crit field for a netpath level t (alert when the value is at or above t) in
 * the Monitoring Plugins range syntax: "@t:" (inside t..infinity, ends included); "" for NaN.
 */
void np_nagios_range_at_least(double t, char *buf, size_t size);
/* "NETPATH UNKNOWN - reason" for exit code 3 (could not diagnose). */
void np_render_nagios_unknown(FILE *out, const char *reason);

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * /etc/netpath.conf (or --config FILE): doctor's settings, one per line. (Not "config.h": that
 * name is meson's generated header with NETPATH_VERSION.)
 *
 *   # comment (a '#' anywhere starts one); blank lines are ignored
 *   threshold softnet.backlog-drops warn=10 crit=1000   # either level may be left out
 *   check softnet,socket.*      # run only these: ids, globs, stage names; commas or blanks
 *   skip congestion.keepalive   # never run these
 *   interval 2                  # = --interval 2
 *   rtt 30                      # = --rtt 30
 *   bandwidth 10G               # = --bandwidth 10G
 *
 * Repeated `threshold`, `check` and `skip` lines add up; for the other settings the last line
 * wins. The command line overrides the file: --threshold per check and level, --check and
 * --skip each replace the file's list, --interval/--rtt/--bandwidth their line.
 */
#ifndef NP_CONFFILE_H
#define NP_CONFFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "selection.h"

#define NP_CONFIG_PATH "/etc/netpath.conf"
#define NP_CONFIG_MAX_BYTES (1 << 20)
#define NP_CONFIG_MAX_LINE 1024

/*
 * A doctor option set by the file. Its value is checked by the command with the same function
 * that checks the command-line option (so both accept the same syntax); the line is for the
 * error message ("FILE:LINE: invalid bandwidth 'x'").
 */
struct np_config_value {
	char text[64];
	unsigned line;			/* 0: not in the file */
};

struct np_config {
	char path[1024];		/* the file read; "" when there was none */
	struct np_overrides ovr;	/* `threshold` lines */
	struct np_selection sel;	/* `check` and `skip` lines */
	struct np_config_value interval, rtt, bandwidth;
};

/*
 * Parse a config text (len bytes, need not be NUL-terminated) into *c, which it initialises;
 * name is the file name used in messages. 0, or -EINVAL with "NAME:LINE: what is wrong" in err
 * for the first bad line (unknown setting, missing or extra value, unknown check id, pattern
 * matching nothing, bad threshold, overlong line, NUL byte). Nothing to free on failure.
 */
int np_config_parse(struct np_config *c, const char *name, const char *text, size_t len,
		    char *err, size_t errlen);

/*
 * Read and parse path. A missing file is an empty config when !required (the default
 * /etc/netpath.conf), an error when required (--config FILE); any other read error is an error
 * either way: monitoring must not silently run with default thresholds because the file it was
 * given cannot be read. 0 or -errno/-EINVAL with a one-line reason in err. *c holds no
 * allocation (nothing leaks on an early exit); np_config_free() resets it.
 */
int np_config_load(const char *path, bool required, struct np_config *c, char *err,
		   size_t errlen);
void np_config_free(struct np_config *c);

#endif

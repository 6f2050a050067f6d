/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Doctor's settings from the config file: the file's plain lines (core/conffile.h) handed to the
 * check selection and threshold overrides (checks/selection.h), which judge what they name. The
 * command line is layered over the result by cmd_doctor.c.
 */
#ifndef NP_DOCTOR_CONFIG_H
#define NP_DOCTOR_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "conffile.h"
#include "selection.h"

/* Files read at most: /etc's and sysconfdir's main file and drop-ins. */
#define NP_CONFIG_MAX_FILES (2 * (1 + NP_CONFIG_MAX_DROPINS))

struct np_config {
	char path[1024];		/* the last file read; "" when there was none */
	/* The files read, in order, for -v and for messages: nfiles names, NUL-separated. */
	unsigned nfiles;
	char files[NP_CONFIG_MAX_FILES * 320];
	struct np_overrides ovr;	/* `threshold` lines */
	struct np_selection sel;	/* `check` and `skip` lines */
	struct np_config_value interval, rtt, bandwidth;
};

/*
 * Parse a config text (len bytes, need not be NUL-terminated) into *c, which it initialises;
 * name is the file name used in messages. 0, or -EINVAL with "NAME:LINE: what is wrong" in err
 * for the first bad line (unknown setting, missing or extra value, unknown check id, pattern
 * matching nothing, bad threshold, overlong line, NUL byte), or "NAME: ..." when the lines
 * together leave no check to run. Nothing to free on failure.
 */
int np_config_parse(struct np_config *c, const char *name, const char *text, size_t len,
		    char *err, size_t errlen);

/*
 * np_conffile_load() (missing, unreadable and untrusted files), then the same as
 * np_config_parse(). *c holds no allocation (nothing leaks on an early exit); np_config_free()
 * resets it.
 */
int np_config_load(const char *path, bool required, struct np_config *c, char *err,
		   size_t errlen);

/*
 * The settings read without --config: for each directory of dirs (n of them) in turn,
 * DIR/netpath.conf then the drop-ins DIR/netpath.conf.d/ *.conf (np_conffile_dropins()), all
 * as if they were one file: `threshold` lines set their levels one by one, `check` and `skip`
 * lines add up, for `interval`, `rtt` and `bandwidth` the last line read wins. A directory that
 * is the same as one before (a symbolic link) is read once. Missing files and directories are
 * no settings; anything else np_config_load() refuses is an error (the first one, naming its
 * file). The dirs of np_config_default_dirs() in production, others in tests.
 */
int np_config_load_dirs(const char *const *dirs, size_t n, struct np_config *c, char *err,
			size_t errlen);
/* NP_CONFIG_ETC_DIR, then NP_CONFIG_SYSCONFDIR when it is another path: into dirs[2]; the
 * count. */
size_t np_config_default_dirs(const char *dirs[2]);
/* The name of the i-th file read (from 1), or "" (i 0 or out of range). */
const char *np_config_file(const struct np_config *c, unsigned i);
void np_config_free(struct np_config *c);

#endif

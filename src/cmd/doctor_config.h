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
void np_config_free(struct np_config *c);

#endif

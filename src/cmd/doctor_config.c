// SPDX-License-Identifier: GPL-2.0-only
/* The config file's lines given their meaning: check selection and threshold overrides. */
#include "doctor_config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* One threshold/check/skip line through the parser the command line uses; its message is
 * prefixed "NAME:LINE: ". */
static int apply_rule(struct np_config *c, const char *name, const struct np_conffile_rule *r,
		      char *err, size_t errlen)
{
	char msg[320];
	int rc;

	switch (r->kind) {
	case NP_CONFFILE_THRESHOLD:
		rc = r->id ? np_overrides_set(&c->ovr, r->id, r->arg, msg, sizeof(msg)) :
			     np_overrides_parse_option(&c->ovr, r->arg, msg, sizeof(msg));
		break;
	default:
		rc = np_selection_parse(&c->sel, r->kind == NP_CONFFILE_CHECK ? NP_SEL_CHECK :
					NP_SEL_SKIP, r->arg, msg, sizeof(msg));
		break;
	}
	if (rc < 0)
		snprintf(err, errlen, "%s:%u: %s", name, r->line, msg);
	return rc < 0 ? -EINVAL : 0;
}

/*
 * The file read (r: its parse or load result) into *c. The rules before a syntax error are
 * judged first, so the first bad line is reported whichever kind of error it has.
 */
static int resolve(struct np_config *c, struct np_conffile *f, int r, char *err, size_t errlen)
{
	char msg[256];

	memset(c, 0, sizeof(*c));
	for (size_t i = 0; i < f->nrules; i++)
		if (apply_rule(c, f->name, &f->rules[i], err, errlen) < 0) {
			r = -EINVAL;
			goto out;
		}
	if (r < 0)
		goto out;
	if (np_selection_validate(&c->sel, msg, sizeof(msg)) < 0) {
		snprintf(err, errlen, "%s: %s", f->name, msg);
		r = -EINVAL;
		goto out;
	}
	snprintf(c->path, sizeof(c->path), "%s", f->path);
	c->interval = f->interval;
	c->rtt = f->rtt;
	c->bandwidth = f->bandwidth;
out:
	np_conffile_free(f);
	return r;
}

int np_config_parse(struct np_config *c, const char *name, const char *text, size_t len,
		    char *err, size_t errlen)
{
	struct np_conffile f;
	int r = np_conffile_parse(&f, name, text, len, err, errlen);

	return resolve(c, &f, r, err, errlen);
}

int np_config_load(const char *path, bool required, struct np_config *c, char *err,
		   size_t errlen)
{
	struct np_conffile f;
	int r = np_conffile_load(path, required, &f, err, errlen);

	return resolve(c, &f, r, err, errlen);
}

void np_config_free(struct np_config *c)
{
	memset(c, 0, sizeof(*c));
}

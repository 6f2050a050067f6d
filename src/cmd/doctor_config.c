// SPDX-License-Identifier: GPL-2.0-only
/* The config file's lines given their meaning: check selection and threshold overrides. */
#include "doctor_config.h"
#include "strjoin.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* Record path as the next file read; its number (from 1), or 0 when the list is full. */
static unsigned add_file(struct np_config *c, const char *path)
{
	size_t used = 0, len = strlen(path) + 1;

	for (unsigned i = 0; i < c->nfiles; i++)
		used += strlen(c->files + used) + 1;
	if (c->nfiles == NP_CONFIG_MAX_FILES || used + len > sizeof(c->files))
		return 0;
	memcpy(c->files + used, path, len);
	return ++c->nfiles;
}

const char *np_config_file(const struct np_config *c, unsigned i)
{
	size_t used = 0;

	if (i == 0 || i > c->nfiles)
		return "";
	while (--i)
		used += strlen(c->files + used) + 1;
	return c->files + used;
}

static void take(struct np_config_value *to, const struct np_config_value *v, unsigned file)
{
	if (!v->line)
		return;
	*to = *v;
	to->file = file;
}

/*
 * One file read (r: its parse or load result) layered over *c: its rules, then its values.
 * The rules before a syntax error are judged first, so the first bad line is reported
 * whichever kind of error it has. f is freed.
 */
static int apply(struct np_config *c, struct np_conffile *f, int r, char *err, size_t errlen)
{
	unsigned file;

	for (size_t i = 0; i < f->nrules; i++)
		if (apply_rule(c, f->name, &f->rules[i], err, errlen) < 0) {
			r = -EINVAL;
			goto out;
		}
	if (r < 0)
		goto out;
	/* A file read (not a text parsed, nor a missing file): its number for -v and messages. */
	file = f->path[0] ? add_file(c, f->path) : 0;
	if (f->path[0] && !file) {
		snprintf(err, errlen, "%s: too many config files", f->path);
		r = -E2BIG;
		goto out;
	}
	if (f->path[0])
		np_strjoin(c->path, sizeof(c->path), f->path);
	take(&c->interval, &f->interval, file);
	take(&c->rtt, &f->rtt, file);
	take(&c->bandwidth, &f->bandwidth, file);
out:
	np_conffile_free(f);
	return r;
}

/* All files read: the lists together must leave a check to run. */
static int finish(struct np_config *c, const char *name, int r, char *err, size_t errlen)
{
	char msg[256];

	if (r == 0 && np_selection_validate(&c->sel, msg, sizeof(msg)) < 0) {
		snprintf(err, errlen, "%s: %s", name, msg);
		r = -EINVAL;
	}
	if (r < 0)
		c->path[0] = '\0';
	return r;
}

/* *c as memset(c, 0, sizeof(*c)) leaves it, but for the file list (41 KB of its 50: clearing
 * it was 2.7% of a doctor pass): add_file() and np_config_file() read only the nfiles names
 * written there, each with its NUL. */
static void config_init(struct np_config *c)
{
	size_t end = offsetof(struct np_config, files) + sizeof(c->files);

	memset(c, 0, offsetof(struct np_config, files));
	memset((char *)c + end, 0, sizeof(*c) - end);
	c->files[0] = '\0';
}

int np_config_parse(struct np_config *c, const char *name, const char *text, size_t len,
		    char *err, size_t errlen)
{
	struct np_conffile f;
	int r = np_conffile_parse(&f, name, text, len, err, errlen);

	config_init(c);
	return finish(c, name, apply(c, &f, r, err, errlen), err, errlen);
}

int np_config_load(const char *path, bool required, struct np_config *c, char *err,
		   size_t errlen)
{
	struct np_conffile f;
	int r = np_conffile_load(path, required, &f, err, errlen);

	config_init(c);
	return finish(c, path, apply(c, &f, r, err, errlen), err, errlen);
}

size_t np_config_default_dirs(const char *dirs[2])
{
	dirs[0] = NP_CONFIG_ETC_DIR;
	if (strcmp(NP_CONFIG_SYSCONFDIR, NP_CONFIG_ETC_DIR) == 0)
		return 1;
	dirs[1] = NP_CONFIG_SYSCONFDIR;
	return 2;
}

/* DIR/netpath.conf, then DIR/netpath.conf.d/ *.conf, over *c. */
static int load_dir(struct np_config *c, const char *dir, char *err, size_t errlen)
{
	char path[1024], **dropins;
	struct np_conffile f;
	size_t n;
	int r;

	if (np_strjoin(path, sizeof(path), dir, "/netpath.conf") >= (int)sizeof(path)) {
		snprintf(err, errlen, "config directory name too long");
		return -ENAMETOOLONG;
	}
	r = np_conffile_load(path, false, &f, err, errlen);
	r = apply(c, &f, r, err, errlen);
	if (r < 0)
		return r;
	np_strjoin(path, sizeof(path), dir, "/netpath.conf.d");
	r = np_conffile_dropins(path, geteuid(), &dropins, &n, err, errlen);
	for (size_t i = 0; r == 0 && i < n; i++) {
		/* Not required: one removed since the listing is no settings, as if not there. */
		r = np_conffile_load(dropins[i], false, &f, err, errlen);
		r = apply(c, &f, r, err, errlen);
	}
	free(dropins);
	return r;
}

int np_config_load_dirs(const char *const *dirs, size_t n, struct np_config *c, char *err,
			size_t errlen)
{
	struct stat seen[2], st;
	size_t nseen = 0;
	int r = 0;

	config_init(c);
	for (size_t i = 0; r == 0 && i < n; i++) {
		bool dup = false;

		/* /usr/local/etc linked to /etc: its files once. */
		if (stat(dirs[i], &st) == 0) {
			for (size_t j = 0; j < nseen; j++)
				dup |= seen[j].st_dev == st.st_dev && seen[j].st_ino == st.st_ino;
			if (nseen < sizeof(seen) / sizeof(seen[0]))
				seen[nseen++] = st;
		}
		if (!dup)
			r = load_dir(c, dirs[i], err, errlen);
	}
	return finish(c, c->nfiles ? c->path : dirs[0], r, err, errlen);
}

void np_config_free(struct np_config *c)
{
	memset(c, 0, sizeof(*c));
}

// SPDX-License-Identifier: GPL-2.0-only
/* Check selection (--check, --skip) and threshold overrides (--threshold) over the check table. */
#include "selection.h"

#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suggest.h"

/* Longer than any id or sensible pattern; longer input is an error, not a truncation. */
#define NP_PATTERN_MAX 128

bool np_pattern_match(const char *pattern, const struct np_check *c)
{
	int st;

	if (strcmp(pattern, c->id) == 0)
		return true;
	st = np_stage_from_name(pattern);
	if (st >= 0)
		return c->stage == (enum np_stage)st;
	return fnmatch(pattern, c->id, 0) == 0;
}

const char *np_check_suggest(const char *word, bool stages, bool thresholds)
{
	size_t n;
	const struct np_check *const *t = np_check_table(&n);
	struct np_suggest sg;

	if (strpbrk(word, "*?["))
		return NULL;
	np_suggest_init(&sg, word);
	for (int st = 0; stages && st < NP_STAGE__COUNT; st++)
		np_suggest_add(&sg, np_stage_name((enum np_stage)st));
	for (size_t i = 0; i < n; i++)
		if (!thresholds || !isnan(t[i]->warn) || !isnan(t[i]->crit))
			np_suggest_add(&sg, t[i]->id);
	return np_suggest_best(&sg);
}

/* " (did you mean 'X'?)" for a mistyped id or pattern, or "". */
static const char *did_you_mean(const char *word, bool stages, bool thresholds, char *buf,
				size_t size)
{
	const char *best = np_check_suggest(word, stages, thresholds);

	if (!best)
		return "";
	snprintf(buf, size, "did you mean '%s'? ", best);
	return buf;
}

/* Copy [b, e) into buf with surrounding blanks removed; false if it does not fit. */
static bool trimmed(const char *b, const char *e, char *buf, size_t size)
{
	while (b < e && isspace((unsigned char)*b))
		b++;
	while (e > b && isspace((unsigned char)e[-1]))
		e--;
	if ((size_t)(e - b) >= size)
		return false;
	memcpy(buf, b, (size_t)(e - b));
	buf[e - b] = '\0';
	return true;
}

static int select_one(struct np_selection *s, enum np_sel_kind kind, const char *pat, char *err,
		      size_t errlen)
{
	size_t n, hits = 0;
	const struct np_check *const *t = np_check_table(&n);
	bool *set = kind == NP_SEL_CHECK ? s->check : s->skip;

	for (size_t i = 0; i < n; i++) {
		if (np_pattern_match(pat, t[i])) {
			set[i] = true;
			hits++;
		}
	}
	if (!hits) {
		char dym[NP_PATTERN_MAX + 32];

		snprintf(err, errlen, "'%s' matches no check (%sids, globs like softnet.* or stage "
			 "names; list them with 'netpath checks')", pat,
			 did_you_mean(pat, true, false, dym, sizeof(dym)));
		return -EINVAL;
	}
	return 0;
}

int np_selection_parse(struct np_selection *s, enum np_sel_kind kind, const char *arg,
		       char *err, size_t errlen)
{
	char pat[NP_PATTERN_MAX];
	const char *p = arg, *e;
	int r;

	do {
		e = strchr(p, ',');
		if (!e)
			e = p + strlen(p);
		if (!trimmed(p, e, pat, sizeof(pat))) {
			snprintf(err, errlen, "check pattern too long in '%.40s...'", arg);
			return -EINVAL;
		}
		if (!pat[0]) {
			snprintf(err, errlen, "empty check id in '%s' (ID,ID,... with no empty "
				 "item)", arg);
			return -EINVAL;
		}
		r = select_one(s, kind, pat, err, errlen);
		if (r < 0)
			return r;
		p = e + 1;
	} while (*e);
	if (kind == NP_SEL_CHECK)
		s->has_check = true;
	else
		s->has_skip = true;
	return 0;
}

bool np_selection_want(const struct np_check *c, void *arg)
{
	const struct np_selection *s = arg;
	int i;

	if (!s)
		return true;
	i = np_check_index(c);
	if (i < 0)
		return false;
	if (s->has_check && !s->check[i])
		return false;
	return !(s->has_skip && s->skip[i]);
}

size_t np_selection_count(const struct np_selection *s)
{
	size_t n, k = 0;
	const struct np_check *const *t = np_check_table(&n);

	if (!s || (!s->has_check && !s->has_skip))
		return n;	/* every check is wanted */
	for (size_t i = 0; i < n; i++)
		k += np_selection_want(t[i], (void *)s);
	return k;
}

int np_selection_validate(const struct np_selection *s, char *err, size_t errlen)
{
	if (np_selection_count(s))
		return 0;
	snprintf(err, errlen, "the check and skip lists leave no check to run");
	return -EINVAL;
}

int np_selection_merge(struct np_selection *dst, const struct np_selection *src, char *err,
		       size_t errlen)
{
	if (src->has_check) {
		dst->has_check = true;
		memcpy(dst->check, src->check, sizeof(dst->check));
	}
	if (src->has_skip) {
		dst->has_skip = true;
		memcpy(dst->skip, src->skip, sizeof(dst->skip));
	}
	return np_selection_validate(dst, err, errlen);
}

/* ---- thresholds ---- */

/* A threshold value: a plain finite number >= 0 ("1000", "0.5", "1e5"). */
static int parse_value(const char *s, double *out)
{
	char *end;
	double v;

	if (!*s || isspace((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v) || v < 0)
		return -EINVAL;
	/* strtod() reads hex too ("0x10" = 16): a threshold is written in decimal. */
	if (strpbrk(s, "xXpP"))
		return -EINVAL;
	*out = v;
	return 0;
}

/* Both levels measure one quantity unless the table says otherwise: socket.tcp-mem compares
 * its warning with tcp_mem[1] and its critical threshold with tcp_mem[2] (100 and 90). */
static bool levels_ordered(const struct np_check *c)
{
	return isnan(c->warn) || isnan(c->crit) || c->warn <= c->crit;
}

/* Parse "warn=N" / "crit=N" items separated by commas or blanks into t (levels given only). */
static int parse_levels(const struct np_check *c, const char *levels, struct np_threshold *t,
			char *err, size_t errlen)
{
	const char *p = levels;
	char item[64];
	int nitems = 0;

	memset(t, 0, sizeof(*t));
	for (;;) {
		const char *b, *eq;
		bool warn;
		double v;

		while (*p == ',' || isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		b = p;
		while (*p && *p != ',' && !isspace((unsigned char)*p))
			p++;
		if (!trimmed(b, p, item, sizeof(item))) {
			snprintf(err, errlen, "%s: threshold item too long", c->id);
			return -EINVAL;
		}
		eq = strchr(item, '=');
		if (!eq || (strncmp(item, "warn=", 5) != 0 && strncmp(item, "crit=", 5) != 0)) {
			snprintf(err, errlen, "%s: '%s' is not warn=N or crit=N", c->id, item);
			return -EINVAL;
		}
		warn = item[0] == 'w';
		if (parse_value(eq + 1, &v) < 0) {
			snprintf(err, errlen, "%s: invalid %s value '%s' (a number >= 0, in %s)",
				 c->id, warn ? "warn" : "crit", eq + 1,
				 c->thr_unit ? c->thr_unit : "the check's unit");
			return -EINVAL;
		}
		if (warn ? t->has_warn : t->has_crit) {
			snprintf(err, errlen, "%s: %s given twice", c->id, warn ? "warn" : "crit");
			return -EINVAL;
		}
		if (isnan(warn ? c->warn : c->crit)) {
			snprintf(err, errlen, "%s has no %s threshold (only %s=%g, in %s)", c->id,
				 warn ? "warning" : "critical", warn ? "crit" : "warn",
				 warn ? c->crit : c->warn, c->thr_unit ? c->thr_unit : "its unit");
			return -EINVAL;
		}
		if (warn) {
			t->has_warn = true;
			t->warn = v;
		} else {
			t->has_crit = true;
			t->crit = v;
		}
		nitems++;
	}
	if (!nitems) {
		snprintf(err, errlen, "%s: no threshold given (warn=N and/or crit=N)", c->id);
		return -EINVAL;
	}
	return 0;
}

int np_overrides_set(struct np_overrides *o, const char *id, const char *levels, char *err,
		     size_t errlen)
{
	const struct np_check *c = np_check_find(id);
	struct np_threshold t, *cur;
	double warn, crit;
	int i, r;

	if (!c) {
		char dym[NP_PATTERN_MAX + 32];

		snprintf(err, errlen, "no check '%s' (%slist them with 'netpath checks')", id,
			 did_you_mean(id, false, true, dym, sizeof(dym)));
		return -EINVAL;
	}
	if (isnan(c->warn) && isnan(c->crit)) {
		snprintf(err, errlen, "%s has no thresholds to override (it judges configuration, "
			 "not counters)", id);
		return -EINVAL;
	}
	r = parse_levels(c, levels, &t, err, errlen);
	if (r < 0)
		return r;
	i = np_check_index(c);
	cur = &o->t[i];
	/* The pair the check will run with: these levels over earlier ones over the table. */
	warn = t.has_warn ? t.warn : cur->has_warn ? cur->warn : c->warn;
	crit = t.has_crit ? t.crit : cur->has_crit ? cur->crit : c->crit;
	/* Either level may be given alone: a default the given level passes follows it (warn=500
	 * alone, against the default crit=100, is critical from 500 too), so that raising one
	 * level never needs the other restated. Levels the admin set are not moved. */
	if (levels_ordered(c) && !isnan(warn) && !isnan(crit) && warn > crit) {
		if (t.has_warn && !t.has_crit && !cur->has_crit) {
			t.has_crit = true;
			t.crit = crit = warn;
		} else if (t.has_crit && !t.has_warn && !cur->has_warn) {
			t.has_warn = true;
			t.warn = warn = crit;
		}
	}
	if (levels_ordered(c) && !isnan(warn) && !isnan(crit) && warn > crit) {
		snprintf(err, errlen, "%s: warn=%g is above crit=%g%s (the warning level must not "
			 "exceed the critical one)", id, warn, crit,
			 t.has_crit ? "" : " (set earlier)");
		return -EINVAL;
	}
	if (t.has_warn) {
		cur->has_warn = true;
		cur->warn = t.warn;
	}
	if (t.has_crit) {
		cur->has_crit = true;
		cur->crit = t.crit;
	}
	return 0;
}

int np_overrides_parse_option(struct np_overrides *o, const char *arg, char *err,
			      size_t errlen)
{
	const char *colon = strchr(arg, ':');
	char id[NP_PATTERN_MAX];

	if (!colon || !trimmed(arg, colon, id, sizeof(id)) || !id[0]) {
		snprintf(err, errlen, "'%s' is not ID:warn=N,crit=N (e.g. "
			 "softnet.backlog-drops:warn=10,crit=1000)", arg);
		return -EINVAL;
	}
	return np_overrides_set(o, id, colon + 1, err, errlen);
}

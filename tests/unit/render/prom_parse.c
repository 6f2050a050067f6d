// SPDX-License-Identifier: GPL-2.0-only
/* A strict Prometheus text format 0.0.4 checker for the render unit tests. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "prom_parse.h"

struct cur {
	const char *p, *end;
	size_t line;
};

static bool name_start(char ch, bool colon)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_' ||
	       (colon && ch == ':');
}

static char *take_name(struct cur *c, bool colon)
{
	const char *s = c->p;

	if (c->p >= c->end || !name_start(*c->p, colon))
		fail_msg("line %zu: expected a name at '%.20s'", c->line, c->p);
	while (c->p < c->end && (name_start(*c->p, colon) || (*c->p >= '0' && *c->p <= '9')))
		c->p++;
	return strndup(s, (size_t)(c->p - s));
}

static void expect(struct cur *c, char ch)
{
	if (c->p >= c->end || *c->p != ch)
		fail_msg("line %zu: expected '%c' at '%.20s'", c->line, ch, c->p);
	c->p++;
}

/* Up to the end of the line (or the closing quote when quoted), undoing the escapes the
 * format allows: \\ and \n everywhere, \" in label values. Anything else is an error. */
static char *take_text(struct cur *c, bool quoted)
{
	char *out = malloc((size_t)(c->end - c->p) + 1);
	size_t o = 0;

	assert_non_null(out);
	while (c->p < c->end && *c->p != '\n' && !(quoted && *c->p == '"')) {
		if (*c->p != '\\') {
			out[o++] = *c->p++;
			continue;
		}
		c->p++;
		if (c->p < c->end && *c->p == '\\')
			out[o++] = '\\';
		else if (c->p < c->end && *c->p == 'n')
			out[o++] = '\n';
		else if (quoted && c->p < c->end && *c->p == '"')
			out[o++] = '"';
		else
			fail_msg("line %zu: bad escape '\\%c'", c->line,
				 c->p < c->end ? *c->p : '?');
		c->p++;
	}
	out[o] = '\0';
	return out;
}

static struct prom_family *find(struct prom_doc *d, const char *name)
{
	for (size_t i = 0; i < d->nfam; i++)
		if (!strcmp(d->fam[i].name, name))
			return &d->fam[i];
	return NULL;
}

static void comment(struct prom_doc *d, struct cur *c)
{
	bool help = c->end - c->p > 7 && !strncmp(c->p, "# HELP ", 7);
	bool type = c->end - c->p > 7 && !strncmp(c->p, "# TYPE ", 7);
	struct prom_family *f;
	char *name;

	if (!help && !type)
		fail_msg("line %zu: a comment that is neither HELP nor TYPE", c->line);
	c->p += 7;
	name = take_name(c, true);
	expect(c, ' ');
	f = find(d, name);
	if (help) {
		/* HELP opens a family: once per name, before anything else of it. */
		if (f)
			fail_msg("line %zu: second HELP for %s", c->line, name);
		d->fam = realloc(d->fam, (d->nfam + 1) * sizeof(*d->fam));
		assert_non_null(d->fam);
		f = &d->fam[d->nfam++];
		memset(f, 0, sizeof(*f));
		f->name = name;
		f->help = take_text(c, false);
		if (!f->help[0])
			fail_msg("line %zu: empty HELP for %s", c->line, name);
		return;
	}
	if (!f || f != &d->fam[d->nfam - 1] || f->type || f->nsamples)
		fail_msg("line %zu: TYPE %s not right after its HELP (or twice)", c->line, name);
	free(name);
	f->type = take_text(c, false);
	if (strcmp(f->type, "counter") && strcmp(f->type, "gauge"))
		fail_msg("line %zu: type '%s' (netpath writes counters and gauges)", c->line,
			 f->type);
	if (!strcmp(f->type, "counter")) {
		size_t n = strlen(f->name);

		if (n < 6 || strcmp(f->name + n - 6, "_total"))
			fail_msg("counter %s does not end in _total", f->name);
	}
}

static char *series_key(const struct prom_sample *s)
{
	size_t idx[PROM_MAX_LABELS], len = strlen(s->name) + 3;
	char *key;

	for (size_t i = 0; i < s->nl; i++) {
		idx[i] = i;
		len += strlen(s->lname[i]) + strlen(s->lval[i]) + 2;
	}
	/* Insertion sort by label name: the set, not the order, is the identity. */
	for (size_t i = 1; i < s->nl; i++)
		for (size_t j = i; j > 0 && strcmp(s->lname[idx[j - 1]], s->lname[idx[j]]) > 0;
		     j--) {
			size_t t = idx[j];

			idx[j] = idx[j - 1];
			idx[j - 1] = t;
		}
	key = malloc(len);
	assert_non_null(key);
	strcpy(key, s->name);
	strcat(key, "{");
	for (size_t i = 0; i < s->nl; i++) {
		strcat(key, s->lname[idx[i]]);
		strcat(key, "\x01");
		strcat(key, s->lval[idx[i]]);
		strcat(key, "\x02");
	}
	strcat(key, "}");
	return key;
}

static void sample(struct prom_doc *d, struct cur *c)
{
	struct prom_sample *s;
	struct prom_family *f;
	char *end;

	d->s = realloc(d->s, (d->ns + 1) * sizeof(*d->s));
	assert_non_null(d->s);
	s = &d->s[d->ns++];
	memset(s, 0, sizeof(*s));
	s->name = take_name(c, true);
	f = find(d, s->name);
	/* Declared with HELP and TYPE, and the family still being written (not split). */
	if (!f || !f->type)
		fail_msg("line %zu: sample %s before its HELP and TYPE", c->line, s->name);
	if (f != &d->fam[d->nfam - 1])
		fail_msg("line %zu: samples of %s are not consecutive", c->line, s->name);
	f->nsamples++;
	/* A sample without labels is the bare name: "name 1". */
	if (c->p < c->end && *c->p == ' ')
		goto value;
	expect(c, '{');
	while (c->p < c->end && *c->p != '}') {
		if (s->nl == PROM_MAX_LABELS)
			fail_msg("line %zu: too many labels", c->line);
		s->lname[s->nl] = take_name(c, false);
		for (size_t i = 0; i < s->nl; i++)
			if (!strcmp(s->lname[i], s->lname[s->nl]))
				fail_msg("line %zu: label %s twice", c->line, s->lname[i]);
		expect(c, '=');
		expect(c, '"');
		s->lval[s->nl++] = take_text(c, true);
		expect(c, '"');
		if (c->p < c->end && *c->p == ',')
			c->p++;
	}
	expect(c, '}');
value:
	/* One label set per family: the same names in the same order on every sample. */
	if (f->nsamples > 1) {
		const struct prom_sample *prev = &d->s[d->ns - 2];
		bool same = prev->nl == s->nl;

		for (size_t i = 0; same && i < s->nl; i++)
			same = !strcmp(prev->lname[i], s->lname[i]);
		if (!same)
			fail_msg("line %zu: %s's labels differ from its previous sample's", c->line,
				 s->name);
	}
	expect(c, ' ');
	s->value = strtod(c->p, &end);
	if (end == c->p || end >= c->end || *end != '\n')
		fail_msg("line %zu: bad value '%.20s'", c->line, c->p);
	c->p = end;
	s->key = series_key(s);
}

static int cmp_key(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

void prom_parse(const char *buf, size_t len, struct prom_doc *d)
{
	struct cur c = { buf, buf + len, 0 };
	char **keys;

	memset(d, 0, sizeof(*d));
	if (!len || buf[len - 1] != '\n')
		fail_msg("the exposition must end with a newline");
	while (c.p < c.end) {
		c.line++;
		if (*c.p == '\n')
			fail_msg("line %zu: empty line", c.line);
		if (*c.p == '#')
			comment(d, &c);
		else
			sample(d, &c);
		expect(&c, '\n');
	}
	for (size_t i = 0; i < d->nfam; i++)
		if (!d->fam[i].nsamples)
			fail_msg("family %s declared without samples", d->fam[i].name);
	keys = calloc(d->ns + 1, sizeof(*keys));
	assert_non_null(keys);
	for (size_t i = 0; i < d->ns; i++)
		keys[i] = d->s[i].key;
	qsort(keys, d->ns, sizeof(*keys), cmp_key);
	for (size_t i = 1; i < d->ns; i++)
		if (!strcmp(keys[i], keys[i - 1])) {
			char dup[256];

			snprintf(dup, sizeof(dup), "%s", keys[i]);
			free(keys);
			fail_msg("duplicate series %s", dup);
		}
	free(keys);
}

void prom_free(struct prom_doc *d)
{
	for (size_t i = 0; i < d->ns; i++) {
		free(d->s[i].name);
		free(d->s[i].key);
		for (size_t k = 0; k < d->s[i].nl; k++) {
			free(d->s[i].lname[k]);
			free(d->s[i].lval[k]);
		}
	}
	for (size_t i = 0; i < d->nfam; i++) {
		free(d->fam[i].name);
		free(d->fam[i].type);
		free(d->fam[i].help);
	}
	free(d->s);
	free(d->fam);
	memset(d, 0, sizeof(*d));
}

const struct prom_family *prom_family(const struct prom_doc *d, const char *name)
{
	return find((struct prom_doc *)d, name);
}

static bool matches(const struct prom_sample *s, const char *name, va_list ap)
{
	const char *k;

	if (strcmp(s->name, name))
		return false;
	while ((k = va_arg(ap, const char *))) {
		const char *v = va_arg(ap, const char *);
		bool hit = false;

		for (size_t i = 0; i < s->nl && !hit; i++)
			hit = !strcmp(s->lname[i], k) && !strcmp(s->lval[i], v);
		if (!hit)
			return false;
	}
	return true;
}

size_t prom_count(const struct prom_doc *d, const char *name, ...)
{
	size_t n = 0;

	for (size_t i = 0; i < d->ns; i++) {
		va_list ap;

		va_start(ap, name);
		n += matches(&d->s[i], name, ap);
		va_end(ap);
	}
	return n;
}

double prom_get(const struct prom_doc *d, const char *name, ...)
{
	double v = NAN;
	size_t n = 0;

	for (size_t i = 0; i < d->ns; i++) {
		va_list ap;

		va_start(ap, name);
		if (matches(&d->s[i], name, ap)) {
			v = d->s[i].value;
			n++;
		}
		va_end(ap);
	}
	if (n != 1)
		fail_msg("%zu samples of %s match, expected exactly 1", n, name);
	return v;
}

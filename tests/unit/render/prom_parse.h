/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A strict checker of the Prometheus text format 0.0.4 as netpath writes it, for unit tests
 * (the integration test uses python3-prometheus-client as the oracle). It fails the test on any
 * line a parser would reject or misread: a sample before its family's HELP and TYPE, a family
 * declared twice or split, a counter not named *_total, bad escapes, duplicate series, a family
 * whose samples do not all carry the same label names in the same order.
 */
#ifndef NP_TEST_PROM_PARSE_H
#define NP_TEST_PROM_PARSE_H

#include <stddef.h>

#define PROM_MAX_LABELS 8

struct prom_sample {
	char *name;
	size_t nl;
	char *lname[PROM_MAX_LABELS];
	char *lval[PROM_MAX_LABELS];	/* unescaped */
	double value;
	char *key;			/* name + sorted labels: the series identity */
};

struct prom_family {
	char *name, *type, *help;	/* help unescaped */
	size_t nsamples;
};

struct prom_doc {
	size_t nfam, ns;
	struct prom_family *fam;
	struct prom_sample *s;
};

void prom_parse(const char *buf, size_t len, struct prom_doc *d);
void prom_free(struct prom_doc *d);
const struct prom_family *prom_family(const struct prom_doc *d, const char *name);
/* Samples of name whose labels include the NULL-terminated name/value pairs. */
size_t prom_count(const struct prom_doc *d, const char *name, ...);
/* The value of the one such sample; fails the test if there is none or more than one. */
double prom_get(const struct prom_doc *d, const char *name, ...);

#endif

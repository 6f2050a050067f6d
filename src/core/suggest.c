// SPDX-License-Identifier: GPL-2.0-only
/* "Did you mean": optimal string alignment distance over short names. */
#include "suggest.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

unsigned np_edit_distance(const char *a, const char *b)
{
	/* Three rows of the table: the one two back holds what a transposition needs. */
	unsigned rows[3][NP_SUGGEST_MAX + 1];
	unsigned *pp = rows[0], *p = rows[1], *c = rows[2];
	size_t la = strlen(a), lb = strlen(b);

	if (la > NP_SUGGEST_MAX || lb > NP_SUGGEST_MAX)
		return NP_SUGGEST_MAX + 1;
	for (size_t j = 0; j <= lb; j++)
		p[j] = (unsigned)j;
	for (size_t i = 1; i <= la; i++) {
		unsigned *t;

		c[0] = (unsigned)i;
		for (size_t j = 1; j <= lb; j++) {
			int ca = tolower((unsigned char)a[i - 1]), cb = tolower((unsigned char)b[j - 1]);
			unsigned v = p[j - 1] + (ca != cb);

			if (p[j] + 1 < v)
				v = p[j] + 1;
			if (c[j - 1] + 1 < v)
				v = c[j - 1] + 1;
			if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == cb && pp[j - 2] + 1 < v)
				v = pp[j - 2] + 1;
			c[j] = v;
		}
		t = pp;
		pp = p;
		p = c;
		c = t;
	}
	return p[lb];
}

void np_suggest_init(struct np_suggest *s, const char *word)
{
	s->word = word;
	s->best = NULL;
	s->dist = 0;
}

/* How far a typo may go: short names have few letters to get wrong. */
static unsigned allowed(size_t len)
{
	return len <= 4 ? 1 : len <= 8 ? 2 : 3;
}

void np_suggest_add(struct np_suggest *s, const char *cand)
{
	size_t len = strlen(s->word);
	unsigned d;

	if (!len || !strcmp(s->word, cand))
		return;
	d = np_edit_distance(s->word, cand);
	if (len >= 4 && !strncasecmp(s->word, cand, len) && d > 1)
		d = 1;
	if (d > allowed(len) || (s->best && d >= s->dist))
		return;
	s->best = cand;
	s->dist = d;
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * "Did you mean": the known name closest to a mistyped one (a command, a check id), as git and
 * cargo suggest. Pure: the caller offers the candidates one by one.
 */
#ifndef NP_SUGGEST_H
#define NP_SUGGEST_H

#include <stddef.h>

/* Words longer than this get no suggestion (nothing that long is a typo of a short name). */
#define NP_SUGGEST_MAX 64

struct np_suggest {
	const char *word;	/* as typed */
	const char *best;	/* the closest candidate so far; NULL: none close enough */
	unsigned dist;		/* its distance */
};

/*
 * The edit distance of a and b (insertions, deletions, substitutions and transpositions of
 * two neighbours, each 1; ASCII case ignored), or NP_SUGGEST_MAX + 1 when either is longer.
 */
unsigned np_edit_distance(const char *a, const char *b);

void np_suggest_init(struct np_suggest *s, const char *word);
/*
 * Offer one candidate. It is kept when closer than the best so far (the first of equals wins:
 * offer them in the order a user would want). Close enough: an edit distance of at most 1 for
 * words up to 4 characters, 2 up to 8, 3 beyond; or the word, of 4 characters or more, is how
 * the candidate starts ("softnet.backlog" for softnet.backlog-drops), counted as distance 1.
 * The candidate must outlive s. The word itself is no suggestion (it would be no typo); the
 * word in other case is ("Plan": plan).
 */
void np_suggest_add(struct np_suggest *s, const char *cand);
/* The suggestion, or NULL. */
static inline const char *np_suggest_best(const struct np_suggest *s)
{
	return s->best;
}

#endif

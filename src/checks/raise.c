// SPDX-License-Identifier: GPL-2.0-only
/* Remedies that raise a value: never to or below the one in force, and honest when the value in
 * force is unknown (a box already at 2 GiB must not be told to set 8 MiB). */
#include "raise.h"

#include "snapshot.h"

enum np_raise np_raise_cmp(bool have, int64_t cur, int64_t want)
{
	if (!have)
		return NP_RAISE_UNKNOWN;
	return cur >= want ? NP_RAISE_ALREADY : NP_RAISE_UP;
}

enum np_raise np_remedy_raise(struct np_finding *f, const struct np_snapshot *s,
			      const char *name, const char *prefix, bool have, int64_t cur,
			      int64_t want, const char *note)
{
	enum np_raise k = np_raise_cmp(have, cur, want);

	if (!f)
		return k;
	switch (k) {
	case NP_RAISE_ALREADY:
		np_detail(f, "%s is already %lld, at or above the %lld a fix would propose: "
			     "raising it is not the remedy here.", name, (long long)cur,
			  (long long)want);
		break;
	case NP_RAISE_UP:
		np_remedy(f, "%s%lld%s%s", prefix, (long long)want, note ? "   # " : "",
			  note ? note : "");
		break;
	case NP_RAISE_UNKNOWN:
		np_remedy(f, "%s%lld   # %s is not %s: raise to at least %lld if lower%s%s", prefix,
			  (long long)want, name, s && s->captured ? "in this capture" :
			  "readable here", (long long)want, note ? "; " : "", note ? note : "");
		break;
	}
	return k;
}

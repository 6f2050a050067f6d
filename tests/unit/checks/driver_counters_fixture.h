/* SPDX-License-Identifier: GPL-2.0-only */
/* The driver counter table tests' fixture: a fixture's counter names loaded, and the check
 * that every receive-path witness among them is one the test expects, with its meaning, stage
 * and queue, and that everything else classifies as nothing or as transmit-side. */
#ifndef NP_TEST_DRIVER_COUNTERS_FIXTURE_H
#define NP_TEST_DRIVER_COUNTERS_FIXTURE_H

#include "synth.h"
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "driver_counters.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

struct expect {
	const char *name;	/* fnmatch pattern over the fixture's names ("\\[" for "[") */
	enum np_drv_meaning m;
	enum np_stage st;
	int queue;
};

#define E(n, m, st, q) { n, NP_DRV_##m, NP_STAGE_##st, q }

struct names {
	size_t n;
	char **v;
};

static inline void load(const char *file, struct names *out)
{
	char path[512], line[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/driver_counters/%s", NP_FIXTURES, file);
	f = fopen(path, "r");
	if (!f)
		fail_msg("cannot open %s", path);
	out->n = 0;
	out->v = NULL;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!line[0] || line[0] == '#')
			continue;
		out->v = realloc(out->v, (out->n + 1) * sizeof(*out->v));
		assert_non_null(out->v);
		out->v[out->n++] = strdup(line);
	}
	fclose(f);
	assert_true(out->n > 0);
}

static inline void names_free(struct names *nm)
{
	for (size_t i = 0; i < nm->n; i++)
		free(nm->v[i]);
	free(nm->v);
}

/* A name that reads as transmit-side: "tx...", "[N]: tx...", "port.tx...". */
static inline bool tx_named(const char *s)
{
	return strncmp(s, "tx", 2) == 0 || strstr(s, ": tx") || strncmp(s, "port.tx", 7) == 0;
}

/* A plain traffic counter ("rx_bytes", "rx-0.packets") with no loss word in it. */
static inline bool plain_traffic(const char *s)
{
	static const char *const loss[] = { "drop", "discard", "pause", "xoff", "alloc",
					    "ratelimit", "size", "allowance", "err", "illegal",
					    NULL };
	size_t n = strlen(s);
	bool traffic = (n > 8 && strcmp(s + n - 8, "_packets") == 0) ||
		       (n > 6 && strcmp(s + n - 6, "_bytes") == 0) ||
		       (n > 8 && strcmp(s + n - 8, ".packets") == 0) ||
		       (n > 6 && strcmp(s + n - 6, ".bytes") == 0);

	for (size_t i = 0; traffic && loss[i]; i++)
		if (strstr(s, loss[i]))
			return false;
	return traffic;
}

static inline void check_fixture(const char *file, const char *driver, const struct expect *ex,
				 size_t nex, const char *const *tx)
{
	struct names nm;
	bool *seen = calloc(nex ? nex : 1, sizeof(*seen));
	size_t nloss = 0;

	assert_non_null(seen);
	assert_true(np_drv_known(driver));
	load(file, &nm);
	for (size_t i = 0; i < nm.n; i++) {
		const char *name = nm.v[i];
		struct np_drv_class c;
		bool hit = np_drv_classify(driver, name, &c);
		size_t k;

		if (hit)
			assert_int_equal(hit, c.meaning != NP_DRV_NONE);
		else
			assert_int_equal(c.meaning, NP_DRV_NONE);
		/* Transmit-side counters are never a receive-path loss (pause frames we send
		 * are the exception: they witness OUR receive buffer filling up). */
		if (tx_named(name) && c.meaning != NP_DRV_PAUSE_TX && c.meaning != NP_DRV_NONE &&
		    !c.is_tx)
			fail_msg("%s: %s classified as receive-side %s", file, name,
				 np_drv_meaning_name(c.meaning));
		if (plain_traffic(name) && hit && !c.is_tx)
			fail_msg("%s: plain traffic counter %s classified %s", file, name,
				 np_drv_meaning_name(c.meaning));
		if (!hit || c.is_tx)
			continue;
		nloss++;
		for (k = 0; k < nex; k++)
			if (fnmatch(ex[k].name, name, 0) == 0)
				break;
		if (k == nex)
			fail_msg("%s: unexpected receive-path counter %s (%s, %s, queue %d)", file,
				 name, np_drv_meaning_name(c.meaning), np_stage_name(c.stage),
				 c.queue);
		seen[k] = true;
		if (c.meaning != ex[k].m || c.stage != ex[k].st || c.queue != ex[k].queue)
			fail_msg("%s: %s is %s/%s/q%d, expected %s/%s/q%d", file, name,
				 np_drv_meaning_name(c.meaning), np_stage_name(c.stage), c.queue,
				 np_drv_meaning_name(ex[k].m), np_stage_name(ex[k].st),
				 ex[k].queue);
	}
	for (size_t k = 0; k < nex; k++)
		if (!seen[k])
			fail_msg("%s: expected counter %s missing or not classified", file,
				 ex[k].name);
	for (size_t t = 0; tx && tx[t]; t++) {
		struct np_drv_class c;
		bool found = false;

		for (size_t i = 0; i < nm.n && !found; i++)
			found = strcmp(nm.v[i], tx[t]) == 0;
		if (!found)
			fail_msg("%s: %s not in the list", file, tx[t]);
		np_drv_classify(driver, tx[t], &c);
		if (!c.is_tx)
			fail_msg("%s: %s not transmit-side", file, tx[t]);
	}
	assert_true(nloss > 0);
	free(seen);
	names_free(&nm);
}

#endif

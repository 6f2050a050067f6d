/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * netpath record: the flight recorder. Every SEC seconds one frame goes to the store
 * (rec_store.h): the counters of every device of the target's stack and the host's, by name
 * (snapshot_counters.h), and the configuration in force, as one capture sample (a tar holding
 * META and s1/, capture_sample.h) that is made again only when the configuration's digest
 * changes. `doctor --at` and `history` replay that sample through the collectors and put a
 * frame's counters into what they read (record_read.h).
 */
#ifndef NP_RECORD_H
#define NP_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "doctor_stack.h"
#include "snapshot_counters.h"
#include "tar.h"
#include "target.h"

/* Socket-dump bytes a configuration sample keeps (see np_record_sample). */
#define NP_RECORD_SOCK_BYTES (1u << 20)

struct record_args {
	const char *dir;
	const char *ifname;
	const char *netns;
	const char *root;		/* --root TREE (undocumented: benchmarks replay a tree) */
	const char *keep;
	const char *max_size;
	const char *capture_on;		/* --capture-on SEVERITY|CHECK */
	double capture_every;		/* --capture-every: seconds between captures */
	double every;
	long count;
	bool all;
	bool drops;			/* --drops: trace's per-reason drop counts too */
	int verbose;
	int64_t keep_ns;
	uint64_t max_bytes;
};

/* What the recorder keeps between frames. */
struct np_record_state {
	struct np_named_counters nc;
	uint64_t digest;
	bool have_digest;
	char *config;			/* the configuration sample (a tar), malloc'd */
	size_t config_len;
	unsigned configs;		/* how many times it was made */
};

void np_record_state_free(struct np_record_state *rs);
/* The counters of the runs' latest snapshots (host-wide ones once, from the primary) into
 * rs->nc. 0 or -ENOMEM. */
int np_record_counters(struct np_record_state *rs, const struct np_dev_runs *dr);
/* The digest of the runs' configuration (never a counter). */
uint64_t np_record_digest(const struct np_dev_runs *dr);
/* Make rs->config again: the target read once more with every file and kernel answer kept,
 * as a capture of one sample naming tops as its interfaces. 0 or -errno. */
int np_record_config(struct np_record_state *rs, struct np_target *tgt, const char *const *tops,
		     size_t ntops, const struct record_args *a);

/* One sample of the target read again with every file and kernel answer kept, beneath prefix/
 * in tar (as `netpath capture` writes s1/ and s2/); socket dumps up to sock_cap bytes (0:
 * capture's own cap). 0 or -errno. */
int np_record_sample(struct np_target *tgt, const char *const *tops, size_t ntops,
		     struct np_tar_out *tar, const char *prefix, int64_t now, uint64_t sock_cap);
/* A capture's META for those samples (nsamples 1 or 2, interval seconds between them). */
int np_record_meta(struct np_tar_out *tar, const char *const *tops, size_t ntops,
		   const struct record_args *a, int64_t now, int nsamples, double interval);

#endif

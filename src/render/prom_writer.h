/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The Prometheus text exposition writer (format 0.0.4), as json_writer.h is JSON's: families
 * with their HELP/TYPE once, samples with escaped labels, absent values left out. The doctor
 * renderer (render_prom.c, render_prom_nic.c) says what to write; this says how.
 */
#ifndef NP_PROM_WRITER_H
#define NP_PROM_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/*
 * The family being written. Its HELP/TYPE header goes out with its first sample, so a family
 * with nothing to report (no qdiscs, conntrack not loaded) leaves no empty header behind, and
 * every family's samples are consecutive: the text format forbids a second HELP/TYPE for a name.
 */
struct np_prom {
	FILE *out;
	const char *netns;		/* --netns as given, NULL for our own namespace */
	const char *name, *type, *help;
	bool header_done;
	/*
	 * Which labels every sample of the current family starts with, set by the family's scope:
	 * dev names the device (interface="dev"; NULL: none), netns adds netns="..." with --netns.
	 * A family has one scope, so its label set never varies from sample to sample.
	 */
	const char *dev;
	bool netns_label;
	bool skip;			/* a host family under --netns: its samples are not written */
	bool device_family;		/* every sample starts with interface="dev" */
};

/*
 * Whose value a family is. Host-wide values (softnet, netdev_*, tcp_mem/udp_mem, sockstat memory)
 * carry neither interface nor netns: they appear once per host, so sum() over files or
 * interfaces cannot count them twice, and a --netns run leaves them out (the host's own run
 * exports them). Per-namespace and run-wide values carry netns with --netns; per-device values
 * carry interface (and netns).
 */
enum np_prom_scope {
	NP_PROM_HOST,
	NP_PROM_NETNS,		/* the run, or a namespace's sysctls and counters */
	NP_PROM_DEVICE,
};

/* A label value big enough for a driver counter name or a qdisc kind, escaped. */
#define NP_PROM_LABEL_MAX 192

/* in, escaped for a label value (quote) or a HELP text, into out; see prom_writer.c. */
void np_prom_escape(const char *in, bool quote, char *out, size_t size);
/* Start a family of scope sc: name, "counter" or "gauge", HELP text. Under --netns a host
 * family writes nothing. */
void np_prom_family(struct np_prom *p, enum np_prom_scope sc, const char *name,
		    const char *type, const char *help);
/* The device the following samples of a NP_PROM_DEVICE family are about. */
static inline void np_prom_device(struct np_prom *p, const char *dev)
{
	p->dev = dev;
}
/* One sample of the current family, then NULL-terminated label name/value pairs (raw values).
 * An NP_NA or non-finite value writes nothing: absent is not zero. */
void np_prom_u64(struct np_prom *p, uint64_t v, ...) __attribute__((sentinel));
void np_prom_dbl(struct np_prom *p, double v, ...) __attribute__((sentinel));

/* The u64 at byte offset off of a struct (tables of families over struct fields). */
static inline uint64_t np_prom_field(const void *base, size_t off)
{
	uint64_t v;

	memcpy(&v, (const char *)base + off, sizeof(v));
	return v;
}

#endif

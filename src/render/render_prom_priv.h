/* SPDX-License-Identifier: GPL-2.0-only */
/* The doctor Prometheus renderer's two files: what render_prom.c asks of render_prom_nic.c. */
#ifndef NP_RENDER_PROM_PRIV_H
#define NP_RENDER_PROM_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "prom_writer.h"
#include "snapshot.h"

/* render_prom_nic.c: rings, channels, coalescing, qstats, driver counters and qdiscs of every device
 * (snaps[i] is device i's snapshot; each family lists all devices before the next begins). */
void np_prom_nic(struct np_prom *p, const struct np_snapshot *const *snaps, size_t n,
		 bool raw_driver_counters);
void np_prom_qdiscs(struct np_prom *p, const struct np_snapshot *const *snaps, size_t n);

#endif

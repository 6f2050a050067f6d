/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ETHTOOL_LINK_MODE_* bits (struct np_linkmodes bitmaps) to speeds: pure helpers for checks such
 * as "negotiated below the best mode both ends support".
 */
#ifndef NP_LINKMODE_H
#define NP_LINKMODE_H

#include <stdint.h>

#include "nic.h"

/* Bits the table knows: through ETHTOOL_LINK_MODE_1600000baseDR8_2_Full_BIT (124). */
#define NP_LINKMODE_KNOWN_BITS 125

/* Mb/s of a link mode bit, and its duplex in *duplex (0 half, 1 full; may be NULL). Bits that
 * are not speeds (Autoneg, TP, FIBRE, Pause, FEC_*, ...) and bits newer than the table give 0
 * with *duplex = -1. */
uint64_t np_linkmode_speed(unsigned bit, int *duplex);

/* The highest speed (Mb/s) among the modes of a (NP_LINKMODE_WORDS words); 0 when it has none. */
uint64_t np_linkmodes_best(const uint64_t *a);

/* The highest speed (Mb/s) of a mode present in both a and b (e.g. our supported modes and the
 * link partner's advertised ones); 0 when they share no speed mode. */
uint64_t np_linkmodes_best_common(const uint64_t *a, const uint64_t *b);

#endif

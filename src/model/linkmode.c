// SPDX-License-Identifier: GPL-2.0-only
/* Link mode bit -> speed and duplex, from the names in include/uapi/linux/ethtool.h. */
#include "linkmode.h"

#include <stddef.h>

struct mode {
	uint32_t mbps;
	uint8_t full;
};

/* Indexed by ETHTOOL_LINK_MODE_*_BIT. The uapi enum is append-only, so bits keep their meaning;
 * written out by number because the build host's headers stop at bit 92 (6.1). Holes are
 * non-speed bits: Autoneg 6, TP 7, AUI 8, MII 9, FIBRE 10, BNC 11, Pause 13, Asym_Pause 14,
 * Backplane 16, 10000baseR_FEC 20, FEC_NONE/RS/BASER 49-51, FEC_LLRS 74. */
static const struct mode modes[NP_LINKMODE_KNOWN_BITS] = {
	[0] = { 10, 0 },	/* 10baseT_Half */
	[1] = { 10, 1 },	/* 10baseT_Full */
	[2] = { 100, 0 },	/* 100baseT_Half */
	[3] = { 100, 1 },	/* 100baseT_Full */
	[4] = { 1000, 0 },	/* 1000baseT_Half */
	[5] = { 1000, 1 },	/* 1000baseT_Full */
	[12] = { 10000, 1 },	/* 10000baseT_Full */
	[15] = { 2500, 1 },	/* 2500baseX_Full */
	[17] = { 1000, 1 },	/* 1000baseKX_Full */
	[18] = { 10000, 1 },	/* 10000baseKX4_Full */
	[19] = { 10000, 1 },	/* 10000baseKR_Full */
	[21] = { 20000, 1 },	/* 20000baseMLD2_Full */
	[22] = { 20000, 1 },	/* 20000baseKR2_Full */
	[23] = { 40000, 1 },	/* 40000baseKR4_Full */
	[24] = { 40000, 1 },	/* 40000baseCR4_Full */
	[25] = { 40000, 1 },	/* 40000baseSR4_Full */
	[26] = { 40000, 1 },	/* 40000baseLR4_Full */
	[27] = { 56000, 1 },	/* 56000baseKR4_Full */
	[28] = { 56000, 1 },	/* 56000baseCR4_Full */
	[29] = { 56000, 1 },	/* 56000baseSR4_Full */
	[30] = { 56000, 1 },	/* 56000baseLR4_Full */
	[31] = { 25000, 1 },	/* 25000baseCR_Full */
	[32] = { 25000, 1 },	/* 25000baseKR_Full */
	[33] = { 25000, 1 },	/* 25000baseSR_Full */
	[34] = { 50000, 1 },	/* 50000baseCR2_Full */
	[35] = { 50000, 1 },	/* 50000baseKR2_Full */
	[36] = { 100000, 1 },	/* 100000baseKR4_Full */
	[37] = { 100000, 1 },	/* 100000baseSR4_Full */
	[38] = { 100000, 1 },	/* 100000baseCR4_Full */
	[39] = { 100000, 1 },	/* 100000baseLR4_ER4_Full */
	[40] = { 50000, 1 },	/* 50000baseSR2_Full */
	[41] = { 1000, 1 },	/* 1000baseX_Full */
	[42] = { 10000, 1 },	/* 10000baseCR_Full */
	[43] = { 10000, 1 },	/* 10000baseSR_Full */
	[44] = { 10000, 1 },	/* 10000baseLR_Full */
	[45] = { 10000, 1 },	/* 10000baseLRM_Full */
	[46] = { 10000, 1 },	/* 10000baseER_Full */
	[47] = { 2500, 1 },	/* 2500baseT_Full */
	[48] = { 5000, 1 },	/* 5000baseT_Full */
	[52] = { 50000, 1 },	/* 50000baseKR_Full */
	[53] = { 50000, 1 },	/* 50000baseSR_Full */
	[54] = { 50000, 1 },	/* 50000baseCR_Full */
	[55] = { 50000, 1 },	/* 50000baseLR_ER_FR_Full */
	[56] = { 50000, 1 },	/* 50000baseDR_Full */
	[57] = { 100000, 1 },	/* 100000baseKR2_Full */
	[58] = { 100000, 1 },	/* 100000baseSR2_Full */
	[59] = { 100000, 1 },	/* 100000baseCR2_Full */
	[60] = { 100000, 1 },	/* 100000baseLR2_ER2_FR2_Full */
	[61] = { 100000, 1 },	/* 100000baseDR2_Full */
	[62] = { 200000, 1 },	/* 200000baseKR4_Full */
	[63] = { 200000, 1 },	/* 200000baseSR4_Full */
	[64] = { 200000, 1 },	/* 200000baseLR4_ER4_FR4_Full */
	[65] = { 200000, 1 },	/* 200000baseDR4_Full */
	[66] = { 200000, 1 },	/* 200000baseCR4_Full */
	[67] = { 100, 1 },	/* 100baseT1_Full */
	[68] = { 1000, 1 },	/* 1000baseT1_Full */
	[69] = { 400000, 1 },	/* 400000baseKR8_Full */
	[70] = { 400000, 1 },	/* 400000baseSR8_Full */
	[71] = { 400000, 1 },	/* 400000baseLR8_ER8_FR8_Full */
	[72] = { 400000, 1 },	/* 400000baseDR8_Full */
	[73] = { 400000, 1 },	/* 400000baseCR8_Full */
	[75] = { 100000, 1 },	/* 100000baseKR_Full */
	[76] = { 100000, 1 },	/* 100000baseSR_Full */
	[77] = { 100000, 1 },	/* 100000baseLR_ER_FR_Full */
	[78] = { 100000, 1 },	/* 100000baseCR_Full */
	[79] = { 100000, 1 },	/* 100000baseDR_Full */
	[80] = { 200000, 1 },	/* 200000baseKR2_Full */
	[81] = { 200000, 1 },	/* 200000baseSR2_Full */
	[82] = { 200000, 1 },	/* 200000baseLR2_ER2_FR2_Full */
	[83] = { 200000, 1 },	/* 200000baseDR2_Full */
	[84] = { 200000, 1 },	/* 200000baseCR2_Full */
	[85] = { 400000, 1 },	/* 400000baseKR4_Full */
	[86] = { 400000, 1 },	/* 400000baseSR4_Full */
	[87] = { 400000, 1 },	/* 400000baseLR4_ER4_FR4_Full */
	[88] = { 400000, 1 },	/* 400000baseDR4_Full */
	[89] = { 400000, 1 },	/* 400000baseCR4_Full */
	[90] = { 100, 0 },	/* 100baseFX_Half */
	[91] = { 100, 1 },	/* 100baseFX_Full */
	[92] = { 10, 1 },	/* 10baseT1L_Full */
	[93] = { 800000, 1 },	/* 800000baseCR8_Full */
	[94] = { 800000, 1 },	/* 800000baseKR8_Full */
	[95] = { 800000, 1 },	/* 800000baseDR8_Full */
	[96] = { 800000, 1 },	/* 800000baseDR8_2_Full */
	[97] = { 800000, 1 },	/* 800000baseSR8_Full */
	[98] = { 800000, 1 },	/* 800000baseVR8_Full */
	[99] = { 10, 1 },	/* 10baseT1S_Full */
	[100] = { 10, 0 },	/* 10baseT1S_Half */
	[101] = { 10, 0 },	/* 10baseT1S_P2MP_Half */
	[102] = { 10, 1 },	/* 10baseT1BRR_Full */
	[103] = { 200000, 1 },	/* 200000baseCR_Full */
	[104] = { 200000, 1 },	/* 200000baseKR_Full */
	[105] = { 200000, 1 },	/* 200000baseDR_Full */
	[106] = { 200000, 1 },	/* 200000baseDR_2_Full */
	[107] = { 200000, 1 },	/* 200000baseSR_Full */
	[108] = { 200000, 1 },	/* 200000baseVR_Full */
	[109] = { 400000, 1 },	/* 400000baseCR2_Full */
	[110] = { 400000, 1 },	/* 400000baseKR2_Full */
	[111] = { 400000, 1 },	/* 400000baseDR2_Full */
	[112] = { 400000, 1 },	/* 400000baseDR2_2_Full */
	[113] = { 400000, 1 },	/* 400000baseSR2_Full */
	[114] = { 400000, 1 },	/* 400000baseVR2_Full */
	[115] = { 800000, 1 },	/* 800000baseCR4_Full */
	[116] = { 800000, 1 },	/* 800000baseKR4_Full */
	[117] = { 800000, 1 },	/* 800000baseDR4_Full */
	[118] = { 800000, 1 },	/* 800000baseDR4_2_Full */
	[119] = { 800000, 1 },	/* 800000baseSR4_Full */
	[120] = { 800000, 1 },	/* 800000baseVR4_Full */
	[121] = { 1600000, 1 },	/* 1600000baseCR8_Full */
	[122] = { 1600000, 1 },	/* 1600000baseKR8_Full */
	[123] = { 1600000, 1 },	/* 1600000baseDR8_Full */
	[124] = { 1600000, 1 },	/* 1600000baseDR8_2_Full */
};

uint64_t np_linkmode_speed(unsigned bit, int *duplex)
{
	if (bit >= NP_LINKMODE_KNOWN_BITS || !modes[bit].mbps) {
		if (duplex)
			*duplex = -1;
		return 0;
	}
	if (duplex)
		*duplex = modes[bit].full;
	return modes[bit].mbps;
}

static uint64_t best_of(const uint64_t *a, const uint64_t *b)
{
	uint64_t best = 0;

	for (unsigned bit = 0; bit < NP_LINKMODE_WORDS * 64; bit++) {
		uint64_t m = 1ULL << (bit % 64), speed;

		if (!(a[bit / 64] & m) || (b && !(b[bit / 64] & m)))
			continue;
		speed = np_linkmode_speed(bit, NULL);
		if (speed > best)
			best = speed;
	}
	return best;
}

uint64_t np_linkmodes_best(const uint64_t *a)
{
	return best_of(a, NULL);
}

uint64_t np_linkmodes_best_common(const uint64_t *a, const uint64_t *b)
{
	return best_of(a, b);
}

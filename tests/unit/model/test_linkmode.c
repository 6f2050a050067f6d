// SPDX-License-Identifier: GPL-2.0-only
/* Link mode bits to speeds, checked against the uapi header's own names, and best common mode. */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <linux/ethtool.h>

#include "linkmode.h"

static void set(uint64_t *m, unsigned bit)
{
	m[bit / 64] |= 1ULL << (bit % 64);
}

static void test_known_bits(void **state)
{
	int d;

	(void)state;
	assert_int_equal(np_linkmode_speed(ETHTOOL_LINK_MODE_10baseT_Half_BIT, &d), 10);
	assert_int_equal(d, 0);
	assert_int_equal(np_linkmode_speed(ETHTOOL_LINK_MODE_1000baseT_Full_BIT, &d), 1000);
	assert_int_equal(d, 1);
	assert_int_equal(np_linkmode_speed(ETHTOOL_LINK_MODE_2500baseX_Full_BIT, &d), 2500);
	assert_int_equal(np_linkmode_speed(ETHTOOL_LINK_MODE_25000baseSR_Full_BIT, &d), 25000);
	assert_int_equal(np_linkmode_speed(ETHTOOL_LINK_MODE_100000baseLR4_ER4_Full_BIT, &d),
			 100000);
	assert_int_equal(np_linkmode_speed(ETHTOOL_LINK_MODE_400000baseCR4_Full_BIT, &d), 400000);
	assert_int_equal(np_linkmode_speed(ETHTOOL_LINK_MODE_100baseFX_Half_BIT, &d), 100);
	assert_int_equal(d, 0);
	/* Newer than the build host's headers: 800G (93, 115), 10BASE-T1S, 1.6T (124). */
	assert_int_equal(np_linkmode_speed(93, &d), 800000);
	assert_int_equal(np_linkmode_speed(101, &d), 10);
	assert_int_equal(d, 0);
	assert_int_equal(np_linkmode_speed(115, &d), 800000);
	assert_int_equal(np_linkmode_speed(124, &d), 1600000);
	assert_int_equal(d, 1);
	/* Not speeds, and past the table. */
	assert_int_equal(np_linkmode_speed(ETHTOOL_LINK_MODE_Autoneg_BIT, &d), 0);
	assert_int_equal(d, -1);
	assert_int_equal(np_linkmode_speed(ETHTOOL_LINK_MODE_Pause_BIT, &d), 0);
	assert_int_equal(np_linkmode_speed(ETHTOOL_LINK_MODE_FEC_RS_BIT, &d), 0);
	assert_int_equal(np_linkmode_speed(ETHTOOL_LINK_MODE_10000baseR_FEC_BIT, &d), 0);
	assert_int_equal(np_linkmode_speed(125, &d), 0);
	assert_int_equal(d, -1);
	assert_int_equal(np_linkmode_speed(100000, NULL), 0);
}

/* Every "ETHTOOL_LINK_MODE_<speed>base<x>_<Half|Full>_BIT = <n>" line of the installed uapi
 * header must agree with the table: the header's names are the oracle. */
static void test_against_header(void **state)
{
	FILE *f = fopen("/usr/include/linux/ethtool.h", "r");
	char line[512];
	unsigned checked = 0;

	(void)state;
	if (!f)
		skip();
	while (fgets(line, sizeof(line), f)) {
		unsigned long speed;
		unsigned bit;
		char name[128], *p, *base, *end;
		int d, want_d;

		p = line + strspn(line, " \t");
		if (strncmp(p, "ETHTOOL_LINK_MODE_", 18) != 0)
			continue;
		p += 18;
		end = strstr(p, "_BIT");
		if (!end || (size_t)(end - p) >= sizeof(name) ||
		    sscanf(end, "_BIT = %u", &bit) != 1)
			continue;	/* the legacy-mask macros, the NBITS sentinel */
		memcpy(name, p, (size_t)(end - p));
		name[end - p] = '\0';
		base = strstr(name, "base");
		speed = strtoul(name, &p, 10);
		if (!base || p != base || speed == 0) {
			/* Autoneg, TP, Pause, FEC_*, 10000baseR_FEC: not speeds. */
			assert_int_equal(np_linkmode_speed(bit, NULL), 0);
			continue;
		}
		if (strstr(name, "_FEC")) {
			assert_int_equal(np_linkmode_speed(bit, NULL), 0);
			continue;
		}
		want_d = strstr(name, "_Half") ? 0 : 1;
		assert_int_equal(np_linkmode_speed(bit, &d), speed);
		assert_int_equal(d, want_d);
		checked++;
	}
	fclose(f);
	assert_true(checked >= 79);	/* the 6.1 header names 79 speed modes */
}

static void test_best_common(void **state)
{
	uint64_t ours[NP_LINKMODE_WORDS] = { 0 }, peer[NP_LINKMODE_WORDS] = { 0 };
	uint64_t none[NP_LINKMODE_WORDS] = { 0 };

	(void)state;
	set(ours, ETHTOOL_LINK_MODE_1000baseT_Full_BIT);
	set(ours, ETHTOOL_LINK_MODE_10000baseT_Full_BIT);
	set(ours, ETHTOOL_LINK_MODE_25000baseSR_Full_BIT);
	set(ours, ETHTOOL_LINK_MODE_Autoneg_BIT);
	set(peer, ETHTOOL_LINK_MODE_100baseT_Full_BIT);
	set(peer, ETHTOOL_LINK_MODE_1000baseT_Full_BIT);
	set(peer, ETHTOOL_LINK_MODE_10000baseT_Full_BIT);
	set(peer, ETHTOOL_LINK_MODE_Autoneg_BIT);
	assert_int_equal(np_linkmodes_best(ours), 25000);
	assert_int_equal(np_linkmodes_best(peer), 10000);
	/* The port could do 25G; the partner tops out at 10G: 10G is the best both do. */
	assert_int_equal(np_linkmodes_best_common(ours, peer), 10000);
	assert_int_equal(np_linkmodes_best_common(peer, ours), 10000);
	/* Sharing only non-speed bits is sharing nothing. */
	memset(peer, 0, sizeof(peer));
	set(peer, ETHTOOL_LINK_MODE_Autoneg_BIT);
	set(peer, ETHTOOL_LINK_MODE_Pause_BIT);
	set(ours, ETHTOOL_LINK_MODE_Pause_BIT);
	assert_int_equal(np_linkmodes_best_common(ours, peer), 0);
	assert_int_equal(np_linkmodes_best(none), 0);
	/* Modes in the second word count (800000baseCR4 = 115). */
	set(ours, 115);
	set(peer, 115);
	set(peer, 124);
	assert_int_equal(np_linkmodes_best_common(ours, peer), 800000);
	assert_int_equal(np_linkmodes_best(peer), 1600000);
	/* Bits past the table are ignored, not misread. */
	memset(ours, 0, sizeof(ours));
	ours[3] = ~0ULL;
	assert_int_equal(np_linkmodes_best(ours), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known_bits),
		cmocka_unit_test(test_against_header),
		cmocka_unit_test(test_best_common),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0-only
/* np_parse_pcie_speed strings and np_parse_pci_config capability walks over built blobs. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>

#include "parse.h"

static void test_speed(void **state)
{
	static const struct {
		const char *s;
		uint64_t mts;
	} ok[] = {
		{ "8.0 GT/s PCIe", 8000 }, { "8 GT/s", 8000 }, { "2.5 GT/s", 2500 },
		{ "2.5 GT/s PCIe\n", 2500 }, { "16.0 GT/s PCIe", 16000 },
		{ "64.0 GT/s PCIe", 64000 },
		{ "  5.0 GT/s", 5000 }, { "32", 32000 }, { "2.5000001 GT/s", 2500 },
	};
	uint64_t mts;

	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		mts = 0;
		assert_int_equal(np_parse_pcie_speed(ok[i].s, &mts), 0);
		assert_int_equal(mts, ok[i].mts);
	}
}

static void test_speed_bad(void **state)
{
	static const char *const bad[] = { "Unknown", "Unknown speed", "", "\n", "GT/s", ".5 GT/s",
					   "-8 GT/s", "x8.0" };
	uint64_t mts = 42;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(np_parse_pcie_speed(bad[i], &mts), -EINVAL);
		assert_int_equal(mts, 42);
	}
	assert_int_equal(np_parse_pcie_speed("99999999999999999999999 GT/s", &mts), -ERANGE);
	assert_int_equal(mts, 42);
	assert_int_equal(np_parse_pcie_speed(NULL, &mts), -EINVAL);
}

/* Header with a capability list: 0x40 PM -> 0x50 MSI -> 0x60 PCI Express -> end. */
static void build_cfg(uint8_t *cfg)
{
	memset(cfg, 0, 256);
	cfg[0x00] = 0x86;		/* vendor, to look like a real header */
	cfg[0x01] = 0x80;
	cfg[0x06] = 0x10;		/* status: capability list */
	cfg[0x34] = 0x40;
	cfg[0x40] = 0x01;		/* PM */
	cfg[0x41] = 0x50;
	cfg[0x50] = 0x05;		/* MSI */
	cfg[0x51] = 0x60;
	cfg[0x60] = 0x10;		/* PCI Express */
	cfg[0x61] = 0x00;
	cfg[0x64] = 0x02;		/* DevCap: max payload supported 512 */
	cfg[0x68] = 0x20;		/* DevCtl: MPS 1 (256) in bits 7:5 ... */
	cfg[0x69] = 0x50;		/* ... MRRS 5 (4096) in bits 14:12 */
}

static void fresh(struct np_pcie *p)
{
	memset(p, 0, sizeof(*p));
	p->mps = p->mps_supported = p->mrrs = NP_NA;
	p->cur_speed = 8000;
	p->aer_fatal = NP_NA;
}

static void assert_untouched(const struct np_pcie *p)
{
	assert_true(p->mps == NP_NA);
	assert_true(p->mps_supported == NP_NA);
	assert_true(p->mrrs == NP_NA);
}

static void test_config_ok(void **state)
{
	uint8_t cfg[256];
	struct np_pcie p;

	(void)state;
	build_cfg(cfg);
	fresh(&p);
	assert_int_equal(np_parse_pci_config(cfg, sizeof(cfg), &p), 0);
	assert_int_equal(p.mps, 256);
	assert_int_equal(p.mps_supported, 512);
	assert_int_equal(p.mrrs, 4096);
	/* Only those three fields. */
	assert_int_equal(p.cur_speed, 8000);
	assert_true(p.aer_fatal == NP_NA);

	/* The low two bits of pointers are reserved and masked. */
	cfg[0x34] = 0x43;
	cfg[0x41] = 0x62;
	cfg[0x69] = 0x00;		/* MRRS 0: 128 */
	cfg[0x68] = 0xa0;		/* MPS 5: 4096 */
	cfg[0x64] = 0x00;
	fresh(&p);
	assert_int_equal(np_parse_pci_config(cfg, sizeof(cfg), &p), 0);
	assert_int_equal(p.mps, 4096);
	assert_int_equal(p.mps_supported, 128);
	assert_int_equal(p.mrrs, 128);

	/* The 4 KiB extended space (root read of "config") parses the same. */
	{
		uint8_t big[4096] = { 0 };

		build_cfg(big);
		fresh(&p);
		assert_int_equal(np_parse_pci_config(big, sizeof(big), &p), 0);
		assert_int_equal(p.mps, 256);
	}
}

static void test_config_no_cap_list(void **state)
{
	uint8_t cfg[256];
	struct np_pcie p;

	(void)state;
	build_cfg(cfg);
	cfg[0x06] = 0x00;
	fresh(&p);
	assert_int_equal(np_parse_pci_config(cfg, sizeof(cfg), &p), -ENOENT);
	assert_untouched(&p);
}

static void test_config_no_pcie_cap(void **state)
{
	uint8_t cfg[256];
	struct np_pcie p;

	(void)state;
	build_cfg(cfg);
	cfg[0x51] = 0x00;		/* MSI ends the list */
	fresh(&p);
	assert_int_equal(np_parse_pci_config(cfg, sizeof(cfg), &p), -ENOENT);
	assert_untouched(&p);
	/* A pointer into the standard header ends the list too. */
	cfg[0x51] = 0x20;
	assert_int_equal(np_parse_pci_config(cfg, sizeof(cfg), &p), -ENOENT);
	/* So does an id of 0xff (a device that fell off the bus reads all ones). */
	memset(cfg, 0xff, sizeof(cfg));
	assert_int_equal(np_parse_pci_config(cfg, sizeof(cfg), &p), -ENOENT);
	assert_untouched(&p);
}

static void test_config_truncated(void **state)
{
	uint8_t cfg[256];
	struct np_pcie p;

	(void)state;
	build_cfg(cfg);
	fresh(&p);
	/* An unprivileged read: 64 bytes, the list points beyond. */
	assert_int_equal(np_parse_pci_config(cfg, 64, &p), -EINVAL);
	assert_untouched(&p);
	/* Cut inside the PCI Express capability (DevCtl missing). */
	assert_int_equal(np_parse_pci_config(cfg, 0x69, &p), -EINVAL);
	assert_untouched(&p);
	/* Not even a standard header. */
	assert_int_equal(np_parse_pci_config(cfg, 63, &p), -EINVAL);
	assert_int_equal(np_parse_pci_config(cfg, 0, &p), -EINVAL);
	assert_int_equal(np_parse_pci_config(NULL, 256, &p), -EINVAL);
	assert_untouched(&p);
	/* A capability at the very end of the buffer: its fields would be past it. */
	cfg[0x51] = 0xfc;
	cfg[0xfc] = 0x10;
	assert_int_equal(np_parse_pci_config(cfg, sizeof(cfg), &p), -EINVAL);
	assert_untouched(&p);
}

static void test_config_loop(void **state)
{
	uint8_t cfg[256];
	struct np_pcie p;

	(void)state;
	build_cfg(cfg);
	cfg[0x51] = 0x40;		/* MSI -> PM -> MSI -> ... */
	fresh(&p);
	assert_int_equal(np_parse_pci_config(cfg, sizeof(cfg), &p), -ENOENT);
	assert_untouched(&p);
	/* A capability pointing at itself. */
	cfg[0x41] = 0x40;
	assert_int_equal(np_parse_pci_config(cfg, sizeof(cfg), &p), -ENOENT);
}

/* The guard allows 48 capabilities, as the kernel does: the 48th is still found. */
static void test_config_long_chain(void **state)
{
	static uint8_t cfg[4096];
	struct np_pcie p;

	(void)state;
	build_cfg(cfg);
	/* 47 vendor-specific caps at 0x40, 0x44, ..., 0xf8, then PCI Express at 0xfc. */
	for (unsigned i = 0; i < 47; i++) {
		cfg[0x40 + 4 * i] = 0x09;
		cfg[0x41 + 4 * i] = (uint8_t)(0x44 + 4 * i);
	}
	memset(cfg + 0xfc, 0, 12);
	cfg[0xfc] = 0x10;
	cfg[0xfc + 8] = 0x40;		/* MPS 2: 512 */
	fresh(&p);
	assert_int_equal(np_parse_pci_config(cfg, sizeof(cfg), &p), 0);
	assert_int_equal(p.mps, 512);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_speed),
		cmocka_unit_test(test_speed_bad),
		cmocka_unit_test(test_config_ok),
		cmocka_unit_test(test_config_no_cap_list),
		cmocka_unit_test(test_config_no_pcie_cap),
		cmocka_unit_test(test_config_truncated),
		cmocka_unit_test(test_config_loop),
		cmocka_unit_test(test_config_long_chain),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

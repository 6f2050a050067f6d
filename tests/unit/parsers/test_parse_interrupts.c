// SPDX-License-Identifier: GPL-2.0-only
/* np_parse_interrupts and np_irq_role_from_name: filters, name extraction, odd lines. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "fixture.h"
#include "parse.h"
#include "parse_util.h"

static void free_irqs(struct np_interrupts *it)
{
	for (size_t i = 0; i < it->n; i++)
		free(it->lines[i].count);
	free(it->lines);
	free(it->col_cpu);
}

static void assert_empty(const struct np_interrupts *it)
{
	assert_int_equal(it->n, 0);
	assert_int_equal(it->ncols, 0);
	assert_null(it->lines);
	assert_null(it->col_cpu);
}

static int parse_fixture(const char *name, const struct np_irq_filter *f,
			 struct np_interrupts *it)
{
	size_t len;
	char *buf = load_fixture(name, &len);
	char *p;
	int err;

	assert_non_null(buf);
	p = exact_copy(buf, len);
	err = np_parse_interrupts(p, len, f, it);
	free(p);
	free(buf);
	return err;
}

static const struct np_irq_line *find(const struct np_interrupts *it, unsigned irq)
{
	for (size_t i = 0; i < it->n; i++)
		if (it->lines[i].irq == irq)
			return &it->lines[i];
	return NULL;
}

static void test_role(void **state)
{
	(void)state;
	assert_int_equal(np_irq_role_from_name("eth0-TxRx-3"), NP_IRQ_TXRX);
	assert_int_equal(np_irq_role_from_name("i40e-eth0-TxRx-0"), NP_IRQ_TXRX);
	assert_int_equal(np_irq_role_from_name("mlx5_comp3@pci:0000:5e:00.0"), NP_IRQ_TXRX);
	assert_int_equal(np_irq_role_from_name("eth0-rxtx-1"), NP_IRQ_TXRX);
	assert_int_equal(np_irq_role_from_name("eth0-Tx-Rx-1"), NP_IRQ_TXRX);
	assert_int_equal(np_irq_role_from_name("virtio2-input.0"), NP_IRQ_RX);
	assert_int_equal(np_irq_role_from_name("eth0-rx-1"), NP_IRQ_RX);
	assert_int_equal(np_irq_role_from_name("virtio3-RX"), NP_IRQ_RX);
	/* Any case, and a name longer than the lowering's stack buffer read to its end. */
	assert_int_equal(np_irq_role_from_name("ETH0-CONFIG-RX"), NP_IRQ_OTHER);
	assert_int_equal(np_irq_role_from_name("eth0-OUTPUT.3"), NP_IRQ_TX);
	{
		char longname[400];

		memset(longname, 'q', sizeof(longname));
		memcpy(longname + 380, "-RxTx-1", 8);
		assert_int_equal(np_irq_role_from_name(longname), NP_IRQ_TXRX);
	}
	assert_int_equal(np_irq_role_from_name("eth0-tx-1"), NP_IRQ_TX);
	assert_int_equal(np_irq_role_from_name("virtio2-output.0"), NP_IRQ_TX);
	assert_int_equal(np_irq_role_from_name("virtio2-config"), NP_IRQ_OTHER);
	/* "config" wins even over a queue-looking name. */
	assert_int_equal(np_irq_role_from_name("eth0-rx-config"), NP_IRQ_OTHER);
	assert_int_equal(np_irq_role_from_name("eth0"), NP_IRQ_OTHER);
	assert_int_equal(np_irq_role_from_name("mlx5_async0@pci:0000:5e:00.0"), NP_IRQ_OTHER);
	assert_int_equal(np_irq_role_from_name(""), NP_IRQ_OTHER);
	assert_int_equal(np_irq_role_from_name(NULL), NP_IRQ_OTHER);
}

static void test_real_capture_virtio(void **state)
{
	static const char *const names[] = { "virtio2-" };
	struct np_irq_filter f = { .names = names, .nnames = 1 };
	struct np_interrupts it;
	const struct np_irq_line *l;

	(void)state;
	assert_int_equal(parse_fixture("interrupts.real.txt", &f, &it), 0);
	assert_int_equal(it.ncols, 2);
	assert_int_equal(it.col_cpu[1], 1);
	/* virtio2-config, virtio2-input.0, virtio2-output.0 */
	assert_int_equal(it.n, 3);
	l = find(&it, 38);
	assert_non_null(l);
	assert_string_equal(l->name, "virtio2-input.0");
	assert_int_equal(l->role, NP_IRQ_RX);
	assert_int_equal(np_irq_count(l, 0), 0);
	assert_int_equal(np_irq_count(l, 1), 567);
	assert_int_equal(l->total, 567);
	assert_false(l->has_affinity);
	l = find(&it, 39);
	assert_non_null(l);
	assert_int_equal(l->role, NP_IRQ_TX);
	assert_int_equal(l->total, 410);
	l = find(&it, 37);
	assert_non_null(l);
	assert_int_equal(l->role, NP_IRQ_OTHER);
	free_irqs(&it);
}

/* "ACPI:Ged" follows "5-edge"; ERR/MIS/NMI/LOC are never IRQ lines. */
static void test_real_capture_by_irq(void **state)
{
	static const unsigned irqs[] = { 24, 26, 9999 };
	struct np_irq_filter f = { .irqs = irqs, .nirqs = 3 };
	struct np_interrupts it;

	(void)state;
	assert_int_equal(parse_fixture("interrupts.real.txt", &f, &it), 0);
	assert_int_equal(it.n, 2);
	assert_string_equal(find(&it, 24)->name, "ACPI:Ged");
	assert_string_equal(find(&it, 26)->name, "ttyS0");
	assert_int_equal(find(&it, 26)->total, 15);
	free_irqs(&it);
}

static void test_16cpu_i40e_mlx5(void **state)
{
	static const char *const names[] = { "eth0", "mlx5_" };
	struct np_irq_filter f = { .names = names, .nnames = 2 };
	struct np_interrupts it;
	const struct np_irq_line *l;

	(void)state;
	assert_int_equal(parse_fixture("interrupts_16cpu_i40e_mlx5.txt", &f, &it), 0);
	assert_int_equal(it.ncols, 16);
	assert_int_equal(it.col_cpu[15], 15);
	/* 16 i40e queues, mlx5_async0 and 4 mlx5_comp. */
	assert_int_equal(it.n, 21);
	for (unsigned q = 0; q < 16; q++) {
		char want[32];

		l = find(&it, 121 + q);
		assert_non_null(l);
		snprintf(want, sizeof(want), "i40e-eth0-TxRx-%u", q);
		assert_string_equal(l->name, want);
		assert_int_equal(l->role, NP_IRQ_TXRX);
		assert_int_equal(np_irq_count(l, q), 1000 * (q + 1));
		assert_int_equal(np_irq_count(l, (q + 1) % 16), 7);
		assert_int_equal(l->total, 1000 * (q + 1) + 7);
	}
	l = find(&it, 143);
	assert_non_null(l);
	assert_string_equal(l->name, "mlx5_comp2@pci:0000:5e:00.0");
	assert_int_equal(l->role, NP_IRQ_TXRX);
	assert_int_equal(np_irq_count(l, 8), 502);
	l = find(&it, 140);
	assert_non_null(l);
	assert_int_equal(l->role, NP_IRQ_OTHER);
	assert_int_equal(l->total, 16);
	/* The misc vector has "0000:3b:00.0:misc", not "eth0": filtered out. */
	assert_null(find(&it, 120));
	free_irqs(&it);
}

static void test_shared_and_nameless(void **state)
{
	static const unsigned irqs[] = { 16, 150 };
	struct np_irq_filter f = { .irqs = irqs, .nirqs = 2 };
	struct np_interrupts it;

	(void)state;
	assert_int_equal(parse_fixture("interrupts_16cpu_i40e_mlx5.txt", &f, &it), 0);
	assert_int_equal(it.n, 2);
	/* A shared IRQ lists every action. */
	assert_string_equal(find(&it, 16)->name, "ehci_hcd:usb1, i2c_i801");
	assert_int_equal(np_irq_count(find(&it, 16), 15), 5);
	/* No action: no name, not the hwirq or the type. */
	assert_string_equal(find(&it, 150)->name, "");
	free_irqs(&it);
}

/* arm64: "GICv3 27 Level name", "ITS-MSI 524288 Edge name"; CPU2 offline; old "PCI-MSI-edge". */
static void test_arm64_offline(void **state)
{
	static const char *const names[] = { "eth", "arch_timer" };
	struct np_irq_filter f = { .names = names, .nnames = 2 };
	struct np_interrupts it;
	const struct np_irq_line *l;

	(void)state;
	assert_int_equal(parse_fixture("interrupts_arm64_offline.txt", &f, &it), 0);
	assert_int_equal(it.ncols, 3);
	assert_int_equal(it.col_cpu[0], 0);
	assert_int_equal(it.col_cpu[1], 1);
	assert_int_equal(it.col_cpu[2], 3);
	assert_int_equal(it.n, 5);
	assert_string_equal(find(&it, 11)->name, "arch_timer");
	assert_int_equal(find(&it, 11)->total, 123456 + 234567 + 456789);
	l = find(&it, 62);
	assert_non_null(l);
	assert_string_equal(l->name, "eth0-TxRx-2");
	assert_int_equal(np_irq_count(l, 2), 300);
	l = find(&it, 45);
	assert_non_null(l);
	assert_string_equal(l->name, "eth1-rx-0");
	assert_int_equal(l->role, NP_IRQ_RX);
	assert_int_equal(l->total, 6);
	free_irqs(&it);
}

static void test_empty_filter(void **state)
{
	struct np_irq_filter f = { 0 };
	static const char *const empty_name[] = { "" };
	struct np_irq_filter g = { .names = empty_name, .nnames = 1 };
	struct np_interrupts it;

	(void)state;
	assert_int_equal(parse_fixture("interrupts.real.txt", &f, &it), 0);
	assert_int_equal(it.n, 0);
	assert_int_equal(it.ncols, 2);
	free_irqs(&it);
	assert_int_equal(parse_fixture("interrupts.real.txt", NULL, &it), 0);
	assert_int_equal(it.n, 0);
	free_irqs(&it);
	/* An empty name would match everything: it matches nothing. */
	assert_int_equal(parse_fixture("interrupts.real.txt", &g, &it), 0);
	assert_int_equal(it.n, 0);
	free_irqs(&it);
}

/* Short and truncated lines keep what they have and never read past the buffer. */
static void test_short_lines(void **state)
{
	static const char s[] = "  CPU0 CPU1 CPU2\n"
				"ERR: 0\n"
				" 40: 5\n"
				" 41: 1 2 PCI-MSI 3-edge eth0-tx-0\n"
				" 42:\n"
				" 43: 7 8 9 chip 4-edge eth0-rx-9";
	static const unsigned irqs[] = { 40, 41, 42, 43 };
	struct np_irq_filter f = { .irqs = irqs, .nirqs = 4 };
	struct np_interrupts it;
	char *p = exact_copy(s, sizeof(s) - 1);

	(void)state;
	assert_int_equal(np_parse_interrupts(p, sizeof(s) - 1, &f, &it), 0);
	assert_int_equal(it.n, 4);
	assert_int_equal(find(&it, 40)->total, 5);
	assert_int_equal(np_irq_count(find(&it, 40), 1), 0);
	assert_int_equal(find(&it, 41)->total, 3);
	assert_string_equal(find(&it, 41)->name, "eth0-tx-0");
	assert_int_equal(find(&it, 42)->total, 0);
	assert_string_equal(find(&it, 43)->name, "eth0-rx-9");
	assert_int_equal(find(&it, 43)->total, 24);
	free_irqs(&it);
	free(p);
}

static void test_long_name_truncated(void **state)
{
	static const unsigned irqs[] = { 7 };
	struct np_irq_filter f = { .irqs = irqs, .nirqs = 1 };
	struct np_interrupts it;
	char s[512];
	size_t len = (size_t)snprintf(s, sizeof(s), "CPU0\n 7: 1 chip 1-edge ");

	(void)state;
	memset(s + len, 'n', 200);
	len += 200;
	assert_int_equal(np_parse_interrupts(s, len, &f, &it), 0);
	assert_int_equal(it.n, 1);
	assert_int_equal(strlen(it.lines[0].name), sizeof(it.lines[0].name) - 1);
	free_irqs(&it);
}

static void test_malformed(void **state)
{
	static const unsigned irqs[] = { 1 };
	struct np_irq_filter f = { .irqs = irqs, .nirqs = 1 };
	static const char *const bad[] = {
		"",
		"\n \n",
		"garbage here\n 1: 2 chip 1-edge x\n",
		/* no header: the first line is an IRQ line */
		" 1: 2 chip 1-edge x\n",
		"CPU0 CPUx\n",
		"CPU99999\n",
		/* IRQ number beyond 32 bits */
		"CPU0\n 99999999999: 1 chip 1-edge x\n",
	};
	struct np_interrupts it;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		size_t len = strlen(bad[i]);
		char *p = exact_copy(bad[i], len);

		assert_int_equal(np_parse_interrupts(p, len, &f, &it), -EINVAL);
		assert_empty(&it);
		free(p);
	}
	assert_int_equal(np_parse_interrupts(NULL, 0, &f, &it), -EINVAL);
	assert_empty(&it);
}

static void test_garbage_lines_skipped(void **state)
{
	static const unsigned irqs[] = { 1 };
	struct np_irq_filter f = { .irqs = irqs, .nirqs = 1 };
	static const char s[] = "CPU0\n\x01\x02\xff garbage\n:\n1:\n 1: 9 c 1-edge n\n";
	struct np_interrupts it;

	(void)state;
	assert_int_equal(np_parse_interrupts(s, sizeof(s) - 1, &f, &it), 0);
	/* "1:" with no counts and " 1: 9 ..." are both IRQ 1: both are kept, in order. */
	assert_int_equal(it.n, 2);
	assert_int_equal(it.lines[1].total, 9);
	free_irqs(&it);
}

/* Row irq's count on CPU c in test_4096_cpus: a spread of values up to 2^32 - 1. */
static uint64_t big_count(unsigned irq, unsigned c)
{
	switch (irq) {
	case 100:	/* pinned: one CPU, the largest count the kernel prints */
		return c == 4095 ? 4294967295u : 0;
	case 101:	/* every CPU, values all over the 32-bit range */
		return (uint64_t)(c + 1) * 2654435761u % 4294967296u;	/* odd factor: never 0 */
	case 102:	/* half the CPUs: the dense side of the choice */
		return c % 2 ? 4294967295u - c : 0;
	case 103:	/* one fewer than half: sparse */
		return c % 2 && c != 4095 ? 4294967295u - c : 0;
	default:	/* 104: 2^32 and more, which no kernel prints: the low 32 bits kept */
		return c == 7 ? 4294967296u + 5 : c == 8 ? 4294967296u : 0;
	}
}

/* 4096 CPUs: every count comes back from the 32-bit (dense or sparse) storage as printed, the
 * pinned row is one stored cell, and the totals stay exact sums. */
static void test_4096_cpus(void **state)
{
	static const unsigned irqs[] = { 100, 101, 102, 103, 104 };
	struct np_irq_filter f = { .irqs = irqs, .nirqs = 5 };
	size_t cap = 6u << 20, n = 0;
	char *text = malloc(cap);
	struct np_interrupts it;

	(void)state;
	assert_non_null(text);
	n += (size_t)sprintf(text + n, "      ");
	for (unsigned c = 0; c < 4096; c++)
		n += (size_t)sprintf(text + n, " CPU%-6u", c);
	text[n++] = '\n';
	for (unsigned irq = 99; irq <= 105; irq++) {
		n += (size_t)sprintf(text + n, "%4u:", irq);
		for (unsigned c = 0; c < 4096; c++)
			n += (size_t)sprintf(text + n, " %10llu",
					     (unsigned long long)big_count(irq, c));
		n += (size_t)sprintf(text + n, "  IR-PCI-MSI-0000:3b:00.0 %u-edge      "
				     "i40e-eth0-TxRx-%u\n", irq, irq - 100);
	}
	assert_true(n < cap);
	assert_int_equal(np_parse_interrupts(text, n, &f, &it), 0);
	assert_int_equal(it.ncols, 4096);
	assert_int_equal(it.col_cpu[4095], 4095);
	assert_int_equal(it.n, 5);
	for (size_t i = 0; i < it.n; i++) {
		const struct np_irq_line *l = &it.lines[i];
		uint64_t total = 0;
		uint32_t *all = malloc(4096 * sizeof(*all));

		assert_non_null(all);
		assert_int_equal(l->irq, irqs[i]);
		np_irq_counts(l, all, 4096);
		for (unsigned c = 0; c < 4096; c++) {
			uint64_t want = big_count(l->irq, c);

			total += want;
			if (np_irq_count(l, c) != (uint32_t)want || all[c] != (uint32_t)want)
				fail_msg("IRQ %u CPU %u: %u, printed %llu", l->irq, c,
					 np_irq_count(l, c), (unsigned long long)want);
		}
		assert_true(l->total == total);
		free(all);
	}
	/* Storage: the pinned row is one cell; half the CPUs dense (4 bytes a column), fewer
	 * sparse (8 bytes a nonzero cell). */
	assert_non_null(it.lines[0].cols);
	assert_int_equal(it.lines[0].ncount, 1);
	assert_null(it.lines[1].cols);
	assert_int_equal(it.lines[1].ncount, 4096);
	assert_null(it.lines[2].cols);
	assert_non_null(it.lines[3].cols);
	assert_int_equal(it.lines[3].ncount, 2047);
	assert_int_equal(np_irq_count(&it.lines[4], 7), 5);
	assert_int_equal(np_irq_count(&it.lines[4], 8), 0);
	free_irqs(&it);
	free(text);
}

/* np_irq_set_counts keeps what np_irq_count and np_irq_counts give back, at every density
 * (random rows of 1..300 columns, 0..100% nonzero), and a short read past ncount is 0. */
static void test_counts_roundtrip(void **state)
{
	uint64_t v[300];
	uint32_t out[310];
	unsigned seed = 7;
	struct np_irq_line l = { 0 };

	(void)state;
	for (int round = 0; round < 20000; round++) {
		size_t n = 1 + (seed >> 8) % 300;
		unsigned pct = (seed >> 4) % 101;

		for (size_t c = 0; c < n; c++) {
			seed = seed * 1103515245u + 12345u;
			v[c] = (seed >> 8) % 100 < pct ? (uint64_t)seed * 977u % 4294967296u : 0;
		}
		seed = seed * 1103515245u + 12345u;
		assert_int_equal(np_irq_set_counts(&l, v, n), 0);
		np_irq_counts(&l, out, n + 10);
		for (size_t c = 0; c < n + 10; c++) {
			uint32_t want = c < n ? (uint32_t)v[c] : 0;

			assert_int_equal(np_irq_count(&l, c), want);
			assert_int_equal(out[c], want);
		}
	}
	free(l.count);
}

/* What the row parser did before: tokenize and convert each count. */
static size_t reference_u64s(const char *l, size_t ll, size_t i, size_t max, uint64_t *vals,
			     size_t *n)
{
	const char *t;
	size_t tl, k, after = i;

	for (k = 0; k < max && np_tok_next(l, ll, &i, &t, &tl); k++) {
		if (!np_tok_u64(t, tl, &vals[k]))
			break;
		after = i;
	}
	*n = k;
	return after;
}

static void same_as_reference(const char *l, size_t len, size_t max)
{
	uint64_t v1[16], v2[16];
	size_t n1, n2;

	assert_true(max <= 16);
	assert_int_equal(np_tok_u64s(l, len, 0, max, v1, &n1), reference_u64s(l, len, 0, max, v2, &n2));
	assert_int_equal(n1, n2);
	for (size_t k = 0; k < n1; k++)
		assert_true(v1[k] == v2[k]);
	/* Skipping only (NULL) ends at the same place. */
	assert_int_equal(np_tok_u64s(l, len, 0, max, NULL, &n2), reference_u64s(l, len, 0, max, v2, &n1));
	assert_int_equal(n1, n2);
}

/* np_tok_u64s() converts and ends exactly as tokenizing and converting every token did: on
 * crafted edges (tabs, 20-digit values on both sides of UINT64_MAX, digits glued to letters,
 * the column limit) and on a million random rows over a small alphabet. */
static void test_counts_equivalent(void **state)
{
	static const char *const rows[] = {
		"", "   ", "1 2 3", "1\t2\v3\f4\r5 x", "12a 3", "1 2 IR-PCI-MSI 5-edge eth0",
		"18446744073709551615 1", "18446744073709551616 1", "99999999999999999999999 1",
		"00000000000000000000001 2", "1 2 3 4 5 6 7 8 9 10", "7-edge", " 5", "5 ",
		"9999999999999999999 1",
	};
	char buf[48];
	unsigned seed = 12345;

	(void)state;
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++)
		for (size_t max = 0; max < 12; max++)
			same_as_reference(rows[r], strlen(rows[r]), max);
	for (int round = 0; round < 1000000; round++) {
		static const char alphabet[] = "0123456789 \t9x-";
		size_t len = (size_t)(seed % sizeof(buf));

		for (size_t k = 0; k < len; k++) {
			seed = seed * 1103515245u + 12345u;
			buf[k] = alphabet[(seed >> 16) % (sizeof(alphabet) - 1)];
		}
		seed = seed * 1103515245u + 12345u;
		same_as_reference(buf, len, (seed >> 16) % 8);
	}
}

/* Tokens as np_tok_next() found them a byte at a time: the reference for the word-wise scan. */
static bool reference_tok(const char *l, size_t ll, size_t *i, size_t *start, size_t *tl)
{
	size_t k = *i;

	while (k < ll && (l[k] == ' ' || l[k] == '\t' || l[k] == '\r' || l[k] == '\v' ||
			  l[k] == '\f'))
		k++;
	*i = k;
	if (k == ll)
		return false;
	*start = k;
	while (k < ll && l[k] != ' ' && l[k] != '\t' && l[k] != '\r' && l[k] != '\v' &&
	       l[k] != '\f')
		k++;
	*i = k;
	*tl = k - *start;
	return true;
}

static void same_tokens(const char *l, size_t ll)
{
	size_t i = 0, j = 0, start = 0, tl = 0, rtl = 0;
	const char *t;
	bool more;

	do {
		more = np_tok_next(l, ll, &i, &t, &tl);
		assert_int_equal(more, reference_tok(l, ll, &j, &start, &rtl));
		assert_int_equal(i, j);
		if (more) {
			assert_ptr_equal(t, l + start);
			assert_int_equal(tl, rtl);
		}
	} while (more);
}

/* np_tok_next() reads eight bytes at a time: the same tokens as a byte at a time over every
 * kind of byte a blank test could confuse (other control characters, '!' right above ' ', NUL,
 * bytes from 0x80 up, '\n' which is no blank here), at every length and alignment around 8. */
static void test_tokens_equivalent(void **state)
{
	static const char alphabet[] = " \t\r\v\f!\0\001\037\n\200\240\377a0~";
	char buf[80];
	unsigned seed = 777;

	(void)state;
	same_tokens("", 0);
	same_tokens("TcpExt: SyncookiesSent SyncookiesRecv", 38);
	same_tokens("abcdefgh!abcdefgh ", 18);
	for (int round = 0; round < 300000; round++) {
		size_t len;

		seed = seed * 1103515245u + 12345u;
		len = (seed >> 16) % sizeof(buf);
		for (size_t k = 0; k < len; k++) {
			seed = seed * 1103515245u + 12345u;
			/* Mostly letters, so that long tokens happen. */
			buf[k] = (seed >> 16) % 4 ? 'a' + (char)((seed >> 20) % 26)
				: alphabet[(seed >> 18) % (sizeof(alphabet) - 1)];
		}
		/* From every offset: the words then start at every alignment. */
		same_tokens(buf + (len ? seed % 8 % (len + 1) : 0),
			    len - (len ? seed % 8 % (len + 1) : 0));
	}
}

/* np_tok_eq() without strlen: the same answers as length and bytes compared, tokens holding
 * NUL and prefixes both ways included. */
static void test_tok_eq_equivalent(void **state)
{
	static const char *const names[] = { "", "a", "ab", "kB", "MemTotal:", "MemTotal", "TCP:" };
	static const char toks[][10] = { "", "a", "ab", "a\0", "ab\0", "kB", "MemTotal:", "MemTotal",
					 "MemTotal:x", "TCP:", "TCP\0", "\0" };

	(void)state;
	for (size_t n = 0; n < sizeof(names) / sizeof(names[0]); n++)
		for (size_t t = 0; t < sizeof(toks) / sizeof(toks[0]); t++)
			for (size_t tl = 0; tl <= sizeof(toks[t]); tl++)
				assert_int_equal(np_tok_eq(toks[t], tl, names[n]),
						 tl == strlen(names[n]) && !memcmp(toks[t], names[n], tl));
	assert_true(np_tok_eq("MemTotal: 5", 9, "MemTotal:"));
	assert_false(np_tok_eq("a\0", 2, "a"));
}

/* np_tok_u64() as it was, the limit tested at every digit. */
static bool reference_u64(const char *t, size_t tl, uint64_t *v)
{
	uint64_t x = 0;

	if (!tl)
		return false;
	for (size_t i = 0; i < tl; i++) {
		if (t[i] < '0' || t[i] > '9')
			return false;
		if (x > (UINT64_MAX - (uint64_t)(t[i] - '0')) / 10)
			return false;
		x = x * 10 + (uint64_t)(t[i] - '0');
	}
	*v = x;
	return true;
}

/* The short path (up to 19 digits, no limit test) answers as the reference: at the 19/20
 * digit edge, around UINT64_MAX, and on random tokens with bytes just outside '0'..'9'. */
static void test_u64_equivalent(void **state)
{
	static const char *const toks[] = {
		"", "0", "9", "/", ":", "9999999999999999999", "09999999999999999999",
		"18446744073709551615", "18446744073709551616", "99999999999999999999",
		"0000000000000000000000018", "1234567890123456789x", "123456789012345678\x80",
	};
	static const char alphabet[] = "0123456789/:\x80\xb0";
	char buf[24];
	unsigned seed = 4242;

	(void)state;
	for (size_t k = 0; k < sizeof(toks) / sizeof(toks[0]); k++) {
		uint64_t a = 7, b = 7;
		size_t tl = strlen(toks[k]);

		assert_int_equal(np_tok_u64(toks[k], tl, &a), reference_u64(toks[k], tl, &b));
		assert_true(a == b);
	}
	for (int round = 0; round < 200000; round++) {
		uint64_t a = 7, b = 7;
		size_t len;

		seed = seed * 1103515245u + 12345u;
		len = (seed >> 16) % sizeof(buf);
		for (size_t k = 0; k < len; k++) {
			seed = seed * 1103515245u + 12345u;
			buf[k] = (seed >> 16) % 16 ? '0' + (char)((seed >> 20) % 10)
				 : alphabet[(seed >> 20) % (sizeof(alphabet) - 1)];
		}
		assert_int_equal(np_tok_u64(buf, len, &a), reference_u64(buf, len, &b));
		assert_true(a == b);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_role),
		cmocka_unit_test(test_real_capture_virtio),
		cmocka_unit_test(test_real_capture_by_irq),
		cmocka_unit_test(test_16cpu_i40e_mlx5),
		cmocka_unit_test(test_shared_and_nameless),
		cmocka_unit_test(test_arm64_offline),
		cmocka_unit_test(test_empty_filter),
		cmocka_unit_test(test_short_lines),
		cmocka_unit_test(test_long_name_truncated),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_garbage_lines_skipped),
		cmocka_unit_test(test_counts_equivalent),
		cmocka_unit_test(test_tokens_equivalent),
		cmocka_unit_test(test_tok_eq_equivalent),
		cmocka_unit_test(test_u64_equivalent),
		cmocka_unit_test(test_4096_cpus),
		cmocka_unit_test(test_counts_roundtrip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0-only
/* /proc/interrupts: per-CPU counts and the action name of the IRQs the filter asks for. */
#include "parse.h"
#include "parse_util.h"
#include "strjoin.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The name in ASCII lower case: the words matched below are ASCII, so no other byte can match
 * one in any locale. Lowered once per name, not once per position and word as strncasecmp()
 * did (5,000 instructions a name). */
static void ascii_lower(const char *name, char *lc, size_t n)
{
	for (size_t i = 0; i < n; i++)
		lc[i] = name[i] >= 'A' && name[i] <= 'Z' ? (char)(name[i] + ('a' - 'A')) : name[i];
	lc[n] = '\0';
}

static enum np_irq_role role_of_lower(const char *lc)
{
	/* "config" vectors carry no traffic, even when the name also has "rx"/"tx" in it. */
	if (strstr(lc, "config"))
		return NP_IRQ_OTHER;
	/* "Tx-Rx" is ena's combined queue ("eth0-Tx-Rx-3"). */
	if (strstr(lc, "txrx") || strstr(lc, "comp") || strstr(lc, "-rxtx") || strstr(lc, "tx-rx"))
		return NP_IRQ_TXRX;
	if (strstr(lc, "rx") || strstr(lc, "input"))
		return NP_IRQ_RX;
	if (strstr(lc, "tx") || strstr(lc, "output"))
		return NP_IRQ_TX;
	return NP_IRQ_OTHER;
}

enum np_irq_role np_irq_role_from_name(const char *name)
{
	char buf[256], *lc = buf;
	enum np_irq_role role;
	size_t n;

	if (!name)
		return NP_IRQ_OTHER;
	n = strlen(name);
	/* Names are short (the kernel's action names); a longer one is read whole all the same,
	 * or, without the memory, its first bytes. */
	if (n >= sizeof(buf) && !(lc = malloc(n + 1))) {
		lc = buf;
		n = sizeof(buf) - 1;
	}
	ascii_lower(name, lc, n);
	role = role_of_lower(lc);
	if (lc != buf)
		free(lc);
	return role;
}

static bool ends_with(const char *t, size_t tl, const char *suf)
{
	size_t n = strlen(suf);

	return tl >= n && !memcmp(t + tl - n, suf, n);
}

/*
 * The trigger/flow-handler field: "5-edge", "524288-edge", "-fasteoi", old "IO-APIC-edge", or
 * "Edge"/"Level" on architectures with GENERIC_IRQ_SHOW_LEVEL (arm64).
 */
static bool is_type_tok(const char *t, size_t tl)
{
	static const char *const sufs[] = { "-edge", "-level", "-fasteoi", "-simple", "-percpu",
					     "-percpu_devid", "-eoi", "-bad" };

	if ((tl == 4 && !memcmp(t, "Edge", 4)) || (tl == 5 && !memcmp(t, "Level", 5)))
		return true;
	for (size_t k = 0; k < sizeof(sufs) / sizeof(sufs[0]); k++)
		if (ends_with(t, tl, sufs[k]))
			return true;
	return false;
}

/*
 * The action name from the fields after the counts: everything after the type field (shared
 * IRQs list several actions, "ehci_hcd:usb1, eth0"), else the last token.
 */
static void action_name(const char *l, size_t ll, size_t i, char *name, size_t size)
{
	const char *t, *start = NULL, *last = NULL;
	size_t tl, lastl = 0, nl;
	bool typed = false;

	while (np_tok_next(l, ll, &i, &t, &tl)) {
		if (!start && is_type_tok(t, tl)) {
			typed = true;
			continue;
		}
		if (typed && !start)
			start = t;
		last = t;
		lastl = tl;
	}
	name[0] = '\0';
	if (start) {
		nl = (size_t)(last + lastl - start);
	} else if (!typed && last) {
		start = last;
		nl = lastl;
	} else {
		return;
	}
	if (nl >= size)
		nl = size - 1;
	memcpy(name, start, nl);
	name[nl] = '\0';
	/* The name is shown in reports and remedies: no control bytes (ESC, NUL) from a
	 * damaged or hostile file. */
	for (size_t k = 0; k < nl; k++)
		if ((unsigned char)name[k] < 0x20 || name[k] == 0x7f)
			name[k] = '?';
}

static bool wanted(const struct np_irq_filter *f, unsigned irq, const char *name)
{
	if (!f)
		return false;
	if (f->match && f->match(irq, name, f->arg))
		return true;
	for (size_t k = 0; k < f->nirqs; k++)
		if (f->irqs && f->irqs[k] == irq)
			return true;
	for (size_t k = 0; k < f->nnames; k++)
		if (f->names && f->names[k] && f->names[k][0] && strstr(name, f->names[k]))
			return true;
	return false;
}

static int parse_header(const char *l, size_t ll, struct np_interrupts *out)
{
	size_t n = np_tok_count(l, ll, 0);

	if (!n || n > NP_MAX_CPUS)
		return -EINVAL;
	out->col_cpu = calloc(n, sizeof(*out->col_cpu));
	if (!out->col_cpu)
		return -ENOMEM;
	if (!np_line_cpus(l, ll, out->col_cpu))
		return -EINVAL;
	out->ncols = n;
	return 0;
}

/* One "NN: counts chip hwirq type name" line; lines with a non-numeric label are not IRQs.
 * scratch holds ncols values: the counts are converted once, kept only for wanted rows. A
 * filter by IRQ number alone decides before the counts are read: at 4096 CPUs a row is 4096
 * numbers, and all but the device's few rows are skipped unread. */
static int parse_line(const char *l, size_t ll, const struct np_irq_filter *f, size_t *cap,
		      uint64_t *scratch, struct np_interrupts *out)
{
	struct np_irq_line *line;
	const char *t;
	size_t tl, i, k, after;
	uint64_t irq;
	char name[sizeof(line->name)];

	if (!np_line_label(l, ll, &t, &tl, &i) || !np_tok_u64(t, tl, &irq))
		return 0;
	if (irq > UINT32_MAX)
		return -EINVAL;
	if (f && !f->match && !f->nnames && !wanted(f, (unsigned)irq, ""))
		return 0;
	/* Counts stop at the first non-number: a short line leaves the other columns at 0. */
	after = np_tok_u64s(l, ll, i, out->ncols, scratch, &k);
	action_name(l, ll, after, name, sizeof(name));
	if (!wanted(f, (unsigned)irq, name))
		return 0;

	if (out->n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 16;
		struct np_irq_line *lines = realloc(out->lines, ncap * sizeof(*lines));

		if (!lines)
			return -ENOMEM;
		out->lines = lines;
		*cap = ncap;
	}
	line = &out->lines[out->n];
	memset(line, 0, sizeof(*line));
	/* 32-bit, and only the nonzero CPUs when fewer than half are: 256 queue rows of 4096
	 * CPUs were 8 MiB of 64-bit counts, most of them 0. */
	if (np_irq_set_counts(line, scratch, k) < 0)
		return -ENOMEM;
	out->n++;
	line->irq = (unsigned)irq;
	np_strjoin(line->name, sizeof(line->name), name);
	line->role = np_irq_role_from_name(name);
	for (size_t c = 0; c < k; c++)
		line->total += scratch[c];
	return 0;
}

void np_irq_parse_begin(struct np_irq_parse *p, const struct np_irq_filter *f,
			struct np_interrupts *out)
{
	memset(p, 0, sizeof(*p));
	memset(out, 0, sizeof(*out));
	p->f = f;
	p->out = out;
}

int np_irq_parse_line(struct np_irq_parse *p, const char *l, size_t ll)
{
	const char *t;
	size_t i = 0, tl;
	int err;

	if (!np_tok_next(l, ll, &i, &t, &tl))
		return 0;
	if (!p->scratch) {
		err = parse_header(l, ll, p->out);
		if (err)
			return err;
		p->scratch = malloc(p->out->ncols * sizeof(*p->scratch));
		return p->scratch ? 0 : -ENOMEM;
	}
	return parse_line(l, ll, p->f, &p->cap, p->scratch, p->out);
}

int np_irq_parse_end(struct np_irq_parse *p, int err)
{
	struct np_interrupts *out = p->out;

	if (!err && !p->scratch)
		err = -EINVAL;		/* no header */
	free(p->scratch);
	p->scratch = NULL;
	if (err) {
		for (size_t k = 0; k < out->n; k++)
			free(out->lines[k].count);
		free(out->lines);
		free(out->col_cpu);
		memset(out, 0, sizeof(*out));
	}
	return err;
}

int np_parse_interrupts(const char *buf, size_t len, const struct np_irq_filter *f,
			struct np_interrupts *out)
{
	struct np_irq_parse p;
	const char *l;
	size_t ll, pos = 0;
	int err = 0;

	np_irq_parse_begin(&p, f, out);
	if (!buf)
		return np_irq_parse_end(&p, -EINVAL);
	while (!err && np_line_next(buf, len, &pos, &l, &ll))
		err = np_irq_parse_line(&p, l, ll);
	return np_irq_parse_end(&p, err);
}

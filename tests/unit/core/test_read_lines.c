// SPDX-License-Identifier: GPL-2.0-only
/* np_read_lines over a temporary tree: every line once, in order, whatever the piece boundaries;
 * a line longer than the first piece; a last line without newline; a callback that stops; and
 * /proc/interrupts streamed gives the rows np_parse_interrupts gives from the whole file. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "ctx.h"
#include "parse.h"

struct dirs {
	char root[64];
};

static int setup(void **state)
{
	struct dirs *d = calloc(1, sizeof(*d));
	char p[128];

	if (!d)
		return -1;
	snprintf(d->root, sizeof(d->root), "/tmp/np-lines-XXXXXX");
	if (!mkdtemp(d->root))
		return -1;
	snprintf(p, sizeof(p), "%s/proc", d->root);
	mkdir(p, 0700);
	snprintf(p, sizeof(p), "%s/sys", d->root);
	mkdir(p, 0700);
	*state = d;
	return 0;
}

static int teardown(void **state)
{
	struct dirs *d = *state;
	char cmd[128];
	int r;

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", d->root);
	r = system(cmd);
	free(d);
	return r == 0 ? 0 : -1;
}

static void put(const struct dirs *d, const char *name, const char *text, size_t len)
{
	char p[160];
	FILE *f;

	snprintf(p, sizeof(p), "%s/proc/%s", d->root, name);
	f = fopen(p, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	fclose(f);
}

/* The lines seen, joined again with '\n' after each. */
struct seen {
	char *text;
	size_t len, lines, stop_at;
};

static int collect(const char *line, size_t len, void *arg)
{
	struct seen *s = arg;

	if (s->stop_at && s->lines + 1 == s->stop_at)
		return -ECANCELED;
	s->text = realloc(s->text, s->len + len + 2);
	assert_non_null(s->text);
	memcpy(s->text + s->len, line, len);
	s->len += len;
	s->text[s->len++] = '\n';
	s->text[s->len] = '\0';
	s->lines++;
	return 0;
}

static void test_pieces(void **state)
{
	const struct dirs *d = *state;
	size_t big = 200000, n = 0;
	char *text = malloc(big + 4096);
	struct seen s = { 0 };
	struct np_ctx ctx;

	assert_non_null(text);
	/* Short lines, one line of 150,000 bytes (more than the first 64 KiB piece), short lines,
	 * and a last line without newline. */
	n += (size_t)sprintf(text + n, "first\nsecond\n");
	memset(text + n, 'x', 150000);
	n += 150000;
	text[n++] = '\n';
	for (int i = 0; i < 2000; i++)
		n += (size_t)sprintf(text + n, "line %d\n", i);
	n += (size_t)sprintf(text + n, "last");
	put(d, "f", text, n);
	assert_int_equal(np_ctx_open(&ctx, d->root), 0);
	assert_int_equal(np_read_lines(&ctx, NP_PROC, "f", collect, &s), 0);
	assert_int_equal(s.lines, 2 + 1 + 2000 + 1);
	assert_int_equal(s.len, n + 1);		/* the last line gained its newline */
	assert_memory_equal(s.text, text, n);
	/* A callback that stops: its error comes back, no line after it. */
	free(s.text);
	s = (struct seen){ .stop_at = 3 };
	assert_int_equal(np_read_lines(&ctx, NP_PROC, "f", collect, &s), -ECANCELED);
	assert_int_equal(s.lines, 2);
	free(s.text);
	/* A missing file: its errno. */
	assert_int_equal(np_read_lines(&ctx, NP_PROC, "nothing", collect, &s), -ENOENT);
	np_ctx_close(&ctx);
	free(text);
}

static void irqs_free(struct np_interrupts *v)
{
	for (size_t k = 0; k < v->n; k++)
		free(v->lines[k].count);
	free(v->lines);
	free(v->col_cpu);
}

static int irq_line(const char *line, size_t len, void *p)
{
	return np_irq_parse_line(p, line, len);
}

/* 1024 CPUs, 400 IRQ rows: streamed and whole, the filter by number keeps the same rows with the
 * same counts. */
static void test_interrupts_streamed(void **state)
{
	const struct dirs *d = *state;
	const unsigned want[] = { 7, 150, 399 };
	struct np_irq_filter f = { .irqs = want, .nirqs = 3 };
	struct np_interrupts whole, streamed;
	size_t cap = 16u << 20, n = 0;
	char *text = malloc(cap);
	struct np_irq_parse ip;
	struct np_ctx ctx;

	assert_non_null(text);
	n += (size_t)sprintf(text + n, "      ");
	for (int c = 0; c < 1024; c++)
		n += (size_t)sprintf(text + n, " CPU%-7d", c);
	text[n++] = '\n';
	for (int irq = 0; irq < 400; irq++) {
		n += (size_t)sprintf(text + n, "%3d:", irq);
		for (int c = 0; c < 1024; c++)
			n += (size_t)sprintf(text + n, " %10d", (irq * 31 + c) % 1000);
		n += (size_t)sprintf(text + n, "  PCI-MSI %d-edge      eth0-TxRx-%d\n", irq, irq);
	}
	put(d, "interrupts", text, n);
	assert_int_equal(np_parse_interrupts(text, n, &f, &whole), 0);
	assert_int_equal(np_ctx_open(&ctx, d->root), 0);
	np_irq_parse_begin(&ip, &f, &streamed);
	assert_int_equal(np_irq_parse_end(&ip, np_read_lines(&ctx, NP_PROC, "interrupts", irq_line,
							     &ip)), 0);
	np_ctx_close(&ctx);
	assert_int_equal(whole.n, 3);
	assert_int_equal(streamed.n, 3);
	assert_int_equal(streamed.ncols, 1024);
	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(streamed.lines[i].irq, want[i]);
		assert_int_equal(streamed.lines[i].total, whole.lines[i].total);
		for (size_t c = 0; c < 1024; c++)
			assert_int_equal(np_irq_count(&streamed.lines[i], c),
					 np_irq_count(&whole.lines[i], c));
		assert_int_equal(np_irq_count(&streamed.lines[i], 5), (want[i] * 31 + 5) % 1000);
	}
	irqs_free(&whole);
	irqs_free(&streamed);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_pieces, setup, teardown),
		cmocka_unit_test_setup_teardown(test_interrupts_streamed, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

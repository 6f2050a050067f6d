// SPDX-License-Identifier: GPL-2.0-only
/*
 * netpath history's renderers over a made-up span (render_history.c): one sparkline row per
 * stage with drops that fits the width, '_' for recorded seconds without drops and ' ' where
 * nothing was recorded, the peak and its time, quiet stages listed once, gaps and damaged
 * blocks said, the worst seconds with their check; and the JSON's fields and nulls.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "../fits_width.h"
#include "render_history.h"

#define S 1000000000LL
#define T0 (1795850000LL * S)

/* 600 seconds of which 100..199 are not recorded; socket drops 50/s in 300..309 and a peak of
 * 900/s at 305; nic 1/s all along; no other stage has drops; ip has no counter (NAN). */
static void span(struct np_history *h, struct np_history_worst *w)
{
	memset(h, 0, sizeof(*h));
	h->dir = "/var/lib/netpath/record";
	snprintf(h->dev, sizeof(h->dev), "eth0");
	h->interval = 1;
	h->stages = (1u << NP_STAGE__COUNT) - 1;
	h->sec = calloc(600, sizeof(*h->sec));
	assert_non_null(h->sec);
	for (int t = 0; t < 600; t++) {
		struct np_history_sec *s;

		if (t >= 100 && t < 200)
			continue;
		s = &h->sec[h->n++];
		s->t = T0 + t * S;
		for (int st = 0; st < NP_STAGE__COUNT; st++)
			s->drops[st] = 0;
		s->drops[NP_STAGE_IP] = NAN;
		s->drops[NP_STAGE_NIC] = 1;
		if (t >= 300 && t < 310)
			s->drops[NP_STAGE_SOCKET] = t == 305 ? 900 : 50;
	}
	h->first = h->sec[0].t;
	h->last = h->sec[h->n - 1].t;
	h->gaps = calloc(1, sizeof(*h->gaps));
	assert_non_null(h->gaps);
	h->gaps[0] = (struct np_history_gap){ T0 + 99 * S, T0 + 200 * S };
	h->ngaps = 1;
	memset(w, 0, sizeof(*w));
	w->t = T0 + 305 * S;
	w->stage = NP_STAGE_SOCKET;
	w->rate = 900;
	w->total_rate = 901;
	snprintf(w->check, sizeof(w->check), "socket.udp-rcvbuf");
	w->severity = NP_SEV_CRITICAL;
	h->worst = w;
	h->nworst = 1;
}

static char *render_text(const struct np_history *h, int width, bool utf8)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	np_render_history_text(f, h, width, utf8);
	fclose(f);
	return buf;
}

/* The row of a stage: the line that starts "  STAGE ". (Not inlined: GCC 12 then takes text
 * for render_text()'s local and warns of a dangling pointer.) */
static __attribute__((noinline)) const char *row(const char *text, const char *stage)
{
	char head[32];
	const char *p;

	snprintf(head, sizeof(head), "\n  %-9s", stage);
	p = strstr(text, head);
	return p ? p + 1 : NULL;
}

static void rows_fit_and_mark(void **state)
{
	struct np_history h;
	struct np_history_worst w;
	char *text;
	const char *r;

	(void)state;
	span(&h, &w);
	for (int width = 60; width <= 120; width += 20) {
		text = render_text(&h, width, width != 80);
		np_assert_fits(text, width);
		free(text);
	}
	text = render_text(&h, 80, false);
	/* Stages with drops have rows; the others are listed once, ip (no counter) too. */
	assert_non_null(row(text, "socket"));
	assert_non_null(row(text, "nic"));
	assert_null(row(text, "link"));
	assert_non_null(strstr(text, "no drops: link"));
	/* The socket row: its peak at 305, the highest mark, quiet seconds as '_', the
	 * unrecorded stretch as blanks between marks. */
	r = row(text, "socket");
	assert_non_null(strstr(r, "peak 900/s at"));
	assert_non_null(memchr(r, '@', strcspn(r, "\n")));
	assert_non_null(memchr(r, '_', strcspn(r, "\n")));
	assert_non_null(strstr(r, "_ "));
	/* The nic row is flat: every recorded cell at the top mark (its own peak). */
	r = row(text, "nic");
	assert_null(memchr(r + 11, '_', strcspn(r, "\n") - 11 - 30));
	assert_non_null(strstr(text, "not recorded: "));
	assert_non_null(strstr(text, "(101 s)"));
	assert_non_null(strstr(text, "worst seconds:"));
	assert_non_null(strstr(text, "socket.udp-rcvbuf (critical)"));
	assert_null(strstr(text, "damaged"));
	free(text);
	h.damaged = 2;
	h.steps = calloc(1, sizeof(*h.steps));
	assert_non_null(h.steps);
	h.steps[0] = (struct np_history_step){ T0 + 400 * S, 3600 * S };
	h.nsteps = 1;
	text = render_text(&h, 80, true);
	/* UTF-8 bars, the damage and the clock step said. */
	assert_non_null(strstr(text, "\u2588"));
	assert_non_null(strstr(text, "damaged: 2 blocks"));
	assert_non_null(strstr(text, "the clock stepped by +3600.0 s at"));
	free(text);
	h.worst = NULL;
	h.nworst = 0;
	np_history_free(&h);
}

static void json_fields(void **state)
{
	struct np_history h;
	struct np_history_worst w;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	span(&h, &w);
	f = open_memstream(&buf, &len);
	np_render_history_json(f, &h);
	fclose(f);
	assert_non_null(strstr(buf, "\"schema\":\"netpath/history\",\"version\":1"));
	/* Times keep their seconds (not %g's six digits), stages without a counter are null. */
	assert_non_null(strstr(buf, "{\"time\":1795850305.000,\"drops\":{\"link\":0,"));
	assert_non_null(strstr(buf, "\"ip\":null"));
	assert_non_null(strstr(buf, "\"socket\":900"));
	assert_non_null(strstr(buf, "\"gaps\":[{\"from\":1795850099.000,\"to\":1795850200.000}]"));
	assert_non_null(strstr(buf, "\"check\":\"socket.udp-rcvbuf\",\"severity\":\"critical\""));
	assert_non_null(strstr(buf, "\"clock_steps\":[]"));
	assert_int_equal(buf[len - 1], '\n');
	free(buf);
	/* --stage: only that stage's rates. */
	h.stages = 1u << NP_STAGE_SOCKET;
	buf = NULL;
	f = open_memstream(&buf, &len);
	np_render_history_json(f, &h);
	fclose(f);
	assert_null(strstr(buf, "\"nic\""));
	assert_non_null(strstr(buf, "\"drops\":{\"socket\":0}"));
	free(buf);
	h.worst = NULL;
	h.nworst = 0;
	np_history_free(&h);
}

static void empty_span(void **state)
{
	struct np_history h = { .dir = "/x", .stages = 1 };
	char *text;

	(void)state;
	text = render_text(&h, 80, false);
	assert_non_null(strstr(text, "no samples with rates"));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rows_fit_and_mark),
		cmocka_unit_test(json_fields),
		cmocka_unit_test(empty_span),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0-only
/* The loss ledger (checks/ledger.h) as doctor prints it, and its reference text. */
#include "render.h"
#include "json_writer.h"
#include "outbuf.h"
#include "text_wrap.h"

#include <string.h>

#define LEDGER_TITLE "the loss ledger: what vanished between stages with no counter moving"

void np_render_ledger_json(struct np_json *j, const struct np_ledger *l)
{
	np_json_arr_open(j);
	for (size_t i = 0; l && i < l->n; i++) {
		const struct np_ledger_line *b = &l->b[i];
		bool nc = b->kind == NP_LEDGER_NOT_COMPARABLE;

		np_json_obj_open(j);
		np_json_kv_str(j, "boundary", b->boundary);
		np_json_kv_str(j, "interface", l->dev);
		np_json_kv_bool(j, "comparable", !nc);
		np_json_kv_str(j, "kind", np_ledger_kind_name(b->kind));
		np_json_kv_str(j, "counters", b->counters);
		np_json_kv_str(j, "span", nc ? NULL : b->window ? "interval" : "since_boot");
		if (nc) {
			np_json_kv_null(j, "packets");
			np_json_kv_null(j, "per_second");
			np_json_kv_null(j, "input");
		} else {
			np_json_kv_double(j, "packets", b->packets);
			if (b->window)
				np_json_kv_double(j, "per_second", b->rate);
			else
				np_json_kv_null(j, "per_second");
			np_json_kv_double(j, "input", b->in);
		}
		np_json_kv_bool(j, "material", b->material);
		np_json_kv_str(j, nc ? "reason" : "caveat", b->reason);
		np_json_obj_close(j);
	}
	np_json_arr_close(j);
}

/* "at most 1,234/s [2,468]", "exact 12 since boot", "not comparable". */
static void amount(const struct np_ledger_line *b, char *buf, size_t size)
{
	static const char *const kind[] = {
		[NP_LEDGER_EXACT] = "", [NP_LEDGER_AT_LEAST] = "at least ",
		[NP_LEDGER_AT_MOST] = "at most ",
	};
	char x[40], y[40];

	if (b->kind == NP_LEDGER_NOT_COMPARABLE)
		snprintf(buf, size, "not comparable");
	else if (!b->packets)
		snprintf(buf, size, "0%s", b->window ? "/s" : " since boot");
	else if (b->window)
		snprintf(buf, size, "%s%s/s [%s]%s", kind[b->kind],
			 np_fmt_count(b->rate, x, sizeof(x)),
			 np_fmt_count(b->packets, y, sizeof(y)), b->material ? ", material" : "");
	else
		snprintf(buf, size, "%s%s since boot", kind[b->kind],
			 np_fmt_count(b->packets, x, sizeof(x)));
}

void np_render_ledger_text(struct np_ob *out, const struct np_ledger *l, bool color, int verbose)
{
	if (!l || !l->n)
		return;
	np_ob_cat(out, color ? "\033[1m" : "", "Loss ledger", color ? "\033[0m" : "",
		  " (lost between stages with no counter moving: netpath explain ledger)\n", NULL);
	for (size_t i = 0; i < l->n; i++) {
		const struct np_ledger_line *b = &l->b[i];
		char a[96];

		amount(b, a, sizeof(a));
		np_ob_puts(out, "  ");
		np_ob_pad(out, b->boundary, -20);
		np_ob_cat(out, "  ", a, ": ", b->reason, "\n", NULL);
		if (verbose) {
			np_ob_puts(out, "  ");
			np_ob_blanks(out, 20);
			np_ob_puts(out, "  counters: ");
			np_ob_puts(out, b->counters);
			np_ob_putc(out, '\n');
		}
	}
	np_ob_putc(out, '\n');
}

static void explain(FILE *out, int width)
{
	fprintf(out, "ledger — %s\n\n", LEDGER_TITLE);
	for (size_t i = 0; np_ledger_explain[i] && np_ledger_explain[i + 1]; i += 2) {
		fprintf(out, "%s\n    ", np_ledger_explain[i]);
		np_wrap_prose(out, np_ledger_explain[i + 1], 4, 4, width);
		fputc('\n', out);
	}
}

void np_render_ledger_explain_text(FILE *out, int width)
{
	struct np_wrap_stream w;

	explain(np_wrap_open(&w, out, width), width);
	np_wrap_close(&w);
}

void np_render_ledger_explain_json(FILE *out)
{
	struct np_json j;

	np_json_init(&j, out, true);
	np_json_obj_open(&j);
	np_json_kv_str(&j, "schema", "netpath/topic");
	np_json_kv_int(&j, "version", 1);
	np_json_kv_str(&j, "id", "ledger");
	np_json_kv_str(&j, "title", LEDGER_TITLE);
	np_json_key_arr_open(&j, "sections");
	for (size_t i = 0; np_ledger_explain[i] && np_ledger_explain[i + 1]; i += 2) {
		np_json_obj_open(&j);
		np_json_kv_str(&j, "heading", np_ledger_explain[i]);
		np_json_kv_str(&j, "text", np_ledger_explain[i + 1]);
		np_json_obj_close(&j);
	}
	np_json_arr_close(&j);
	np_json_obj_close(&j);
	np_json_end(&j);
}

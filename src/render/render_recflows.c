// SPDX-License-Identifier: GPL-2.0-only
/* The top dropped flows of a recording's minutes, as text and JSON (render_recflows.h). */
#include <inttypes.h>

#include "render_recflows.h"
#include "outbuf.h"

void np_render_recflows_ob(struct np_ob *out, const struct np_rec_flows *f, const char *indent)
{
	for (size_t i = 0; i < f->n; i++) {
		const struct np_rec_flow *x = &f->f[i];

		np_ob_printf(out, "%s%9" PRIu64 " drops  %s  %s  %s\n", indent, x->drops, x->iface,
			     x->flow, x->reason);
	}
}

void np_render_recflows_text(FILE *out, const struct np_rec_flows *f, const char *indent)
{
	struct np_ob ob;

	np_ob_init(&ob, out);
	np_render_recflows_ob(&ob, f, indent);
	np_ob_flush(&ob);
}

static void str_or_null(struct np_json *j, const char *key, const char *v)
{
	np_json_kv_str(j, key, v[0] ? v : NULL);
}

static void port(struct np_json *j, const char *key, int v)
{
	if (v < 0)
		np_json_kv_null(j, key);
	else
		np_json_kv_int(j, key, v);
}

void np_render_recflows_json(struct np_json *j, const struct np_rec_flows *f)
{
	np_json_arr_open(j);
	for (size_t i = 0; i < f->n; i++) {
		const struct np_rec_flow *x = &f->f[i];

		np_json_obj_open(j);
		np_json_kv_str(j, "interface", x->iface);
		np_json_kv_str(j, "reason", x->reason);
		np_json_kv_str(j, "flow", x->flow);
		str_or_null(j, "protocol", x->proto);
		str_or_null(j, "src", x->src);
		str_or_null(j, "dst", x->dst);
		port(j, "sport", x->sport);
		port(j, "dport", x->dport);
		np_json_kv_u64(j, "drops", x->drops);
		np_json_obj_close(j);
	}
	np_json_arr_close(j);
}

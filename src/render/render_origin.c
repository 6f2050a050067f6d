// SPDX-License-Identifier: GPL-2.0-only
/* Where the data came from (live, a tree, a capture, a sosreport), for the reports' headers. */
#include "json_writer.h"
#include "render.h"

#include <string.h>

const char *np_origin_kind_name(enum np_origin_kind k)
{
	switch (k) {
	case NP_ORIGIN_LIVE: return "live";
	case NP_ORIGIN_TREE: return "tree";
	case NP_ORIGIN_CAPTURE: return "capture";
	case NP_ORIGIN_SOSREPORT: return "sosreport";
	case NP_ORIGIN_RECORDING: return "recording";
	}
	return "tree";
}

static void str_or_null(struct np_json *j, const char *key, const char *v)
{
	np_json_kv_str(j, key, v && v[0] ? v : NULL);
}

void np_render_origin_json(struct np_json *j, const struct np_origin *o, bool live)
{
	const char *p, *e;

	np_json_obj_open(j);
	np_json_kv_str(j, "kind", o ? np_origin_kind_name(o->kind) : live ? "live" : "tree");
	str_or_null(j, "tool_version", o ? o->tool_version : NULL);
	str_or_null(j, "hostname", o ? o->hostname : NULL);
	str_or_null(j, "kernel", o ? o->kernel : NULL);
	str_or_null(j, "taken", o ? o->taken : NULL);
	np_json_key_arr_open(j, "lacks");
	/* "; "-separated in the struct, one string each here. */
	for (p = o ? o->lacks : ""; *p; p = *e ? e + 2 : e) {
		char item[sizeof(o->lacks)];

		e = strstr(p, "; ");
		if (!e)
			e = p + strlen(p);
		memcpy(item, p, (size_t)(e - p));
		item[e - p] = '\0';
		np_json_str(j, item);
	}
	np_json_arr_close(j);
	np_json_obj_close(j);
}

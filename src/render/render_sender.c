// SPDX-License-Identifier: GPL-2.0-only
/* doctor's sender-side table: text lines and the JSON "sender" object (sender.h). */
#include <stdio.h>

#include "json_writer.h"
#include "outbuf.h"
#include "render.h"
#include "sender.h"

static void int_or_null(struct np_json *j, const char *key, int64_t v)
{
	if (v < 0)
		np_json_kv_null(j, key);
	else
		np_json_kv_int(j, key, v);
}

void np_render_sender_json(struct np_json *j, const struct np_doctor_view *v)
{
	struct np_sender sd;

	np_sender_build(v->a, v->kmods, &sd);
	np_json_key_obj_open(j, "sender");
	np_json_kv_str(j, "congestion_control", sd.cc);
	np_json_key(j, "congestion_control_in_use");
	if (sd.cc_live_known) {
		np_json_arr_open(j);
		for (size_t i = 0; i < sd.ncc_live; i++) {
			np_json_obj_open(j);
			np_json_kv_str(j, "name", sd.cc_live[i].name);
			np_json_kv_u64(j, "sockets", sd.cc_live[i].sockets);
			np_json_obj_close(j);
		}
		np_json_arr_close(j);
	} else {
		np_json_null(j);
	}
	np_json_kv_str(j, "default_qdisc", sd.default_qdisc);
	np_json_kv_str(j, "qdisc", sd.qdisc);
	int_or_null(j, "rmem_max", sd.rmem_max);
	int_or_null(j, "wmem_max", sd.wmem_max);
	int_or_null(j, "tcp_rmem_max", sd.tcp_rmem_max);
	int_or_null(j, "tcp_wmem_max", sd.tcp_wmem_max);
	int_or_null(j, "tcp_mtu_probing", sd.mtu_probing);
	np_json_kv_str(j, "bbr", sd.bbr);
	np_json_kv_double(j, "bdp_bytes", sd.bdp);
	np_json_obj_close(j);
}

static const char *bytes_or(int64_t v, char *buf, size_t size)
{
	return v < 0 ? "?" : np_fmt_bytes((double)v, buf, size);
}

void np_render_sender_text(struct np_ob *out, const struct np_doctor_view *v, bool color)
{
	struct np_sender sd;
	char b1[32], b2[32], b3[32], b4[32];

	np_sender_build(v->a, v->kmods, &sd);
	np_ob_cat(out, color ? "\033[1m" : "", "Sender side", color ? "\033[0m" : "",
		  " (compare between hosts)\n  congestion control  ", sd.cc ? sd.cc : "?",
		  " (default), bbr ", NULL);
	np_ob_puts(out, sd.bbr);	/* not in the list: a NULL would end it */
	if (sd.cc_live_known) {
		np_ob_puts(out, "; in use:");
		for (size_t i = 0; i < sd.ncc_live; i++) {
			np_ob_puts(out, i ? ", " : " ");
			np_ob_puts(out, sd.cc_live[i].name);
			np_ob_putc(out, ' ');
			np_ob_u64(out, sd.cc_live[i].sockets);
		}
		if (!sd.ncc_live)
			np_ob_puts(out, " no established connections");
	}
	np_ob_cat(out, "\n  qdisc               default_qdisc ",
		  sd.default_qdisc ? sd.default_qdisc : "?", ", attached ", sd.qdisc ? sd.qdisc : "?",
		  "\n  buffers             rmem_max ", bytes_or(sd.rmem_max, b1, sizeof(b1)),
		  ", wmem_max ", bytes_or(sd.wmem_max, b2, sizeof(b2)), ", tcp_rmem max ",
		  bytes_or(sd.tcp_rmem_max, b3, sizeof(b3)), ", tcp_wmem max ",
		  bytes_or(sd.tcp_wmem_max, b4, sizeof(b4)), "\n  tcp_mtu_probing     ", NULL);
	if (sd.mtu_probing < 0)
		np_ob_putc(out, '?');
	else
		np_ob_i64(out, sd.mtu_probing);
	if (isnan(sd.bdp))
		np_ob_cat(out, "\n  BDP                 unknown (no ",
			  isnan(sd.bw_bps) ? "bandwidth" : "RTT: --rtt", ")\n\n", NULL);
	else
		np_ob_printf(out, "\n  BDP                 %s (%s × %g ms)\n\n",
			     np_fmt_bytes(sd.bdp, b1, sizeof(b1)),
			     np_fmt_bps(sd.bw_bps, b2, sizeof(b2)), sd.rtt_ms);
}

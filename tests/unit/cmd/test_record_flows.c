// SPDX-License-Identifier: GPL-2.0-only
/*
 * record --drops's top flows a minute, written as the recorder writes them
 * (np_record_flows_add) and read back as doctor --at and history read them
 * (np_rec_flows_read): the minutes a window touches summed by interface and flow, the top 10
 * kept, reasons and interfaces named, a minute the recording lacks not made up.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <string.h>

#include "../core/rec_store_fixture.h"
#include "record_drops.h"
#include "record_flows.h"

#define MIN0 1767225600LL	/* BASE_W in seconds: a minute's start */

static struct np_flow_key udp(int a, int port)
{
	struct np_flow_key k = { .reason = 6, .family = NP_FLOW_IPV4, .proto = 17 };

	k.src[0] = 198, k.src[1] = 18, k.src[2] = (uint8_t)a, k.src[3] = 1;
	k.dst[0] = 198, k.dst[1] = 18, k.dst[2] = (uint8_t)a, k.dst[3] = 2;
	k.sport = 40000;
	k.dport = (uint16_t)port;
	return k;
}

/* Seconds from..to (excluded) of one recorder run whose last ended minute's flows are d's. */
static void put_flows(struct np_rec_writer *w, int64_t from, int64_t to,
		      struct np_record_drops *d, uint64_t per_flow)
{
	struct np_named_counters nc;
	char err[256];

	np_named_counters_init(&nc);
	for (int64_t t = from; t < to; t++) {
		struct np_rec_sample s = { .mono_ns = BASE_M + t * SEC, .wall_ns = BASE_W + t * SEC };
		int64_t minute = (MIN0 + t) / 60 * 60 - 60;

		/* The minute before this second's, with per_flow drops a slot, less each rank;
		 * none until the run's first minute has ended (as the recorder). */
		memset(d, 0, sizeof(*d));
		if (minute >= (MIN0 + from) / 60 * 60) {
			d->top_minute = minute;
			d->top_from = minute;
			d->top_to = minute + 60;
			d->ntop = NP_RECORD_TOP_FLOWS;
		}
		for (size_t k = 0; k < d->ntop; k++) {
			d->top[k].key = udp(k == 0 ? 1 : 2, 9000 + (int)k);
			d->top[k].ifindex = k == 0 ? 7 : 5;
			d->top[k].drops = per_flow - k;
		}
		np_named_counters_reset(&nc);
		assert_int_equal(np_named_counters_add(&nc, 6, "reason/SOCKET_RCVBUFF"), 0);
		assert_int_equal(np_named_counters_add(&nc, 5, "traced/vb"), 0);
		assert_int_equal(np_named_counters_add(&nc, 7, "traced/vb2"), 0);
		assert_int_equal(np_record_flows_add(d, &nc), 0);
		s.v = nc.v;
		s.n = nc.n;
		s.names = nc.names;
		s.names_len = nc.names_len;
		assert_int_equal(np_rec_writer_append(w, &s, err, sizeof(err)), 0);
	}
	np_named_counters_free(&nc);
}

static void test_flows_read_back(void **state)
{
	struct np_rec_opts o = opts();
	struct np_rec_writer *w = wopen(&o);
	struct np_record_drops d;
	struct np_rec_flows f;

	(void)state;
	memset(&d, 0, sizeof(d));
	/* Minutes 0..4 recorded (their flows in the frames of minutes 1..5), then a restart
	 * after a gap: minute 6's flows were never stored. */
	put_flows(w, 60, 360, &d, 100);
	np_rec_writer_close(w);
	w = wopen(&o);
	put_flows(w, 450, 500, &d, 100);
	np_rec_writer_close(w);

	/* One minute: its ten flows, most first, named. */
	assert_int_equal(np_rec_flows_read(store, MIN0 + 120, MIN0 + 180, &f), 0);
	assert_true(f.recorded);
	assert_int_equal(f.minutes, 1);
	assert_true(f.from == MIN0 + 120 && f.to == MIN0 + 180);
	assert_int_equal(f.n, NP_REC_FLOWS_MAX);
	assert_string_equal(f.f[0].iface, "vb2");
	assert_string_equal(f.f[1].iface, "vb");
	assert_string_equal(f.f[0].reason, "SOCKET_RCVBUFF");
	assert_string_equal(f.f[0].flow, "198.18.1.1:40000 > 198.18.1.2:9000 udp");
	assert_string_equal(f.f[0].proto, "udp");
	assert_string_equal(f.f[1].src, "198.18.2.1");
	assert_int_equal(f.f[1].dport, 9001);
	assert_true(f.f[0].drops == 100 && f.f[9].drops == 91);
	/* A window within a minute touches that minute; three minutes are summed by flow. */
	assert_int_equal(np_rec_flows_read(store, MIN0 + 130, MIN0 + 135, &f), 0);
	assert_int_equal(f.minutes, 1);
	assert_int_equal(np_rec_flows_read(store, MIN0 + 60, MIN0 + 240, &f), 0);
	assert_int_equal(f.minutes, 3);
	assert_true(f.f[0].drops == 300);
	assert_true(f.from == MIN0 + 60 && f.to == MIN0 + 240);
	/* Minute 6 (its flows would be in minute 7's frames: a gap) and beyond the end. */
	assert_int_equal(np_rec_flows_read(store, MIN0 + 360, MIN0 + 420, &f), 0);
	assert_false(f.recorded);
	assert_int_equal(f.n, 0);
	assert_int_equal(np_rec_flows_read(store, MIN0 + 900, MIN0 + 960, &f), 0);
	assert_false(f.recorded);
}

/* A recording without --drops holds no flows: nothing is recorded, nothing made up. */
static void test_flows_none(void **state)
{
	struct np_rec_opts o = opts();
	struct np_rec_writer *w = wopen(&o);
	struct np_rec_flows f;

	(void)state;
	put(w, 0, 200);
	np_rec_writer_close(w);
	assert_int_equal(np_rec_flows_read(store, MIN0, MIN0 + 120, &f), 0);
	assert_false(f.recorded);
	assert_int_equal(f.n, 0);
	assert_true(np_rec_flows_read("/nonexistent/np-rec", MIN0, MIN0 + 60, &f) < 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_flows_read_back, setup, np_test_dir_teardown),
		cmocka_unit_test_setup_teardown(test_flows_none, setup, np_test_dir_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

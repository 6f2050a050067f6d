// SPDX-License-Identifier: GPL-2.0-only
/* trace --xdp output: the JSON member and the text lines from fixed counts (open_memstream). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "xdp_render.h"

static struct np_xdp_cell queues[] = {
	{ -1, 0, 1000, 142000 }, { -1, NP_XDP_QUEUE_OVERFLOW, 7, 980 },
};
static struct np_xdp_cell cpus[] = { { 1, -1, 1007, 142980 } };
static const struct np_xdp_counts counts = {
	.packets = 1007, .bytes = 142980, .nqueue = 2, .ncpu = 1,
	.per_queue = queues, .per_cpu = cpus,
};
static const struct np_xdp_info info = {
	.mode = NP_XDP_MODE_NATIVE, .program_id = 106, .driver = "veth",
	.notes = "native mode: \"quoted\"",
};

static char *render(bool json, int verbose)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct np_json j;

	assert_non_null(f);
	if (json) {
		np_json_init(&j, f, false);
		np_xdp_render_json(&j, &info, &counts, 2.0);
	} else {
		np_xdp_render_text(f, &info, &counts, 2.0, verbose);
	}
	fclose(f);
	return buf;
}

static void test_json(void **state)
{
	char *s = render(true, 0);

	(void)state;
	assert_string_equal(s,
		"{\"mode\":\"native\",\"program_id\":106,\"driver\":\"veth\","
		"\"acknowledged\":false,\"notes\":\"native mode: \\\"quoted\\\"\","
		"\"duration_s\":2,\"packets\":1007,\"bytes\":142980,\"per_second\":503.5,"
		"\"per_queue\":[{\"queue\":0,\"packets\":1000,\"bytes\":142000},"
		"{\"queue\":null,\"packets\":7,\"bytes\":980}],"
		"\"per_cpu\":[{\"cpu\":1,\"packets\":1007,\"bytes\":142980}]}");
	free(s);
}

static void test_text(void **state)
{
	char *s = render(false, 0);

	(void)state;
	assert_non_null(strstr(s, "XDP at the driver (native mode, program 106, driver veth): "
			       "1,007 packets, 142,980 bytes in 2.0 s"));
	assert_non_null(strstr(s, "rx queue 0 "));
	assert_non_null(strstr(s, "rx queue >= 256"));
	assert_null(strstr(s, "CPU 1"));
	assert_non_null(strstr(s, "Note: native mode"));
	free(s);
	s = render(false, 1);
	assert_non_null(strstr(s, "CPU 1 "));
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

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

#include "trace_model.h"
#include "trace_render.h"
#include "xdp_render.h"

static struct np_xdp_cell queues[] = {
	{ -1, 0, 1000, 142000 }, { -1, NP_XDP_QUEUE_OVERFLOW, 7, 980 },
};
static struct np_xdp_cell cpus[] = { { 1, -1, 1007, 142980 } };
static struct np_xdp_counts counts = {
	.packets = 1007, .bytes = 142980, .nqueue = 2, .ncpu = 1,
	.per_queue = queues, .per_cpu = cpus,
};
static const struct np_xdp_info info = {
	.mode = NP_XDP_MODE_NATIVE, .program_id = 106, .driver = "veth",
	.notes = "native mode: \"quoted\"",
};

/* Three sources (IPv4 and IPv6) on a map that was full: the top 2, the third and the
 * unkeyed frames in other, non-IP frames apart. 600 + 300 + 100 + 7 = 1007. */
static struct np_xdp_source top[] = {
	{ 4, { 198, 18, 0, 1 }, 600, 85200 },
	{ 6, { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 }, 300, 42000 },
};
static const struct np_xdp_sources sources = {
	.on = true, .cap = NP_XDP_MAX_SOURCES, .keys = NP_XDP_MAX_SOURCES, .n = 2, .top = top,
	.other = { 104, 15640 }, .unkeyed = { 4, 568 }, .non_ip = { 3, 140 },
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
		"\"per_cpu\":[{\"cpu\":1,\"packets\":1007,\"bytes\":142980}],"
		"\"sources\":null,\"sources_other\":null,\"sources_unkeyed\":null,"
		"\"sources_non_ip\":null,\"sources_map\":null}");
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

static void test_sources(void **state)
{
	char *s;

	(void)state;
	counts.sources = sources;
	s = render(true, 0);
	assert_non_null(strstr(s, "\"sources\":[{\"addr\":\"198.18.0.1\",\"packets\":600,"
			       "\"bytes\":85200},{\"addr\":\"2001:db8::1\",\"packets\":300,"
			       "\"bytes\":42000}],\"sources_other\":{\"packets\":104,"
			       "\"bytes\":15640},\"sources_unkeyed\":{\"packets\":4,\"bytes\":568},"
			       "\"sources_non_ip\":{\"packets\":3,\"bytes\":140},"
			       "\"sources_map\":{\"cap\":4096,\"keys\":4096}}"));
	free(s);
	s = render(false, 0);
	if (getenv("NP_SHOW"))
		fputs(s, stderr);
	assert_non_null(strstr(s, "Top 2 sources (a per-CPU map of 4096 keys, 4096 used):\n"));
	assert_non_null(strstr(s, "    198.18.0.1  "));
	assert_non_null(strstr(s, "    2001:db8::1  "));
	/* In order, busiest first, then the rest. */
	assert_true(strstr(s, "198.18.0.1") < strstr(s, "2001:db8::1"));
	assert_true(strstr(s, "2001:db8::1") < strstr(s, "(other sources)"));
	assert_non_null(strstr(s, "(not IPv4/IPv6)"));
	assert_non_null(strstr(s, "(4 packets not keyed: the per-source map was full at 4096"));
	free(s);
	memset(&counts.sources, 0, sizeof(counts.sources));
	s = render(false, 0);
	assert_null(strstr(s, "sources"));
	free(s);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	if (buf)
		buf[n] = '\0';
	fclose(f);
	return buf;
}

/*
 * A whole trace document with the XDP section and its sources, compared with the golden
 * tests/fixtures/trace/xdp-sources.json, which tests/docs/schemas.sh validates against
 * doc/netpath-trace.schema.json (NP_UPDATE_FIXTURES=1 rewrites it). The version string is
 * replaced so that the fixture does not change with every release.
 */
static void test_trace_document(void **state)
{
	const char *golden = NP_FIXTURES "/trace/xdp-sources.json";
	struct np_trace_raw raw = { .ncpu = 2, .has_reason = true, .attach = "tp_btf",
				    .flows_on = true, .flow_cap = NP_BPF_MAX_FLOWS };
	struct np_trace_summary sum;
	struct np_trace_view v = { .ifname = "va", .netns_inum = 4026532386u,
				   .attach = "tp_btf", .has_reason = true, .raw = &raw,
				   .xdp = &info, .xdp_counts = &counts };
	char *buf = NULL, *want, *ver, *end;
	size_t len = 0;
	FILE *f;

	(void)state;
	counts.sources = sources;
	assert_int_equal(np_trace_summarize(&raw, NULL, NULL, 2.0, false, &sum), 0);
	assert_int_equal(np_trace_attribute(&sum, &raw, 5), 0);
	v.sum = &sum;
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	np_render_trace_json(f, &v);
	fclose(f);
	ver = strstr(buf, "\"netpath_version\": \"");
	assert_non_null(ver);
	ver += strlen("\"netpath_version\": \"");
	end = strchr(ver, '"');
	assert_non_null(end);
	memmove(ver + 1, end, strlen(end) + 1);
	ver[0] = 'X';
	if (getenv("NP_UPDATE_FIXTURES")) {
		f = fopen(golden, "w");
		assert_non_null(f);
		fputs(buf, f);
		fclose(f);
	}
	want = slurp(golden);
	assert_non_null(want);
	assert_string_equal(buf, want);
	free(want);
	free(buf);
	np_trace_summary_free(&sum);
	memset(&counts.sources, 0, sizeof(counts.sources));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_sources),
		cmocka_unit_test(test_trace_document),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

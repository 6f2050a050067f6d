// SPDX-License-Identifier: GPL-2.0-only
/*
 * Bytes from files end up in reports: JSON stays valid UTF-8 whatever a driver or a --root tree
 * holds (invalid bytes become U+FFFD), and short values and IRQ names carry no control bytes
 * (a hostile tree's ESC sequences would otherwise reach the terminal, and remedies quote IRQ
 * names). Regression tests for what a garbage --root tree showed.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ctx.h"
#include "json_writer.h"
#include "parse.h"

static char *json_of(const char *s)
{
	struct np_json j;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	np_json_init(&j, f, false);
	np_json_str(&j, s);
	fclose(f);
	return text;
}

static void test_json_utf8(void **state)
{
	static const struct { const char *in, *out; } cases[] = {
		{ "eth0", "\"eth0\"" },
		{ "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
		  "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"" },
		{ "a\x88" "b", "\"a\\ufffdb\"" },			/* lone continuation byte */
		{ "\xc3", "\"\\ufffd\"" },				/* truncated sequence */
		{ "\xc0\xaf", "\"\\ufffd\\ufffd\"" },			/* overlong '/' */
		{ "\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"" },	/* UTF-16 surrogate */
		{ "\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"" },	/* past U+10FFFF */
		{ "\xff\xfe", "\"\\ufffd\\ufffd\"" },
		{ "\x1b[2J\x7f", "\"\\u001b[2J\\u007f\"" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = json_of(cases[i].in);

		assert_string_equal(got, cases[i].out);
		free(got);
	}
}

static void test_read_str_control_bytes(void **state)
{
	char dir[] = "/tmp/np-defang.XXXXXX", path[128], buf[64];
	struct np_ctx ctx;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/proc", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/proc/osrelease", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fwrite("6.1\x1b[31m\tx\0y\n", 1, 13, f);
	fclose(f);
	assert_int_equal(np_ctx_open(&ctx, dir), 0);
	assert_true(np_read_str(&ctx, NP_PROC, "osrelease", buf, sizeof(buf)) > 0);
	/* ESC and the NUL are gone (the NUL used to cut the value short); the tab stays. */
	assert_string_equal(buf, "6.1?[31m\tx?y");
	np_ctx_close(&ctx);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	assert_int_equal(system(path), 0);
}

static void test_irq_name_control_bytes(void **state)
{
	static const char text[] =
		"           CPU0       CPU1\n"
		" 38:          0        567 PCI-MSIX-0000:00:03.0   1-edge      "
		"eth0-\x1b]0;pwned\x07-rx\n";
	static const char *const names[] = { "eth0-" };
	struct np_irq_filter f = { .names = names, .nnames = 1 };
	struct np_interrupts it;
	char *buf = malloc(sizeof(text) - 1);

	(void)state;
	assert_non_null(buf);
	memcpy(buf, text, sizeof(text) - 1);
	assert_int_equal(np_parse_interrupts(buf, sizeof(text) - 1, &f, &it), 0);
	assert_int_equal(it.n, 1);
	assert_string_equal(it.lines[0].name, "eth0-?]0;pwned?-rx");
	free(it.lines[0].count);
	free(it.lines);
	free(it.col_cpu);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_utf8),
		cmocka_unit_test(test_read_str_control_bytes),
		cmocka_unit_test(test_irq_name_control_bytes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

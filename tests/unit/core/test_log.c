// SPDX-License-Identifier: GPL-2.0-only
/* np_sanitize(): what a message may quote from files, captures and arguments reaches the
 * terminal as text, never as a control sequence; and np_log()/np_say() apply it. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "log.h"

static void control_bytes_are_escaped(void **state)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "plain text, 10 Gb/s", "plain text, 10 Gb/s" },
		{ "\033]0;evil\007", "\\x1b]0;evil\\x07" },		/* xterm title */
		{ "\033[2J", "\\x1b[2J" },				/* clear screen */
		{ "a\nb\rc\td", "a\\x0ab\\x0dc\\x09d" },		/* one line, always */
		{ "\x7f\x01", "\\x7f\\x01" },
		{ "j\xc3\xbcrgen \xe2\x89\xa5 \xf0\x9f\x93\xa6", "j\xc3\xbcrgen \xe2\x89\xa5 \xf0\x9f\x93\xa6" },
		{ "\xc2\x9b" "31m", "\\xc2\\x9b31m" },			/* CSI as UTF-8 (U+009B) */
		{ "\x9b" "31m", "\\x9b31m" },				/* raw 8-bit CSI */
		{ "\xff\xfe", "\\xff\\xfe" },				/* not UTF-8 */
		{ "\xc0\xaf", "\\xc0\\xaf" },				/* overlong '/' */
		{ "\xed\xa0\x80", "\\xed\\xa0\\x80" },			/* a surrogate */
		{ "\xe2\x89", "\\xe2\\x89" },				/* cut short */
		{ "\xe2\x89\033", "\\xe2\\x89\\x1b" },
		{ "", "" },
	};
	char out[128];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_string_equal(np_sanitize(cases[i].in, out, sizeof(out)), cases[i].out);
	assert_string_equal(np_sanitize(NULL, out, sizeof(out)), "");
}

/* A short buffer cuts between characters and escapes, never inside one. */
static void cut_whole(void **state)
{
	char out[7];

	(void)state;
	assert_string_equal(np_sanitize("\033\033", out, sizeof(out)), "\\x1b");
	assert_string_equal(np_sanitize("ab\033", out, sizeof(out)), "ab\\x1b");
	assert_string_equal(np_sanitize("abcd\xe2\x89\xa5", out, sizeof(out)), "abcd");
	assert_string_equal(np_sanitize("abc\xe2\x89\xa5", out, sizeof(out)), "abc\xe2\x89\xa5");
	/* The documented worst case fits. */
	{
		char big[NP_SANITIZED_SIZE(3)];

		assert_string_equal(np_sanitize("\001\002\003", big, sizeof(big)),
				    "\\x01\\x02\\x03");
	}
}

/* What np_err()/np_say() write, read back from stderr. */
static char *stderr_of(void (*fn)(void))
{
	char path[] = "/tmp/np-log-XXXXXX";
	int fd = mkstemp(path), saved = dup(STDERR_FILENO);
	static char buf[512];
	ssize_t n;

	assert_true(fd >= 0 && saved >= 0);
	fflush(stderr);
	assert_int_equal(dup2(fd, STDERR_FILENO), STDERR_FILENO);
	fn();
	fflush(stderr);
	assert_int_equal(dup2(saved, STDERR_FILENO), STDERR_FILENO);
	close(saved);
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	assert_true(n >= 0);
	buf[n] = '\0';
	close(fd);
	unlink(path);
	return buf;
}

static void log_hostile(void)
{
	np_err("cannot read %s", "/cap/sys/class/net/\033]0;evil\007/mtu");
}

static void say_hostile(void)
{
	np_say("netpath doctor: interface '%s' is gone", "eth\0330");
}

static void log_and_say_sanitize(void **state)
{
	(void)state;
	assert_string_equal(stderr_of(log_hostile),
			    "netpath: cannot read /cap/sys/class/net/\\x1b]0;evil\\x07/mtu\n");
	assert_string_equal(stderr_of(say_hostile),
			    "netpath doctor: interface 'eth\\x1b0' is gone\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(control_bytes_are_escaped),
		cmocka_unit_test(cut_whole),
		cmocka_unit_test(log_and_say_sanitize),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

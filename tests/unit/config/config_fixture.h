/* SPDX-License-Identifier: GPL-2.0-only */
/* The config tests' fixture: checks looked up by id, counts of checks by stage and pattern,
 * text parsed as a config file, files written for the loader. Include after cmocka.h. */
#ifndef NP_TEST_CONFIG_FIXTURE_H
#define NP_TEST_CONFIG_FIXTURE_H

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "doctor_config.h"

#define assert_contains(hay, needle) do { \
	if (!strstr((hay), (needle))) \
		fail_msg("'%s' does not contain '%s'", (hay), (needle)); \
} while (0)

static inline const struct np_check *chk(const char *id)
{
	const struct np_check *c = np_check_find(id);

	if (!c)
		fail_msg("no check %s in the table", id);
	return c;
}

static inline size_t stage_count(enum np_stage st)
{
	size_t n, k = 0;
	const struct np_check *const *t = np_check_table(&n);

	for (size_t i = 0; i < n; i++)
		k += t[i]->stage == st;
	return k;
}

static inline void write_text(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
	/* Whatever the umask: a group-writable file would be refused (test_load_trust). */
	assert_int_equal(chmod(path, 0644), 0);
}

static inline void write_file(const char *path, const char *text)
{
	write_text(path, text, strlen(text));
}

#endif

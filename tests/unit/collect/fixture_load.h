/* SPDX-License-Identifier: GPL-2.0-only */
/* Collector tests over recorded kernel replies: tests/fixtures/DIR/NAME, read whole. */
#ifndef NP_TEST_FIXTURE_LOAD_H
#define NP_TEST_FIXTURE_LOAD_H

#include <stdio.h>
#include <stdlib.h>

/* The file in an exact-size heap buffer, so over-reads trip ASan; *len its size. */
static unsigned char *fixture_load(const char *dir, const char *name, size_t *len)
{
	char path[1024];
	unsigned char *buf;
	FILE *f;
	long n;

	snprintf(path, sizeof(path), "%s/%s/%s", NP_FIXTURES, dir, name);
	f = fopen(path, "rb");
	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n > 0);
	rewind(f);
	buf = malloc((size_t)n);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

#endif

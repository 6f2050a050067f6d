/* SPDX-License-Identifier: GPL-2.0-only */
/* Collector tests over temporary --root trees: write ROOT/REL, creating its directories. */
#ifndef NP_TEST_TREE_PUT_H
#define NP_TEST_TREE_PUT_H

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static void tree_put(const char *root, const char *rel, const char *text)
{
	char path[512], *p;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		assert_true(mkdir(path, 0755) == 0 || errno == EEXIST);
		*p = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

#endif

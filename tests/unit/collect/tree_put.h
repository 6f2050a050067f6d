/* SPDX-License-Identifier: GPL-2.0-only */
/* Collector tests over temporary --root trees: a scratch tree made and removed, ROOT/REL
 * written with its directories. */
#ifndef NP_TEST_TREE_PUT_H
#define NP_TEST_TREE_PUT_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
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

/* A scratch tree: mkdtemp of tmpl ("/tmp/np-NAME-XXXXXX"), malloc'd; NULL on failure. */
static inline char *tree_new(const char *tmpl)
{
	char *root = malloc(64);

	if (!root)
		return NULL;
	snprintf(root, 64, "%s", tmpl);
	if (!mkdtemp(root)) {
		free(root);
		return NULL;
	}
	return root;
}

/* Removes the tree and frees root: 0, or -1 when rm failed. */
static inline int tree_free(char *root)
{
	char cmd[128];
	int r;

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	r = system(cmd);
	free(root);
	return r == 0 ? 0 : -1;
}

#endif

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Replays inputs through a fuzz target without libFuzzer, so the inputs that once crashed a
 * parser (tests/fuzz/regressions/<target>/) run in the ordinary unit suite, under gcc and the
 * ASan build too. Arguments: files or directories of inputs. Exit 0 when every input ran; a
 * broken invariant or a sanitizer report aborts the process and fails the test.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	long n;

	if (!f) {
		perror(path);
		return -1;
	}
	if (fseek(f, 0, SEEK_END) < 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) < 0) {
		fclose(f);
		return -1;
	}
	/* Exact size, as libFuzzer hands it: a read one byte past the input is caught. */
	buf = malloc(n ? (size_t)n : 1);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		fclose(f);
		return -1;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, (size_t)n);
	free(buf);
	printf("ok %s (%ld bytes)\n", path, n);
	return 0;
}

static int run_path(const char *path, unsigned *count)
{
	struct dirent **names;
	struct stat st;
	int n, err = 0;

	if (stat(path, &st) < 0) {
		perror(path);
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		(*count)++;
		return run_file(path);
	}
	n = scandir(path, &names, NULL, alphasort);
	if (n < 0) {
		perror(path);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		char sub[4096];

		if (names[i]->d_name[0] != '.') {
			snprintf(sub, sizeof(sub), "%s/%s", path, names[i]->d_name);
			if (run_path(sub, count) < 0)
				err = -1;
		}
		free(names[i]);
	}
	free(names);
	return err;
}

int main(int argc, char **argv)
{
	unsigned count = 0;
	int err = 0;

	for (int i = 1; i < argc; i++)
		if (run_path(argv[i], &count) < 0)
			err = 1;
	printf("%u inputs\n", count);
	return err;
}

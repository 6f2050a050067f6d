// SPDX-License-Identifier: GPL-2.0-only
/* Build-time man page generator: expands @CHECKS@ in a troff template from the check table, so
 * the catalogue in the man page cannot drift from the code. Usage: mangen TEMPLATE OUTPUT */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

/* Escape for troff: backslashes, and a leading '.' or '\'' that would read as a request. */
static void roff(FILE *out, const char *s)
{
	if (!s)
		return;
	if (*s == '.' || *s == '\'')
		fputs("\\&", out);
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\e", out);
		else if (*s == '\n')
			fputs("\n.br\n", out);
		else
			fputc(*s, out);
	}
}

static void section(FILE *out, const char *head, const char *text)
{
	if (!text || !*text)
		return;
	fprintf(out, ".RS\n.TP\n.B %s\n", head);
	roff(out, text);
	fputs("\n.RE\n", out);
}

static void checks(FILE *out)
{
	size_t n;
	const struct np_check *const *t = np_check_table(&n);
	int stage = -1;

	for (size_t i = 0; i < n; i++) {
		const struct np_check *c = t[i];

		if ((int)c->stage != stage) {
			stage = (int)c->stage;
			fprintf(out, ".SS Stage: %s\n", np_stage_name(c->stage));
		}
		fprintf(out, ".TP\n.B %s\n", c->id);
		roff(out, c->title);
		fputs("\n", out);
		section(out, "Looks at", c->looks_at);
		section(out, "Why", c->why);
		section(out, "Fix", c->fix);
		section(out, "Related", c->related);
		section(out, "Kernel", c->kernel_notes);
		if (!isnan(c->warn) || !isnan(c->crit)) {
			fputs(".RS\n.TP\n.B Thresholds\n", out);
			if (!isnan(c->warn))
				fprintf(out, "warning %g ", c->warn);
			if (!isnan(c->crit))
				fprintf(out, "critical %g ", c->crit);
			roff(out, c->thr_unit);
			fputs("\n.RE\n", out);
		}
	}
}

int main(int argc, char **argv)
{
	char line[4096];
	FILE *in, *out;

	if (argc != 3) {
		fputs("usage: mangen TEMPLATE OUTPUT\n", stderr);
		return 2;
	}
	in = fopen(argv[1], "r");
	out = fopen(argv[2], "w");
	if (!in || !out) {
		perror("mangen");
		return 1;
	}
	while (fgets(line, sizeof(line), in)) {
		if (strcmp(line, "@CHECKS@\n") == 0)
			checks(out);
		else
			fputs(line, out);
	}
	fclose(in);
	return fclose(out) == 0 ? 0 : 1;
}

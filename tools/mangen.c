// SPDX-License-Identifier: GPL-2.0-only
/* Build-time man page generator: expands @CHECKS@ in a troff template from the check table, so
 * the catalogue in the man page cannot drift from the code. Usage: mangen TEMPLATE OUTPUT */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

#define WRAP 78

/* Text lines of at most WRAP columns (mandoc -Tlint asks for 80), broken at spaces. */
static void wrapped(FILE *out, const char *s, size_t len)
{
	while (len > WRAP) {
		size_t cut = WRAP;

		while (cut > 0 && s[cut] != ' ')
			cut--;
		if (cut == 0)
			break;
		fwrite(s, 1, cut, out);
		fputc('\n', out);
		s += cut + 1;
		len -= cut + 1;
	}
	fwrite(s, 1, len, out);
	fputc('\n', out);
}

/* The non-ASCII characters the check texts use, as troff glyph names. */
static const struct {
	const char *utf8, *glyph;
} glyphs[] = {
	{ "\u00d7", "\\(mu" }, { "\u2248", "\\(~~" }, { "\u2265", "\\(>=" },
	{ "\u2264", "\\(<=" }, { "\u2212", "\\-" }, { "\u2014", "\\(em" },
	{ "\u2013", "\\(en" }, { "\u00b5", "\\(mc" }, { "\u2192", "\\(->" },
	{ "\u2026", "..." }, { "\u2018", "\\(oq" }, { "\u2019", "\\(cq" },
	{ "\u201c", "\\(lq" }, { "\u201d", "\\(rq" }, { "\u00b1", "\\(+-" },
};

/* Escape for troff (backslashes; a leading '.' or '\'' would read as a request), wrap lines,
 * and turn the table's newlines into line breaks. */
static void roff(FILE *out, const char *s)
{
	char buf[8192];
	size_t n = 0;

	if (!s)
		return;
	for (;; s++) {
		if (*s == '\n' || *s == '\0' || n + 4 >= sizeof(buf)) {
			wrapped(out, buf, n);
			n = 0;
			if (*s == '\0')
				break;
			if (*s == '\n')
				fputs(".br\n", out);
			continue;
		}
		if (n == 0 && (*s == '.' || *s == '\''))
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "\\&");
		if (n == 0 && *s == ' ')
			continue;
		if (*s == '\\') {
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "\\e");
			continue;
		}
		if ((unsigned char)*s >= 0x80) {
			size_t g;

			for (g = 0; g < sizeof(glyphs) / sizeof(glyphs[0]); g++) {
				size_t l = strlen(glyphs[g].utf8);

				if (strncmp(s, glyphs[g].utf8, l) == 0) {
					n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s",
							      glyphs[g].glyph);
					s += l - 1;
					break;
				}
			}
			if (g < sizeof(glyphs) / sizeof(glyphs[0]))
				continue;
		}
		buf[n++] = *s;
	}
}

static void section(FILE *out, const char *head, const char *text)
{
	if (!text || !*text)
		return;
	fprintf(out, ".RS\n.TP\n.B %s\n", head);
	roff(out, text);
	fputs(".RE\n", out);
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
		section(out, "Looks at", c->looks_at);
		section(out, "Why", c->why);
		section(out, "Fix", c->fix);
		section(out, "Related", c->related);
		section(out, "Kernel", c->kernel_notes);
		if (!isnan(c->warn) || !isnan(c->crit)) {
			fputs(".RS\n.TP\n.B Thresholds\n", out);
			char thr[256];
			int n = 0;

			if (!isnan(c->warn))
				n += snprintf(thr + n, sizeof(thr) - (size_t)n, "warning %g ", c->warn);
			if (!isnan(c->crit))
				n += snprintf(thr + n, sizeof(thr) - (size_t)n, "critical %g ", c->crit);
			snprintf(thr + n, sizeof(thr) - (size_t)n, "%s", c->thr_unit ? c->thr_unit : "");
			roff(out, thr);
			fputs(".RE\n", out);
		}
	}
}

int main(int argc, char **argv)
{
	char line[4096];
	bool nofill = false;
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
		size_t len = strlen(line);

		/* Never re-wrap a no-fill block: its line breaks are the point. */
		if (strncmp(line, ".nf", 3) == 0)
			nofill = true;
		else if (strncmp(line, ".fi", 3) == 0)
			nofill = false;
		if (strcmp(line, "@CHECKS@\n") == 0)
			checks(out);
		else if (!nofill && line[0] != '.' && len > WRAP + 1)
			wrapped(out, line, len - (line[len - 1] == '\n'));
		else
			fputs(line, out);
	}
	fclose(in);
	return fclose(out) == 0 ? 0 : 1;
}

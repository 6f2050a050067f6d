// SPDX-License-Identifier: GPL-2.0-only
/* mangen --bash: the bash completion from the check table and the commands' own --help. */
#include <errno.h>
#include <math.h>
#include <regex.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "mangen.h"

#define MAX_CMDS 16
#define MAX_OPTS 48
#define MAX_HELP (256 * 1024)

struct opt {
	char shrt[4];		/* "-i", or "" */
	char lng[40];		/* "--interval", or "" */
	char meta[48];		/* "SEC"; "" for a flag */
	char desc[512];		/* the help text, continuation lines joined */
};

struct cmd {
	char name[32];
#define MAX_OPERANDS 4
	/* In order: "IFACE"; "CHECK-ID"; "BEFORE", "AFTER", "IFACE" */
	char operand[MAX_OPERANDS][32];
	size_t noperands;
	struct opt opts[MAX_OPTS];
	size_t nopts;
};

struct spec {
	struct cmd cmds[MAX_CMDS];
	size_t ncmds;
};

/* Run netpath with args; its stdout and stderr, NUL-terminated, in a malloc'd buffer. The
 * exit status goes to *status. NULL on failure (message printed). */
static char *run(const char *netpath, const char *arg1, const char *arg2, int *status)
{
	char *argv[] = { (char *)netpath, (char *)arg1, (char *)arg2, NULL };
	size_t len = 0;
	char *buf;
	int fd[2];
	pid_t pid;

	if (pipe(fd) < 0) {
		perror("mangen: pipe");
		return NULL;
	}
	pid = fork();
	if (pid < 0) {
		perror("mangen: fork");
		close(fd[0]);
		close(fd[1]);
		return NULL;
	}
	if (pid == 0) {
		dup2(fd[1], STDOUT_FILENO);
		dup2(fd[1], STDERR_FILENO);
		close(fd[0]);
		close(fd[1]);
		execv(netpath, argv);
		_exit(127);
	}
	close(fd[1]);
	buf = malloc(MAX_HELP + 1);
	while (buf && len < MAX_HELP) {
		ssize_t r = read(fd[0], buf + len, MAX_HELP - len);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		len += (size_t)r;
	}
	close(fd[0]);
	while (waitpid(pid, status, 0) < 0 && errno == EINTR)
		;
	if (!buf) {
		fputs("mangen: out of memory\n", stderr);
		return NULL;
	}
	buf[len] = '\0';
	return buf;
}

static void copy(char *dst, size_t size, const char *src, size_t len)
{
	if (len >= size)
		len = size - 1;
	memcpy(dst, src, len);
	dst[len] = '\0';
}

static struct opt *find_opt(struct cmd *c, const char *name)
{
	for (size_t i = 0; i < c->nopts; i++)
		if (strcmp(c->opts[i].shrt, name) == 0 || strcmp(c->opts[i].lng, name) == 0)
			return &c->opts[i];
	return NULL;
}

static struct opt *add_opt(struct cmd *c)
{
	if (c->nopts == MAX_OPTS) {
		fprintf(stderr, "mangen: more than %d options for %s\n", MAX_OPTS, c->name);
		return NULL;
	}
	return memset(&c->opts[c->nopts++], 0, sizeof(struct opt));
}

/* "Usage: netpath explain [--json] CHECK-ID": bracketed options and the operands. */
static int parse_usage(struct cmd *c, char *line)
{
	char *save = NULL, *tok;
	int word = 0;

	for (tok = strtok_r(line, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		size_t len = strlen(tok);
		struct opt *o;

		if (word++ < 3 || strcmp(tok, "[OPTIONS]") == 0)
			continue;	/* "Usage:", "netpath", the command */
		if (tok[0] == '[' && tok[1] == '-') {
			tok++;
			len = strcspn(tok, "]|");
			tok[len] = '\0';
			if (find_opt(c, tok))
				continue;
			o = add_opt(c);
			if (!o)
				return -1;
			if (tok[1] == '-')
				copy(o->lng, sizeof(o->lng), tok, len);
			else
				copy(o->shrt, sizeof(o->shrt), tok, len);
			continue;
		}
		if (c->noperands < MAX_OPERANDS) {
			tok += tok[0] == '[';
			copy(c->operand[c->noperands], sizeof(c->operand[0]), tok, strcspn(tok, "]"));
			c->noperands++;
		}
	}
	return 0;
}

/* "  -i, --interval SEC     text" or "      --json             text". */
static int parse_opt_line(struct cmd *c, const char *p, struct opt **last)
{
	struct opt *o = add_opt(c);
	size_t n;

	if (!o)
		return -1;
	if (p[0] == '-' && p[1] != '-') {
		copy(o->shrt, sizeof(o->shrt), p, 2);
		p += 2;
		if (strncmp(p, ", ", 2) == 0)
			p += 2;
	}
	if (p[0] == '-' && p[1] == '-') {
		n = strspn(p + 2, "abcdefghijklmnopqrstuvwxyz0123456789-") + 2;
		copy(o->lng, sizeof(o->lng), p, n);
		p += n;
	}
	/* One blank (or '=') then a word: the metavar; two blanks start the description. */
	if ((p[0] == ' ' || p[0] == '=') && p[1] && p[1] != ' ') {
		n = strcspn(p + 1, " ");
		copy(o->meta, sizeof(o->meta), p + 1, n);
		p += 1 + n;
	}
	p += strspn(p, " ");
	copy(o->desc, sizeof(o->desc), p, strlen(p));
	*last = o;
	return 0;
}

static int parse_cmd_help(struct cmd *c, char *help)
{
	struct opt *last = NULL;
	char *save = NULL;

	for (char *line = strtok_r(help, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		size_t ind = strspn(line, " ");

		if (strncmp(line, "Usage:", 6) == 0) {
			if (parse_usage(c, line) < 0)
				return -1;
			last = NULL;
		} else if (ind >= 2 && ind <= 8 && line[ind] == '-' && line[ind + 1] != ' ') {
			if (parse_opt_line(c, line + ind, &last) < 0)
				return -1;
		} else if (last && ind > 8 && line[ind]) {
			size_t len = strlen(last->desc);

			snprintf(last->desc + len, sizeof(last->desc) - len, " %s", line + ind);
		} else {
			last = NULL;
		}
	}
	return 0;
}

/* The commands from `netpath --help` ("Commands:" then "  name  text" lines), and for each
 * its options from `netpath NAME --help`. */
static int read_spec(const char *netpath, struct spec *s)
{
	char *save = NULL, *help;
	bool in_list = false;
	int status, ret = 0;

	help = run(netpath, "--help", NULL, &status);
	if (!help)
		return -1;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "mangen: '%s --help' failed:\n%s", netpath, help);
		free(help);
		return -1;
	}
	for (char *line = strtok_r(help, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (strcmp(line, "Commands:") == 0) {
			in_list = true;
			continue;
		}
		if (!in_list || strncmp(line, "  ", 2) != 0 || line[2] == ' ') {
			in_list = in_list && strncmp(line, "  ", 2) == 0;
			continue;
		}
		if (s->ncmds == MAX_CMDS)
			break;
		copy(s->cmds[s->ncmds++].name, sizeof(s->cmds[0].name), line + 2,
		     strcspn(line + 2, " "));
	}
	free(help);
	for (size_t i = 0; i < s->ncmds && ret == 0; i++) {
		help = run(netpath, s->cmds[i].name, "--help", &status);
		if (!help)
			return -1;
		if (!strstr(help, "Usage:")) {
			fprintf(stderr, "mangen: no usage in 'netpath %s --help':\n%s",
				s->cmds[i].name, help);
			ret = -1;
		} else {
			ret = parse_cmd_help(&s->cmds[i], help);
		}
		free(help);
	}
	if (ret == 0 && s->ncmds == 0) {
		fputs("mangen: no commands in 'netpath --help'\n", stderr);
		ret = -1;
	}
	return ret;
}

/* The first "a, b or c" list in text (how the help names an option's choices), as "a b c". */
static bool choices(const char *text, char *out, size_t size)
{
	static const char *re = "(^|[^a-z0-9-])([a-z][a-z0-9-]*(, [a-z][a-z0-9-]*)*,? or "
				"[a-z][a-z0-9-]*)";
	regmatch_t m[3];
	regex_t rx;
	size_t n = 0;
	bool ok;

	if (regcomp(&rx, re, REG_EXTENDED) != 0)
		return false;
	ok = regexec(&rx, text, 3, m, 0) == 0;
	regfree(&rx);
	if (!ok)
		return false;
	for (regoff_t i = m[2].rm_so; i < m[2].rm_eo && n + 1 < size; i++) {
		if (text[i] == ',')
			continue;
		if (strncmp(text + i, " or ", 4) == 0) {
			out[n++] = ' ';
			i += 3;
			continue;
		}
		out[n++] = text[i];
	}
	out[n] = '\0';
	return true;
}

/* What completes an option argument or operand named meta (see the template). */
static const char *kind(const char *meta, const char *desc, char *buf, size_t size)
{
	static const struct {
		const char *meta, *kind;
	} known[] = {
		{ "FILE", "file" }, { "DIR", "dir" }, { "NS", "netns" }, { "IFACE", "iface" },
		{ "CHECK-ID", "check" }, { "SEC", "none" }, { "MS", "none" },
		{ "RATE", "none" }, { "N", "none" },
		/* netpath diff's sides: a captured tree (or a capture file) */
		{ "BEFORE", "file" }, { "AFTER", "file" },
	};

	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (strcmp(meta, known[i].meta) == 0)
			return known[i].kind;
	if (strncmp(meta, "ID:", 3) == 0)
		return "threshold";
	if (strncmp(meta, "ID,", 3) == 0)
		return "idlist";
	if (desc && snprintf(buf, size, "words ") > 0 && choices(desc, buf + 6, size - 6))
		return buf;
	return "none";
}

/* Everything written into the script must be a plain word: no quoting, no expansion. */
static bool plain(const char *s)
{
	return strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._:,=/+- ")
	       == strlen(s);
}

static int block(FILE *out, const char *name, const struct spec *s)
{
	size_t n;
	const struct np_check *const *t = np_check_table(&n);
	char buf[600];

	if (strcmp(name, "OPTIONS") == 0) {
		for (size_t i = 0; i < s->ncmds; i++) {
			const struct cmd *c = &s->cmds[i];

			fprintf(out, "\t%s)\n\t\techo '", c->name);
			for (size_t j = 0; j < c->nopts; j++)
				fprintf(out, "%s%s%s%s", j ? " " : "", c->opts[j].shrt,
					c->opts[j].shrt[0] && c->opts[j].lng[0] ? " " : "",
					c->opts[j].lng);
			fprintf(out, "' ;;\n");
		}
	} else if (strcmp(name, "OPTARGS") == 0) {
		for (size_t i = 0; i < s->ncmds; i++) {
			for (size_t j = 0; j < s->cmds[i].nopts; j++) {
				const struct opt *o = &s->cmds[i].opts[j];
				const char *k;

				if (!o->meta[0])
					continue;
				k = kind(o->meta, o->desc, buf, sizeof(buf));
				if (!plain(k)) {
					fprintf(stderr, "mangen: odd choices for %s\n", o->lng);
					return -1;
				}
				fprintf(out, "\t");
				if (o->shrt[0])
					fprintf(out, "%s:%s%s", s->cmds[i].name, o->shrt,
						o->lng[0] ? " | " : "");
				if (o->lng[0])
					fprintf(out, "%s:%s", s->cmds[i].name, o->lng);
				fprintf(out, ")\n\t\techo '%s' ;;\n", k);
			}
		}
	} else if (strcmp(name, "OPERANDS") == 0) {
		for (size_t i = 0; i < s->ncmds; i++)
			for (size_t k = 0; k < s->cmds[i].noperands; k++)
				fprintf(out, "\t%s:%zu)\n\t\techo '%s' ;;\n", s->cmds[i].name, k,
					kind(s->cmds[i].operand[k], NULL, buf, sizeof(buf)));
	} else if (strcmp(name, "LEVELS") == 0) {
		for (size_t i = 0; i < n; i++) {
			if (isnan(t[i]->warn) && isnan(t[i]->crit))
				continue;
			fprintf(out, "\t%s)\n\t\techo '%s%s%s' ;;\n", t[i]->id,
				isnan(t[i]->warn) ? "" : "warn",
				!isnan(t[i]->warn) && !isnan(t[i]->crit) ? " " : "",
				isnan(t[i]->crit) ? "" : "crit");
		}
	} else {
		return 1;	/* not a block */
	}
	return 0;
}

static int word_list(FILE *out, const char *name, const struct spec *s)
{
	size_t n;
	const struct np_check *const *t = np_check_table(&n);
	const char *sep = "";

	if (strcmp(name, "COMMANDS") == 0) {
		for (size_t i = 0; i < s->ncmds; i++, sep = " ")
			fprintf(out, "%s%s", sep, s->cmds[i].name);
	} else if (strcmp(name, "CHECK_IDS") == 0) {
		for (size_t i = 0; i < n; i++, sep = " ")
			fprintf(out, "%s%s", sep, t[i]->id);
	} else if (strcmp(name, "THRESHOLD_IDS") == 0) {
		for (size_t i = 0; i < n; i++) {
			if (isnan(t[i]->warn) && isnan(t[i]->crit))
				continue;
			fprintf(out, "%s%s", sep, t[i]->id);
			sep = " ";
		}
	} else if (strcmp(name, "STAGES") == 0) {
		for (int i = 0; i < NP_STAGE__COUNT; i++, sep = " ")
			fprintf(out, "%s%s", sep, np_stage_name((enum np_stage)i));
	} else {
		return -1;
	}
	return 0;
}

/* Refuse names that would need quoting in the script: they come from --help and the table. */
static int check_spec(const struct spec *s)
{
	size_t n;
	const struct np_check *const *t = np_check_table(&n);

	for (size_t i = 0; i < n; i++)
		if (!plain(t[i]->id) || strchr(t[i]->id, ' '))
			goto bad;
	for (size_t i = 0; i < s->ncmds; i++) {
		if (!plain(s->cmds[i].name))
			goto bad;
		for (size_t k = 0; k < s->cmds[i].noperands; k++)
			if (!plain(s->cmds[i].operand[k]))
				goto bad;
		for (size_t j = 0; j < s->cmds[i].nopts; j++)
			if (!plain(s->cmds[i].opts[j].shrt) || !plain(s->cmds[i].opts[j].lng))
				goto bad;
	}
	return 0;
bad:
	fputs("mangen: a command, option or check id needs shell quoting\n", stderr);
	return -1;
}

static int expand(FILE *in, FILE *out, const struct spec *s)
{
	char line[1024];

	while (fgets(line, sizeof(line), in)) {
		char *p = line, *at, *end;
		int r;

		/* A placeholder alone on its line is a case block; inside a line, a word list. */
		at = p + strspn(p, "\t ");
		if (at[0] == '@' && (end = strchr(at + 1, '@')) && strcmp(end, "@\n") == 0) {
			*end = '\0';
			r = block(out, at + 1, s);
			if (r < 0)
				return -1;
			if (r == 0)
				continue;
			*end = '@';
		}
		while ((at = strchr(p, '@')) && (end = strchr(at + 1, '@'))) {
			*end = '\0';
			if (strspn(at + 1, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_") != strlen(at + 1) ||
			    end == at + 1) {
				*end = '@';
				fwrite(p, 1, (size_t)(end - p), out);
				p = end;
				continue;
			}
			fwrite(p, 1, (size_t)(at - p), out);
			if (word_list(out, at + 1, s) < 0) {
				fprintf(stderr, "mangen: unknown placeholder @%s@\n", at + 1);
				return -1;
			}
			p = end + 1;
		}
		fputs(p, out);
	}
	return 0;
}

int np_mangen_bash(const char *tmpl, const char *outpath, const char *netpath)
{
	struct spec *s = calloc(1, sizeof(*s));
	FILE *in = NULL, *out = NULL;
	int ret = 1;

	if (!s || read_spec(netpath, s) < 0 || check_spec(s) < 0)
		goto done;
	in = fopen(tmpl, "r");
	if (!in) {
		perror(tmpl);
		goto done;
	}
	out = fopen(outpath, "w");
	if (!out) {
		perror(outpath);
		goto done;
	}
	ret = expand(in, out, s) < 0;
done:
	if (in)
		fclose(in);
	if (out && fclose(out) != 0)
		ret = 1;
	if (ret)
		remove(outpath);
	free(s);
	return ret;
}

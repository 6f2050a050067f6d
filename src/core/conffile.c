// SPDX-License-Identifier: GPL-2.0-only
/* The config file: a pure line parser over a text into plain data, and a loader that reads
 * the file. What the lines mean for the checks is cmd/doctor_config.c's business. */
#include "conffile.h"
#include "log.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NP_CONFIG_MAX_WORDS 64

struct line_ctx {
	const char *name;
	unsigned no;
	char *err;
	size_t errlen;
};

static int bad(const struct line_ctx *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int bad(const struct line_ctx *l, const char *fmt, ...)
{
	char msg[320], raw[sizeof(msg) + 1100];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* The message quotes the file's words: whoever wrote them must not get escape sequences
	 * onto the terminal of the admin who reads it. */
	snprintf(raw, sizeof(raw), "%s:%u: %s", l->name, l->no, msg);
	np_sanitize(raw, l->err, l->errlen);
	return -EINVAL;
}

/* Split line (modified in place) into blank-separated words; -1 if there are too many. */
static int split(char *line, char **w, int max)
{
	int n = 0;

	for (char *p = line; *p;) {
		while (isspace((unsigned char)*p))
			*p++ = '\0';
		if (!*p)
			break;
		if (n == max)
			return -1;
		w[n++] = p;
		while (*p && !isspace((unsigned char)*p))
			p++;
	}
	return n;
}

static int set_value(const struct line_ctx *l, struct np_config_value *v, char **w, int n)
{
	if (n != 2)
		return bad(l, "'%s' takes one value, e.g. '%s %s'", w[0], w[0],
			   !strcmp(w[0], "bandwidth") ? "10G" : !strcmp(w[0], "rtt") ? "30" : "2");
	if (strlen(w[1]) >= sizeof(v->text))
		return bad(l, "value of '%s' too long", w[0]);
	snprintf(v->text, sizeof(v->text), "%s", w[1]);
	v->line = l->no;
	return 0;
}

/* Append a rule; id may be NULL. Both strings are copied into one block. */
static int add_rule(struct np_conffile *c, const struct line_ctx *l, enum np_conffile_kind kind,
		    const char *id, const char *arg)
{
	size_t idn = id ? strlen(id) + 1 : 0, argn = strlen(arg) + 1;
	struct np_conffile_rule *nr;
	char *mem;

	/* Room doubles at each power of two; NP_CONFIG_MAX_BYTES bounds the count. */
	if ((c->nrules & (c->nrules - 1)) == 0) {
		nr = realloc(c->rules, (c->nrules ? c->nrules * 2 : 1) * sizeof(*nr));
		if (!nr)
			return -ENOMEM;
		c->rules = nr;
	}
	mem = malloc(idn + argn);
	if (!mem)
		return -ENOMEM;
	if (id)
		memcpy(mem, id, idn);
	memcpy(mem + idn, arg, argn);
	c->rules[c->nrules++] = (struct np_conffile_rule){
		.kind = kind, .line = l->no, .id = id ? mem : NULL, .arg = mem + idn, .mem = mem,
	};
	return 0;
}

static int parse_line(struct np_conffile *c, const struct line_ctx *l, char *line)
{
	char *w[NP_CONFIG_MAX_WORDS], *hash = strchr(line, '#');
	int n;

	if (hash)
		*hash = '\0';
	n = split(line, w, NP_CONFIG_MAX_WORDS);
	if (n < 0)
		return bad(l, "too many words on one line");
	if (n == 0)
		return 0;
	if (!strcmp(w[0], "threshold")) {
		char levels[NP_CONFIG_MAX_LINE];
		size_t len = 0;

		/* The command-line form works too: threshold ID:warn=N,crit=N. */
		if (n == 2 && strchr(w[1], ':'))
			return add_rule(c, l, NP_CONFFILE_THRESHOLD, NULL, w[1]);
		if (n < 3)
			return bad(l, "'threshold' needs a check id and warn=N and/or crit=N, e.g. "
				   "'threshold softnet.backlog-drops warn=10 crit=1000'");
		levels[0] = '\0';
		/* The words come from one line shorter than levels: they fit. */
		for (int i = 2; i < n && len < sizeof(levels); i++)
			len += (size_t)snprintf(levels + len, sizeof(levels) - len, "%s ", w[i]);
		return add_rule(c, l, NP_CONFFILE_THRESHOLD, w[1], levels);
	}
	if (!strcmp(w[0], "check") || !strcmp(w[0], "skip")) {
		enum np_conffile_kind kind = w[0][0] == 'c' ? NP_CONFFILE_CHECK : NP_CONFFILE_SKIP;
		char list[NP_CONFIG_MAX_LINE];
		size_t len = 0;

		if (n < 2)
			return bad(l, "'%s' needs check ids, globs or stage names, e.g. '%s "
				   "softnet.*,socket.udp-*'", w[0], w[0]);
		/* "a, b", "a ,b", "a b" and "a,b" are one list; "a,,b" keeps its empty item. */
		list[0] = '\0';
		for (int i = 1; i < n && len < sizeof(list); i++) {
			bool sep = i > 1 && list[len - 1] != ',' && w[i][0] != ',';

			len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s",
						sep ? "," : "", w[i]);
		}
		return add_rule(c, l, kind, NULL, list);
	}
	if (!strcmp(w[0], "interval"))
		return set_value(l, &c->interval, w, n);
	if (!strcmp(w[0], "rtt"))
		return set_value(l, &c->rtt, w, n);
	if (!strcmp(w[0], "bandwidth"))
		return set_value(l, &c->bandwidth, w, n);
	if (strchr(w[0], '='))
		return bad(l, "'%s': write 'NAME VALUE' without '='", w[0]);
	return bad(l, "unknown setting '%s' (threshold, check, skip, interval, rtt, bandwidth)",
		   w[0]);
}

int np_conffile_parse(struct np_conffile *c, const char *name, const char *text, size_t len,
		      char *err, size_t errlen)
{
	struct line_ctx l = { .name = name, .err = err, .errlen = errlen };
	char line[NP_CONFIG_MAX_LINE];
	size_t pos = 0;
	int r;

	memset(c, 0, sizeof(*c));
	c->name = name;
	while (pos < len) {
		const char *b = text + pos, *nl = memchr(b, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - b) : len - pos;

		l.no++;
		pos += n + (nl ? 1 : 0);
		if (memchr(b, '\0', n))
			return bad(&l, "NUL byte: not a text file");
		if (n >= sizeof(line))
			return bad(&l, "line longer than %d characters", NP_CONFIG_MAX_LINE - 1);
		memcpy(line, b, n);
		line[n] = '\0';
		r = parse_line(c, &l, line);
		if (r == -ENOMEM)
			snprintf(err, errlen, "%s: out of memory", name);
		if (r < 0)
			return r;
	}
	return 0;
}

/* The usual "no configuration": always empty, whoever may write to it. */
static bool is_dev_null(const struct stat *st)
{
	return S_ISCHR(st->st_mode) && st->st_rdev == makedev(1, 3);
}

/* The whole file, NUL-terminated, at most NP_CONFIG_MAX_BYTES; -errno. *st is the file read
 * (its fd's, so the trust rules judge that file, not whatever the name points at later). */
static int read_all(const char *path, char **out, size_t *len, struct stat *st)
{
	size_t cap = 4096, n = 0;
	char *buf = NULL, *nb;
	/* O_NONBLOCK: a FIFO given as the file must not hang the open; only a regular file is
	 * a configuration. */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), r = 0;

	if (fd < 0)
		return -errno;
	/* A regular file, or /dev/null (the usual "no configuration"); a FIFO, socket, tty or
	 * other device could block or stream forever. */
	if (fstat(fd, st) < 0 || !(S_ISREG(st->st_mode) || is_dev_null(st))) {
		r = S_ISDIR(st->st_mode) ? -EISDIR : -EINVAL;
		close(fd);
		return r;
	}
	for (;;) {
		ssize_t k;

		if (!buf || n + 1 >= cap) {
			if (buf)
				cap *= 2;
			nb = realloc(buf, cap);
			if (!nb) {
				r = -ENOMEM;
				break;
			}
			buf = nb;
		}
		k = read(fd, buf + n, cap - n - 1);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			r = -errno;
			break;
		}
		if (k == 0)
			break;
		n += (size_t)k;
		if (n > NP_CONFIG_MAX_BYTES) {
			r = -EFBIG;
			break;
		}
	}
	close(fd);
	if (r < 0) {
		free(buf);
		return r;
	}
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return 0;
}

/* The file read (st, from its descriptor) and every directory on the way to it. */
static int check_trust(const char *path, const struct stat *st, char *err, size_t errlen)
{
	uid_t euid = geteuid();
	char real[PATH_MAX];
	struct stat walked;
	int r;

	if (is_dev_null(st))
		return 0;
	switch (np_config_file_trust(st->st_uid, st->st_mode, euid)) {
	case NP_TRUST_OK:
		break;
	case NP_TRUST_WORLD_WRITABLE:
	case NP_TRUST_GROUP_WRITABLE:
		snprintf(err, errlen, "config file %s not used: it is %s-writable and its skip and "
			 "threshold lines could hide findings (chmod go-w %s)", path,
			 st->st_mode & S_IWOTH ? "world" : "group", path);
		return -EPERM;
	case NP_TRUST_NOT_ROOT_OWNED:
		snprintf(err, errlen, "config file %s not used: running as root, it must be owned "
			 "by root, not uid %u (chown root %s)", path, (unsigned)st->st_uid, path);
		return -EPERM;
	default:
		snprintf(err, errlen, "config file %s not used: owned by uid %u, neither root nor "
			 "you (uid %u)", path, (unsigned)st->st_uid, (unsigned)euid);
		return -EPERM;
	}
	r = np_config_path_trust(path, euid, &walked, real, sizeof(real), err, errlen);
	if (r < 0)
		return r;
	/* The walk judged the file that was read, not one put in its place since. */
	if (walked.st_dev != st->st_dev || walked.st_ino != st->st_ino) {
		snprintf(err, errlen, "config file %s not used: it was replaced while being read",
			 path);
		return -EPERM;
	}
	return 0;
}

int np_conffile_load(const char *path, bool required, struct np_conffile *c, char *err,
		     size_t errlen)
{
	char *text = NULL;
	size_t len = 0;
	struct stat st;
	int r;

	memset(c, 0, sizeof(*c));
	c->name = path;
	if (strlen(path) >= sizeof(c->path)) {
		snprintf(err, errlen, "config file name too long");
		return -ENAMETOOLONG;
	}
	r = read_all(path, &text, &len, &st);
	if (r == -ENOENT && !required)
		return 0;
	if (r < 0) {
		snprintf(err, errlen, "cannot read config file %s: %s", path,
			 r == -EFBIG ? "larger than 1 MiB" :
			 r == -EINVAL ? "not a regular file (a FIFO, socket or device)" :
			 strerror(-r));
		return r;
	}
	r = check_trust(path, &st, err, errlen);
	if (r == 0)
		r = np_conffile_parse(c, path, text, len, err, errlen);
	free(text);
	if (r < 0)
		return r;
	snprintf(c->path, sizeof(c->path), "%s", path);
	return 0;
}

bool np_conffile_dropin_name(const char *name)
{
	size_t len = strlen(name);

	/* A stem before ".conf", not hidden: "x.conf~", ".x.conf.swp", "#x.conf#" and
	 * "x.conf.dpkg-dist" are not settings. */
	return name[0] != '.' && len > 5 && strcmp(name + len - 5, ".conf") == 0;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The directory itself: whoever may write it decides which drop-ins there are. */
static int dropin_dir_refused(const char *dir, const struct stat *st, uid_t euid, char *err,
			      size_t errlen)
{
	switch (np_config_dir_trust(st->st_uid, st->st_mode, euid)) {
	case NP_TRUST_OK:
		return 0;
	case NP_TRUST_DIR_FOREIGN_OWNER:
		snprintf(err, errlen, "config directory %s not used: owned by uid %u, %s", dir,
			 (unsigned)st->st_uid, euid == 0 ? "not root" : "neither root nor you");
		break;
	default:
		snprintf(err, errlen, "config directory %s not used: it is %s-writable without the "
			 "sticky bit, so others could add or replace its files (chmod go-w %s)", dir,
			 st->st_mode & S_IWOTH ? "world" : "group", dir);
		break;
	}
	return -EPERM;
}

int np_conffile_dropins(const char *dir, uid_t euid, char ***paths, size_t *n, char *err,
			size_t errlen)
{
	char real[PATH_MAX], *names[NP_CONFIG_MAX_DROPINS], **out, *p;
	size_t k = 0, bytes = 0, dirlen = strlen(dir);
	struct stat st, dst;
	struct dirent *e;
	DIR *d;
	int r;

	*paths = NULL;
	*n = 0;
	r = np_config_path_trust(dir, euid, &st, real, sizeof(real), err, errlen);
	if (r == -ENOENT)
		return 0;	/* no drop-ins */
	if (r < 0)
		return r;
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "config directory %s is not a directory", dir);
		return -ENOTDIR;
	}
	r = dropin_dir_refused(dir, &st, euid, err, errlen);
	if (r < 0)
		return r;
	d = opendir(dir);
	if (!d) {
		r = -errno;
		if (r == -ENOENT)
			return 0;
		snprintf(err, errlen, "cannot read config directory %s: %s", dir, strerror(-r));
		return r;
	}
	/* The walk judged the directory that is listed, not one put in its place since. */
	if (fstat(dirfd(d), &dst) < 0 || dst.st_dev != st.st_dev || dst.st_ino != st.st_ino) {
		closedir(d);
		snprintf(err, errlen, "config directory %s not used: it was replaced while being "
			 "read", dir);
		return -EPERM;
	}
	errno = 0;
	while ((e = readdir(d))) {
		if (!np_conffile_dropin_name(e->d_name))
			continue;
		if (k == NP_CONFIG_MAX_DROPINS) {
			snprintf(err, errlen, "config directory %s: more than %d *.conf files", dir,
				 NP_CONFIG_MAX_DROPINS);
			r = -E2BIG;
			break;
		}
		names[k] = strdup(e->d_name);
		if (!names[k]) {
			r = -ENOMEM;
			break;
		}
		bytes += dirlen + 1 + strlen(names[k]) + 1;
		k++;
	}
	if (!e && errno && r == 0) {
		r = -errno;
		snprintf(err, errlen, "cannot read config directory %s: %s", dir, strerror(-r));
	}
	closedir(d);
	if (r == 0) {
		out = malloc(k * sizeof(*out) + bytes + 1);
		if (!out)
			r = -ENOMEM;
	}
	if (r == -ENOMEM)
		snprintf(err, errlen, "%s: out of memory", dir);
	if (r == 0) {
		qsort(names, k, sizeof(names[0]), cmp_name);
		p = (char *)(out + k);
		for (size_t i = 0; i < k; i++) {
			out[i] = p;
			p += sprintf(p, "%s/%s", dir, names[i]) + 1;
		}
		*paths = out;
		*n = k;
	}
	for (size_t i = 0; i < k; i++)
		free(names[i]);
	return r;
}

void np_conffile_free(struct np_conffile *c)
{
	for (size_t i = 0; i < c->nrules; i++)
		free(c->rules[i].mem);
	free(c->rules);
	memset(c, 0, sizeof(*c));
}

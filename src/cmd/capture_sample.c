// SPDX-License-Identifier: GPL-2.0-only
/* One recorded sample beneath a prefix of a tar (capture_sample.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "capture_sample.h"
#include "collect.h"
#include "config.h"
#include "fsrec.h"
#include "root.h"

struct sink {
	struct np_tar_out *tar;
	const char *prefix;
	int64_t mtime;
};

static int emit(void *arg, char type, const char *path, const void *data, size_t len)
{
	struct sink *k = arg;
	char name[4200];

	if (snprintf(name, sizeof(name), "%s/%s", k->prefix, path) >= (int)sizeof(name))
		return 0;	/* longer than any path the kernel gives: left out */
	if (type == 'd')
		return np_tar_out_dir(k->tar, name, 0700, k->mtime);
	if (type == 'l')
		return np_tar_out_symlink(k->tar, name, data, k->mtime);
	return np_tar_out_file(k->tar, name, data, len, 0600, k->mtime);
}

/* --netns: the host-wide sysctls read in the initial namespace before entering (a child
 * namespace has no files for them), as "key TAB value" lines, read back by np_root_ctx_open. */
static int host_sysctls(const struct np_target *tgt, const struct sink *k)
{
	char name[4200], *text = NULL;
	size_t len = 0;
	int err;

	if (!tgt->has_host_files)
		return 0;
	if (np_host_sysctls_text(&tgt->host_files, &text, &len) < 0)
		return -ENOMEM;
	snprintf(name, sizeof(name), "%s/%s", k->prefix, NP_CAPTURE_HOST_SYSCTLS);
	err = np_tar_out_file(k->tar, name, text, len, 0600, k->mtime);
	free(text);
	return err;
}

int np_capture_begin(struct np_target *tgt, struct np_capture_session *cs)
{
	return np_capture_begin_capped(tgt, cs, 0);
}

int np_capture_begin_capped(struct np_target *tgt, struct np_capture_session *cs,
			    uint64_t sock_cap)
{
	cs->rec = np_fsrec_new();
	if (!cs->rec)
		return -ENOMEM;
	np_ktape_init(&cs->tape, true);
	cs->tape.sock_cap = sock_cap;
	tgt->ctx.rec = cs->rec;
	tgt->ctx.tape = &cs->tape;
	return 0;
}

int np_capture_end(struct np_target *tgt, struct np_capture_session *cs, struct np_tar_out *tar,
		   const char *prefix, int64_t mtime, struct np_capture_stats *ss)
{
	struct sink k = { tar, prefix, mtime };
	char name[4200], *buf;
	size_t len;
	int err;

	tgt->ctx.rec = NULL;
	tgt->ctx.tape = NULL;
	err = np_fsrec_emit(cs->rec, emit, &k);
	np_fsrec_counts(cs->rec, &ss->members, &ss->errors, &ss->bytes);
	ss->exchanges = cs->tape.n;
	ss->capped = cs->tape.capped;
	if (!err)
		err = host_sysctls(tgt, &k);
	if (!err)
		err = np_ktape_save(&cs->tape, &buf, &len);
	if (!err) {
		snprintf(name, sizeof(name), "%s/kernel.tape", prefix);
		err = np_tar_out_file(tar, name, buf, len, 0600, mtime);
		free(buf);
	}
	np_ktape_free(&cs->tape);
	np_fsrec_free(cs->rec);
	cs->rec = NULL;
	return err;
}

int np_capture_meta_write(struct np_tar_out *tar, const struct np_capture_meta *m)
{
	char ifs[256] = "", taken[32] = "", *text = NULL;
	bool capped = false;
	struct np_identity id;
	time_t t = (time_t)m->now;
	struct tm tm;
	size_t len = 0;
	FILE *f;
	int err;

	np_collect_identity(&id);
	if (gmtime_r(&t, &tm))
		strftime(taken, sizeof(taken), "%Y-%m-%dT%H:%M:%SZ", &tm);
	for (size_t i = 0; i < m->nifs; i++)
		snprintf(ifs + strlen(ifs), sizeof(ifs) - strlen(ifs), "%s%.15s", i ? " " : "",
			 m->ifs[i]);
	f = open_memstream(&text, &len);
	if (!f)
		return -ENOMEM;
	fprintf(f, "format: %s\nnetpath: %s\nhostname: %s\nkernel: %s\nmachine: %s\n"
		"taken: %s\ninterval: %.3f\ninterfaces: %s\nall: %s\nnetns: %s\npage_size: %ld\n"
		"samples: %s\n",
		NP_CAPTURE_FORMAT, NETPATH_VERSION, id.hostname, id.release, id.machine, taken,
		m->interval, ifs, m->all ? "yes" : "no", m->netns ? m->netns : "", id.page_size,
		m->nsamples == 2 ? "s1 s2" : "s1");
	for (int i = 0; m->ss && i < m->nsamples; i++) {
		fprintf(f, "s%d: %zu files, %zu unreadable, %zu bytes, %zu kernel answers\n", i + 1,
			m->ss[i].members, m->ss[i].errors, m->ss[i].bytes, m->ss[i].exchanges);
		capped |= m->ss[i].capped > 0;
	}
	if (capped)
		fprintf(f, "lacks: socket dumps beyond %u MiB per sample\n",
			NP_KTAPE_SOCK_BYTES >> 20);
	if (m->recorded_by)
		fprintf(f, "recorded-by: %s\n", m->recorded_by);
	if (fclose(f) != 0) {
		free(text);
		return -ENOMEM;
	}
	err = np_tar_out_file(tar, NP_CAPTURE_META, text, len, 0600, m->now);
	free(text);
	return err;
}

// SPDX-License-Identifier: GPL-2.0-only
/* One recorded sample beneath a prefix of a tar (capture_sample.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "capture_sample.h"
#include "collect.h"
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

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The flight recorder's writer (rec_store.h): frames into blocks, blocks appended to the
 * newest segment with one write each, segments rotated and evicted, a full disk survived.
 */
#include "rec_store.h"
#include "rec_block.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct np_rec_writer {
	struct np_rec_opts o;
	int dirfd, fd;
	char dir[256];
	struct np_rec_seg *segs;	/* the directory's segments, the current one last */
	size_t nsegs;
	uint64_t total;			/* their bytes */
	uint64_t session, next_seq;
	off_t off;			/* the end of the current segment's good blocks */
	int64_t seg_wall;		/* when the current segment was started */
	bool session_start;		/* the next segment is the run's first */
	struct np_rec_enc enc;
	z_stream z;
	struct np_rec_buf raw, out;
	struct np_rec_blkhdr h;		/* the pending block */
	unsigned since_key;		/* frames since the last key block began */
	bool need_key, need_schema, need_config, discont;
	char *names, *config;		/* the last ones given */
	size_t names_len, config_len;
	bool has_config, full;		/* full: the disk was full, said once */
};

static int fail(char *err, size_t errlen, int r, const char *what, const struct np_rec_writer *w)
{
	snprintf(err, errlen, "recording directory %s: %s: %s", w->dir, what, strerror(-r));
	return r;
}

static void drop_seg(struct np_rec_writer *w, size_t i)
{
	if (unlinkat(w->dirfd, w->segs[i].name, 0) < 0 && errno != ENOENT)
		return;
	w->total -= w->segs[i].bytes;
	memmove(w->segs + i, w->segs + i + 1, (w->nsegs - i - 1) * sizeof(*w->segs));
	w->nsegs--;
}

/* The oldest segments, past the size cap or entirely older than keep; never the current. */
static void evict(struct np_rec_writer *w, int64_t now_wall)
{
	while (w->nsegs > 1) {
		bool big = w->o.max_bytes && w->total > w->o.max_bytes;
		/* A segment ends where the next one starts. */
		bool old = w->o.keep_ns &&
			   w->segs[1].wall_s <= (now_wall - w->o.keep_ns) / 1000000000;

		if (!big && !old)
			break;
		drop_seg(w, 0);
	}
}

static int new_segment(struct np_rec_writer *w, int64_t mono, int64_t wall)
{
	struct np_rec_seghdr sh = {
		.session = w->session, .seq = w->next_seq, .wall_ns = wall, .mono_ns = mono,
		.interval_ms = w->o.interval_ms, .flags = w->session_start ? NP_REC_SEG_SESSION : 0,
	};
	uint8_t hdr[NP_REC_SEG_HDR];
	struct np_rec_seg s = { .seq = w->next_seq, .wall_s = wall / 1000000000 };
	struct np_rec_seg *p;
	int fd, r;

	r = np_rec_seg_name(s.name, sizeof(s.name), s.seq, wall);
	if (r < 0)
		return r;
	p = realloc(w->segs, (w->nsegs + 1) * sizeof(*p));
	if (!p)
		return -ENOMEM;
	w->segs = p;
	fd = openat(w->dirfd, s.name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return -errno;
	sh.version = w->o.version;
	np_rec_seghdr_pack(&sh, hdr);
	if (fchmod(fd, 0600) < 0 || w->o.pwrite_fn(fd, hdr, sizeof(hdr), 0) != sizeof(hdr)) {
		r = errno ? -errno : -ENOSPC;
		close(fd);
		unlinkat(w->dirfd, s.name, 0);
		return r;
	}
	if (!w->o.no_sync)
		fsync(w->dirfd);
	if (w->fd >= 0)
		close(w->fd);
	w->fd = fd;
	w->off = NP_REC_SEG_HDR;
	w->seg_wall = wall;
	s.bytes = NP_REC_SEG_HDR;
	w->segs[w->nsegs++] = s;
	w->total += s.bytes;
	w->next_seq++;
	w->session_start = false;
	/* Each segment stands alone: its first block names the counters and the config. */
	w->need_key = w->need_schema = w->need_config = true;
	return 0;
}

/* A crash left a block half written at the end of the newest segment: cut it off. */
static int repair_tail(struct np_rec_writer *w)
{
	struct np_rec_seg *s = &w->segs[w->nsegs - 1];
	int fd = openat(w->dirfd, s->name, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
	off_t end;
	bool torn;
	int r;

	if (fd < 0)
		return -errno;
	r = np_rec_segment_walk(fd, NP_REC_SEG_HDR, (off_t)s->bytes, NULL, NULL, &end, &torn);
	if (r == 0 && torn && end >= NP_REC_SEG_HDR && np_rec_next_good(fd, end, (off_t)s->bytes) < 0 &&
	    ftruncate(fd, end) == 0) {
		w->total -= s->bytes - (uint64_t)end;
		s->bytes = (uint64_t)end;
	}
	close(fd);
	return r;
}

int np_rec_writer_open(const struct np_rec_opts *o, struct np_rec_writer **out, char *err,
		       size_t errlen)
{
	struct np_rec_writer *w = calloc(1, sizeof(*w));
	int r;

	if (!w)
		return -ENOMEM;
	w->o = *o;
	w->fd = w->dirfd = -1;
	snprintf(w->dir, sizeof(w->dir), "%s", o->dir);
	if (!w->o.interval_ms)
		w->o.interval_ms = 1000;
	if (!w->o.segment_bytes)
		w->o.segment_bytes = !o->max_bytes ? 16u << 20 : o->max_bytes / 8 < (256u << 10) ?
				     256u << 10 : o->max_bytes / 8 > (64u << 20) ? 64u << 20 :
				     o->max_bytes / 8;
	if (!w->o.segment_ns)
		w->o.segment_ns = 3600LL * 1000000000;
	if (!w->o.flush_frames)
		w->o.flush_frames = 5;
	if (!w->o.level)
		w->o.level = 6;
	if (!w->o.version || w->o.version > NP_REC_VERSION)
		w->o.version = NP_REC_VERSION;
	/* Version 3 restarts streams hourly (a segment's span at 1 s): 0.4 MB a day less than
	 * every 15 minutes on a 16-CPU host, at the price of what one damaged block loses. */
	if (!w->o.key_frames)
		w->o.key_frames = w->o.version >= 3 ? 3600 : 900;
	w->enc.cols = w->o.version >= 2;
	w->enc.mean = w->o.version >= 3;
	if (!w->o.pwrite_fn)
		w->o.pwrite_fn = pwrite;
	r = np_rec_dir_open(o->dir, true, &w->dirfd, err, errlen);
	if (r < 0)
		goto out;
	if (flock(w->dirfd, LOCK_EX | LOCK_NB) < 0) {
		r = errno == EWOULDBLOCK ? -EBUSY : -errno;
		snprintf(err, errlen, "recording directory %s is in use by another recorder%s%s",
			 o->dir, r == -EBUSY ? "" : ": ", r == -EBUSY ? "" : strerror(-r));
		goto out;
	}
	r = np_rec_dir_list(w->dirfd, &w->segs, &w->nsegs);
	if (r < 0) {
		fail(err, errlen, r, "cannot list", w);
		goto out;
	}
	for (size_t i = 0; i < w->nsegs; i++)
		w->total += w->segs[i].bytes;
	if (w->nsegs) {
		w->next_seq = w->segs[w->nsegs - 1].seq + 1;
		r = repair_tail(w);
		if (r < 0) {
			fail(err, errlen, r, "cannot repair the newest segment", w);
			goto out;
		}
	}
	if (getrandom(&w->session, sizeof(w->session), GRND_NONBLOCK) != sizeof(w->session))
		w->session = (uint64_t)time(NULL) ^ (uint64_t)getpid() << 32;
	w->session_start = true;
	r = np_rec_deflate_init(&w->z, w->o.level);
	if (r < 0)
		goto out;
	*out = w;
	return 0;
out:
	np_rec_writer_close(w);
	return r;
}

static bool is_full(int r)
{
	return r == -ENOSPC || r == -EDQUOT || r == -EFBIG;
}

/* Write the pending block: 0, 1 (err: a line to say), -errno. */
static int write_block(struct np_rec_writer *w, char *err, size_t errlen)
{
	size_t plain;
	int r;

	if (!w->h.nframes)
		return 0;
	w->out.len = 0;
	r = np_rec_put_varint(&w->out, 0);	/* room for the header, below */
	if (r == 0 && w->out.cap < NP_REC_BLK_HDR)
		r = -ENOMEM;
	if (r < 0)
		return fail(err, errlen, r, "out of memory", w);
	w->out.len = NP_REC_BLK_HDR;
	/* The frames waiting in the encoder (a column record) belong to this block. */
	r = np_rec_enc_flush(&w->enc, &w->raw);
	if (r < 0)
		return fail(err, errlen, r, "out of memory", w);
	/* A few bytes of bits are cheaper deflated than behind two more deflate blocks. */
	plain = w->enc.plain_len >= 64 ? w->enc.plain_len : 0;
	r = np_rec_deflate_block(&w->z, w->o.level, w->raw.p, w->raw.len, w->enc.plain_at, plain,
				 &w->out);
	if (r < 0)
		return fail(err, errlen, r, "compressing a block", w);
	w->h.stored = (uint32_t)(w->out.len - NP_REC_BLK_HDR);
	w->h.raw = (uint32_t)w->raw.len;
	np_rec_blkhdr_pack(&w->h, w->out.p + NP_REC_BLK_HDR, w->out.p);
	for (int attempt = 0; attempt < 2; attempt++) {
		ssize_t n;

		errno = 0;
		n = w->o.pwrite_fn(w->fd, w->out.p, w->out.len, w->off);
		if (n == (ssize_t)w->out.len) {
			r = 0;
			break;
		}
		r = n < 0 ? -errno : -ENOSPC;	/* a short write: the disk filled */
		/* Never leave half a block where the next one goes. */
		if (ftruncate(w->fd, w->off) < 0) {
			/* The next write goes to the same offset and overwrites it anyway. */
		}
		if (!is_full(r) || w->nsegs < 2)
			break;
		drop_seg(w, 0);		/* room by the oldest data, then once more */
	}
	w->raw.len = 0;
	memset(&w->h, 0, sizeof(w->h));
	if (r < 0 && !is_full(r))
		return fail(err, errlen, r, "cannot write", w);
	if (r < 0) {
		/* Frames are dropped until space returns; the deflate stream lost a block, so
		 * the next block starts a new one, and readers see the hole. */
		w->need_key = w->need_schema = w->need_config = w->discont = true;
		if (w->full)
			return 0;
		w->full = true;
		snprintf(err, errlen, "recording directory %s: %s; dropping samples until there "
			 "is room again (oldest segments evicted)", w->dir, strerror(-r));
		return 1;
	}
	w->off += (off_t)w->out.len;
	w->segs[w->nsegs - 1].bytes += w->out.len;
	w->total += w->out.len;
	if (!w->o.no_sync)
		fdatasync(w->fd);
	if (w->full) {
		w->full = false;
		snprintf(err, errlen, "recording directory %s: writing again", w->dir);
		return 1;
	}
	return 0;
}

int np_rec_writer_flush(struct np_rec_writer *w, char *err, size_t errlen)
{
	return write_block(w, err, errlen);
}

static bool same(const void *a, size_t alen, const void *b, size_t blen)
{
	return alen == blen && (!alen || !memcmp(a, b, alen));
}

static int keep_copy(char **dst, size_t *dlen, const void *src, size_t len)
{
	char *p = malloc(len ? len : 1);

	if (!p)
		return -ENOMEM;
	if (len)
		memcpy(p, src, len);
	free(*dst);
	*dst = p;
	*dlen = len;
	return 0;
}

int np_rec_writer_append(struct np_rec_writer *w, const struct np_rec_sample *s, char *err,
			 size_t errlen)
{
	bool schema = !same(s->names, s->names_len, w->names, w->names_len) || !w->names;
	bool config = s->config && (!w->has_config ||
				    !same(s->config, s->config_len, w->config, w->config_len));
	int said = 0, r;
	bool rotate;

	if (schema && keep_copy(&w->names, &w->names_len, s->names, s->names_len) < 0)
		return fail(err, errlen, -ENOMEM, "out of memory", w);
	if (config && keep_copy(&w->config, &w->config_len, s->config, s->config_len) < 0)
		return fail(err, errlen, -ENOMEM, "out of memory", w);
	w->has_config |= config;
	w->need_schema |= schema;
	w->need_config |= config;
	/* Rotation, by size or age, starts a key block (each segment starts a stream). */
	rotate = w->fd < 0 || w->segs[w->nsegs - 1].bytes >= w->o.segment_bytes ||
		 s->wall_ns - w->seg_wall >= w->o.segment_ns;
	if (schema || config || rotate || w->since_key >= w->o.key_frames)
		w->need_key = true;
	if (rotate) {
		said = write_block(w, err, errlen);
		if (said < 0)
			return said;
		r = new_segment(w, s->mono_ns, s->wall_ns);
		if (is_full(r) && w->nsegs > 1) {
			drop_seg(w, 0);
			r = new_segment(w, s->mono_ns, s->wall_ns);
		}
		if (is_full(r) && w->fd >= 0) {
			/* No room for a new file: the current segment goes on growing. */
			r = 0;
		} else if (is_full(r)) {
			w->discont = true;
			if (w->full)
				return said;
			w->full = true;
			snprintf(err, errlen, "recording directory %s: %s; dropping samples until "
				 "there is room again", w->dir, strerror(-r));
			return 1;
		}
		if (r < 0)
			return fail(err, errlen, r, "cannot start a segment", w);
	} else if (w->need_key && w->h.nframes) {
		said = write_block(w, err, errlen);
		if (said < 0)
			return said;
	}
	if (w->need_key) {
		deflateReset(&w->z);
		np_rec_enc_reset(&w->enc);
		w->h.flags |= NP_REC_BLK_KEY | (w->discont ? NP_REC_BLK_DISCONT : 0);
		r = 0;
		if (w->need_schema && s->n) {
			w->h.flags |= NP_REC_BLK_SCHEMA;
			r = np_rec_put_schema(&w->raw, s->names, s->names_len, s->n);
		}
		if (r == 0 && w->need_config && w->has_config) {
			w->h.flags |= NP_REC_BLK_CONFIG;
			r = np_rec_put_config(&w->raw, w->config, w->config_len);
		}
		if (r < 0)
			return fail(err, errlen, r, "a bad schema or configuration", w);
		w->need_key = w->need_schema = w->need_config = w->discont = false;
		w->since_key = 0;
	}
	r = np_rec_put_frame(&w->enc, &w->raw, s->mono_ns, s->wall_ns, s->v, s->n);
	if (r < 0)
		return fail(err, errlen, r, "cannot encode a frame", w);
	if (!w->h.nframes)
		w->h.first_wall = s->wall_ns;
	w->h.last_wall = s->wall_ns;
	w->h.last_mono = s->mono_ns;
	w->h.nframes++;
	w->since_key++;
	if (w->h.nframes >= w->o.flush_frames ||
	    w->raw.len + np_rec_enc_pending(&w->enc) >= NP_REC_BLK_MAX / 2) {
		r = write_block(w, err, errlen);
		if (r != 0)
			return r;
	}
	evict(w, s->wall_ns);
	return said;
}

uint64_t np_rec_writer_bytes(const struct np_rec_writer *w)
{
	return w->total;
}

void np_rec_writer_close(struct np_rec_writer *w)
{
	char err[256];

	if (!w)
		return;
	if (w->fd >= 0) {
		write_block(w, err, sizeof(err));
		close(w->fd);
	}
	if (w->dirfd >= 0)
		close(w->dirfd);
	if (w->z.state)
		deflateEnd(&w->z);
	np_rec_enc_free(&w->enc);
	np_rec_buf_free(&w->raw);
	np_rec_buf_free(&w->out);
	free(w->segs);
	free(w->names);
	free(w->config);
	free(w);
}

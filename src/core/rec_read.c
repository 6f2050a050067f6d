// SPDX-License-Identifier: GPL-2.0-only
/*
 * The flight recorder's reader (rec_store.h): segments in order, a seek by their names and one
 * segment's block index, frames decoded from the key block before the time asked, gaps and
 * clock steps flagged, damaged blocks skipped, a segment still being written followed.
 */
#include "rec_store.h"
#include "rec_block.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct blk {
	off_t off;
	struct np_rec_blkhdr h;
	bool after_hole;		/* damaged bytes come before it */
};

struct np_rec_reader {
	int dirfd, fd;
	struct np_rec_seg *segs;
	size_t nsegs;
	uint64_t seq;			/* the segment open in fd, or the last one passed */
	bool opened;			/* seq means something */
	struct np_rec_seghdr sh;
	off_t size, end;		/* the file's size, the end of its good blocks */
	struct blk *blk;
	size_t nblk, cap, bi;		/* bi: the block decoded now */
	struct np_rec_dec dec;
	z_stream z;
	struct np_rec_buf stored, raw;
	const uint8_t *p, *pend;	/* records left in raw */
	bool streaming;			/* dec and z continue from the block before */
	unsigned pending, damaged;
	int64_t target;			/* frames before it are skipped (after a seek) */
	bool have_prev;
	int64_t prev_mono, prev_wall;
	bool hole;			/* indexing: the next block added follows damage */
};

static int add_blk(void *arg, const struct np_rec_blkhdr *h, off_t off, const uint8_t *payload)
{
	struct np_rec_reader *r = arg;

	(void)payload;
	if (r->nblk == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 256;
		struct blk *p = realloc(r->blk, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		r->blk = p;
		r->cap = cap;
	}
	r->blk[r->nblk].off = off;
	r->blk[r->nblk].after_hole = r->hole;
	r->hole = false;
	r->blk[r->nblk++].h = *h;
	return 0;
}

/* Index the blocks from r->end to the file's end (a segment being written grows). */
static int index_tail(struct np_rec_reader *r)
{
	struct stat st;
	bool torn;

	if (fstat(r->fd, &st) < 0)
		return -errno;
	if (st.st_size <= r->end)
		return 0;
	r->size = st.st_size;
	for (;;) {
		int rc = np_rec_segment_walk(r->fd, r->end, r->size, add_blk, r, &r->end, &torn);
		off_t next;

		if (rc < 0 || !torn)
			return rc;
		/* Bad bytes with a good block after them are damage: skipped, counted, and
		 * the frames after them are not continuous. Without one they are the tail
		 * being written (or cut short): read again later. */
		next = np_rec_next_good(r->fd, r->end, r->size);
		if (next < 0)
			return 0;
		r->damaged++;
		r->hole = true;
		r->end = next;
	}
}

static void close_seg(struct np_rec_reader *r)
{
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
	r->nblk = 0;
	r->p = r->pend = NULL;
	r->streaming = false;
}

/* Open segment i and index it. -EBADMSG: not a readable segment (skipped by callers). */
static int open_seg(struct np_rec_reader *r, size_t i)
{
	uint8_t hdr[NP_REC_SEG_HDR];
	int rc;

	close_seg(r);
	r->fd = openat(r->dirfd, r->segs[i].name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	r->seq = r->segs[i].seq;
	r->opened = true;
	if (r->fd < 0)
		return errno == ENOENT ? -EBADMSG : -errno;	/* evicted meanwhile */
	if (pread(r->fd, hdr, sizeof(hdr), 0) != sizeof(hdr) ||
	    np_rec_seghdr_unpack(hdr, &r->sh) < 0) {
		close_seg(r);
		return -EBADMSG;
	}
	r->end = NP_REC_SEG_HDR;
	/* Segments of both versions may follow each other in one directory (an upgrade). */
	r->dec.version = r->sh.version;
	rc = index_tail(r);
	if (rc < 0) {
		close_seg(r);
		return rc;
	}
	r->bi = 0;
	/* The first block is read by next(); say where this segment stands to the last. */
	r->pending |= r->sh.flags & NP_REC_SEG_SESSION ? NP_REC_F_RESTART | NP_REC_F_GAP : 0;
	return 0;
}

int np_rec_reader_open(const char *dir, struct np_rec_reader **out, char *err, size_t errlen)
{
	struct np_rec_reader *r = calloc(1, sizeof(*r));
	int rc;

	if (!r)
		return -ENOMEM;
	r->fd = r->dirfd = -1;
	r->target = INT64_MIN;
	rc = np_rec_dir_open(dir, false, &r->dirfd, err, errlen);
	if (rc == 0 && (rc = np_rec_dir_list(r->dirfd, &r->segs, &r->nsegs)) < 0)
		snprintf(err, errlen, "cannot list recording directory %s: %s", dir,
			 strerror(-rc));
	if (rc == 0 && np_rec_inflate_init(&r->z) < 0)
		rc = -ENOMEM;
	if (rc < 0) {
		if (rc == -ENOMEM)
			snprintf(err, errlen, "out of memory");
		np_rec_reader_close(r);
		return rc;
	}
	*out = r;
	return 0;
}

/* Decode the schema and configuration records at the head of key block k. */
static int head_of(struct np_rec_reader *r, size_t k)
{
	struct np_rec_blkhdr h;
	const uint8_t *p;
	int rc = np_rec_block_read(r->fd, r->blk[k].off, r->size, &h, &r->stored);

	if (rc == 0) {
		inflateReset(&r->z);
		rc = np_rec_inflate_block(&r->z, r->stored.p, r->stored.len, h.raw, &r->raw);
	}
	p = r->raw.p;
	while (rc == 0 && p < r->raw.p + r->raw.len && (*p == NP_REC_SCHEMA || *p == NP_REC_CONFIG)) {
		enum np_rec_kind kind;

		rc = np_rec_get(&r->dec, &p, r->raw.p + r->raw.len, &kind);
	}
	return rc;
}

/* Make block k (a key block) the next one decoded, with the schema and config in force. */
static int start_at(struct np_rec_reader *r, size_t k)
{
	size_t s = k + 1, c = k + 1;

	for (size_t i = k + 1; i-- > 0 && (s > k || c > k);) {
		if (s > k && (r->blk[i].h.flags & NP_REC_BLK_SCHEMA))
			s = i;
		if (c > k && (r->blk[i].h.flags & NP_REC_BLK_CONFIG))
			c = i;
	}
	if (c <= k && c != s && c != k && head_of(r, c) < 0)
		r->damaged++;
	if (s <= k && s != k && head_of(r, s) < 0)
		r->damaged++;
	r->bi = k;
	r->p = r->pend = NULL;
	r->streaming = false;
	return 0;
}

int np_rec_reader_seek(struct np_rec_reader *r, int64_t wall_ns)
{
	size_t lo = 0, hi = r->nsegs;

	r->target = wall_ns;
	r->have_prev = false;
	np_rec_dec_reset(&r->dec);	/* frames of a column record decoded before the seek */
	r->pending = NP_REC_F_FIRST;
	/* The last segment started at or before the time (names carry their start). */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->segs[mid].wall_s <= wall_ns / 1000000000)
			lo = mid;
		else
			hi = mid;
	}
	for (size_t i = lo; i < r->nsegs; i++) {
		int rc = open_seg(r, i);

		if (rc == -EBADMSG) {
			r->damaged++;
			continue;
		}
		if (rc < 0)
			return rc;
		for (size_t k = 0; k < r->nblk; k++) {
			if (r->blk[k].h.last_wall < wall_ns)
				continue;
			while (k > 0 && !(r->blk[k].h.flags & NP_REC_BLK_KEY))
				k--;
			return start_at(r, k);
		}
	}
	close_seg(r);
	return 0;
}

/* Open the segment after the one passed (a rescan of the directory finds the ones started
 * since): 1, 0 when there is none yet, -errno. */
static int advance(struct np_rec_reader *r)
{
	for (int pass = 0; pass < 2; pass++) {
		size_t i = 0;

		while (i < r->nsegs && r->opened && r->segs[i].seq <= r->seq)
			i++;
		for (; i < r->nsegs; i++) {
			int rc = open_seg(r, i);

			if (rc == 0)
				return 1;
			if (rc != -EBADMSG)
				return rc;
			r->damaged++;
			r->pending |= NP_REC_F_GAP;
		}
		if (pass == 0) {
			struct np_rec_seg *segs;
			size_t n;

			if (np_rec_dir_list(r->dirfd, &segs, &n) < 0)
				return 0;
			free(r->segs);
			r->segs = segs;
			r->nsegs = n;
		}
	}
	return 0;
}

/* The next block of the open segment, or of the segments after it: 1, 0 at the end. */
static int next_block(struct np_rec_reader *r)
{
	for (;;) {
		struct np_rec_blkhdr h;
		int rc;

		if (r->p) {
			r->bi++;	/* the block before is consumed */
			r->p = NULL;
		}
		if (r->fd >= 0 && r->bi >= r->nblk && index_tail(r) < 0)
			r->damaged++;
		if (r->fd < 0 || r->bi >= r->nblk) {
			rc = advance(r);
			if (rc <= 0)
				return rc;
			continue;
		}
		if (r->blk[r->bi].after_hole) {
			r->streaming = false;	/* the stream's state is in the lost bytes */
			r->pending |= NP_REC_F_GAP;
		}
		if (!r->streaming && !(r->blk[r->bi].h.flags & NP_REC_BLK_KEY)) {
			r->bi++;	/* mid-stream with nothing before it: wait for a key block */
			r->pending |= NP_REC_F_GAP;
			continue;
		}
		rc = np_rec_block_read(r->fd, r->blk[r->bi].off, r->size, &h, &r->stored);
		if (rc == 0 && (h.flags & NP_REC_BLK_KEY)) {
			inflateReset(&r->z);
			np_rec_dec_reset(&r->dec);
		}
		if (rc == 0)
			rc = np_rec_inflate_block(&r->z, r->stored.p, r->stored.len, h.raw, &r->raw);
		if (rc == -ENOMEM)
			return rc;
		r->p = r->raw.p;
		r->pend = r->raw.p + (rc == 0 ? r->raw.len : 0);
		if (rc < 0) {
			r->damaged++;
			r->pending |= NP_REC_F_GAP;
			r->streaming = false;
			continue;
		}
		if (h.flags & NP_REC_BLK_DISCONT)
			r->pending |= NP_REC_F_GAP;
		r->streaming = true;
		return 1;
	}
}

static void fill(struct np_rec_reader *r, struct np_rec_frame *f)
{
	int64_t interval = (int64_t)(r->sh.interval_ms ? r->sh.interval_ms : 1000) * 1000000;
	/* Modular: a damaged or hostile file may hold any times. */
	int64_t dm = (int64_t)((uint64_t)r->dec.mono - (uint64_t)r->prev_mono);
	int64_t dw = (int64_t)((uint64_t)r->dec.wall - (uint64_t)r->prev_wall);
	int64_t step = (int64_t)((uint64_t)dw - (uint64_t)dm);

	memset(f, 0, sizeof(*f));
	f->mono_ns = r->dec.mono;
	f->wall_ns = r->dec.wall;
	f->n = r->dec.n;
	f->v = r->dec.cur;
	f->name = r->dec.names ? (const char *const *)r->dec.name : NULL;
	f->config = r->dec.has_config ? r->dec.config : NULL;
	f->config_len = r->dec.config_len;
	f->flags = r->pending;
	if (!r->have_prev)
		f->flags = (f->flags & ~(NP_REC_F_GAP | NP_REC_F_RESTART)) | NP_REC_F_FIRST;
	else if (!(f->flags & NP_REC_F_RESTART)) {
		/* Monotonic time says how long it was: more than 2.5 intervals is a hole. */
		if (dm < 0 || dm > interval / 2 * 5)
			f->flags |= NP_REC_F_GAP;
		if (step > 500000000 || step < -500000000) {
			f->flags |= NP_REC_F_STEP;
			f->step_ns = step;
		}
	}
	if (f->flags & NP_REC_F_GAP && r->have_prev)
		f->gap_ns = dw;
	r->pending = 0;
	r->have_prev = true;
	r->prev_mono = r->dec.mono;
	r->prev_wall = r->dec.wall;
}

int np_rec_reader_next(struct np_rec_reader *r, struct np_rec_frame *f)
{
	for (;;) {
		enum np_rec_kind kind;
		int rc;

		if ((!r->p || r->p >= r->pend) && !np_rec_dec_queued(&r->dec)) {
			rc = next_block(r);
			if (rc <= 0)
				return rc;
		}
		rc = np_rec_get(&r->dec, &r->p, r->pend, &kind);
		if (rc == -ENOMEM)
			return rc;
		if (rc < 0) {
			/* Damaged inside despite its CRC (a bad writer): skip to a key block. */
			r->damaged++;
			r->pending |= NP_REC_F_GAP;
			r->streaming = false;
			r->p = r->pend;
			np_rec_dec_reset(&r->dec);
			continue;
		}
		if (kind == NP_REC_SCHEMA)
			r->pending |= NP_REC_F_SCHEMA;
		else if (kind == NP_REC_CONFIG)
			r->pending |= NP_REC_F_CONFIG;
		if (kind != NP_REC_KEY && kind != NP_REC_DELTA)
			continue;
		if (r->dec.wall < r->target) {
			/* Before the time asked: decoded for its deltas, not returned. */
			r->pending &= NP_REC_F_FIRST;
			continue;
		}
		r->target = INT64_MIN;
		fill(r, f);
		return 1;
	}
}

unsigned np_rec_reader_damaged(const struct np_rec_reader *r)
{
	return r->damaged;
}

void np_rec_reader_close(struct np_rec_reader *r)
{
	if (!r)
		return;
	if (r->fd >= 0)
		close(r->fd);
	if (r->dirfd >= 0)
		close(r->dirfd);
	if (r->z.state)
		inflateEnd(&r->z);
	np_rec_dec_free(&r->dec);
	np_rec_buf_free(&r->stored);
	np_rec_buf_free(&r->raw);
	free(r->blk);
	free(r->segs);
	free(r);
}

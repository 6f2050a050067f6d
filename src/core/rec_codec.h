/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The flight recorder's frame codec (doc/netpath-record-format.md, "records"): a frame is a
 * pair of timestamps and a vector of uint64 counters whose names (the schema) and the
 * configuration in force are written only when they change. Frames after a key frame are
 * second differences (per counter: this delta minus the previous delta) as zigzag varints,
 * with runs of zeros counted, since most counters are static or steady (format version 1);
 * since version 2 the frames after a key frame go by blocks, column by column, bit-packed
 * (rec_cols.h); version 3 packs each counter's distance from its running mean instead.
 * Pure: buffers in memory, no files, no compression (rec_block.c compresses).
 */
#ifndef NP_REC_CODEC_H
#define NP_REC_CODEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rec_cols.h"

enum np_rec_kind {
	NP_REC_SCHEMA = 1,	/* varint count, varint len, names NUL-terminated */
	NP_REC_CONFIG = 2,	/* varint len, opaque bytes */
	NP_REC_KEY = 3,		/* zz mono, zz wall, count varints */
	NP_REC_DELTA = 4,	/* zz ddmono, zz ddwall, count k, k zero runs, k zz values */
	NP_REC_COLS = 5,	/* version 2: varint m, m x (zz ddmono, zz ddwall), columns */
	NP_REC_RCOLS = 6,	/* version 3: as COLS, the columns from the running means */
};

/* Caps a reader enforces on what it is given (a file is untrusted input). */
#define NP_REC_MAX_COUNTERS (1u << 20)
#define NP_REC_MAX_BLOB (16u << 20)

struct np_rec_buf {
	uint8_t *p;
	size_t len, cap;
};

void np_rec_buf_free(struct np_rec_buf *b);
int np_rec_put_varint(struct np_rec_buf *b, uint64_t v);

static inline uint64_t np_zz(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static inline int64_t np_unzz(uint64_t v)
{
	return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

/* One varint from *p (before end) into *v: 0, or -EBADMSG when cut short or over 10 bytes. */
int np_rec_get_varint(const uint8_t **p, const uint8_t *end, uint64_t *v);

/* Writer side: the previous frame's values and deltas since the last key frame. */
struct np_rec_enc {
	uint64_t *prev;
	uint64_t *prevd;	/* each counter's difference before (version 3: its mean) */
	size_t n;
	int64_t pm, pw, pdm, pdw;
	bool have;		/* a frame since the last key frame (else the next is a key) */
	bool cols;		/* version 2: frames after the key wait for np_rec_enc_flush */
	bool mean;		/* version 3 (with cols): RCOLS records, running means */
	uint64_t *qv;		/* the waiting frames' values, qn rows of n */
	uint64_t *zz;		/* scratch for the flush: column-major second differences */
	int64_t qm[NP_REC_COLS_MAX_FRAMES], qw[NP_REC_COLS_MAX_FRAMES];	/* their times */
	size_t qn, qcap;
	size_t plain_at, plain_len;	/* the last flush's bit-packed bytes in its buffer */
};

void np_rec_enc_free(struct np_rec_enc *e);
/* Forget the previous frame: the next frame is written as a key frame. Frames waiting for
 * np_rec_enc_flush are dropped: flush them first. */
static inline void np_rec_enc_reset(struct np_rec_enc *e)
{
	e->have = false;
	e->qn = 0;
}
/* names: n names, each NUL-terminated, len bytes in all. 0 or -ENOMEM/-EINVAL. */
int np_rec_put_schema(struct np_rec_buf *b, const char *names, size_t len, size_t n);
int np_rec_put_config(struct np_rec_buf *b, const void *blob, size_t len);
/*
 * A frame of n counters: a key frame when e has no previous one (or n changed). With e->cols
 * (version 2) the frames after a key frame wait in e and go to b as one column record at
 * np_rec_enc_flush, or when NP_REC_COLS_MAX_FRAMES or NP_REC_COLS_MAX_VALUES are reached.
 */
int np_rec_put_frame(struct np_rec_enc *e, struct np_rec_buf *b, int64_t mono_ns,
		     int64_t wall_ns, const uint64_t *v, size_t n);
/* The waiting frames as one column record into b (nothing when none wait). Sets e->plain_at
 * and plain_len: the record's bit-packed part, which deflate cannot shrink. 0 or -ENOMEM. */
int np_rec_enc_flush(struct np_rec_enc *e, struct np_rec_buf *b);
/* The bytes the waiting frames hold (the writer's block-size check). */
static inline size_t np_rec_enc_pending(const struct np_rec_enc *e)
{
	return e->qn * e->n * 8;
}

/* Reader side: the state a stream rebuilds, record by record. */
struct np_rec_dec {
	uint64_t *val;		/* the current frame's counters (count of them: n) */
	uint64_t *d;		/* each counter's next difference (after a column record of
				 * version 3: its mean's prediction) */
	uint64_t *mean;		/* version 3: each counter's running mean (rec_cols.h) */
	uint32_t *pos;		/* scratch: the positions a delta record names */
	size_t n;
	int64_t mono, wall, dm, dw;
	bool have;		/* a frame to apply deltas to */
	bool rcols;		/* the column record being handed out is an RCOLS */
	unsigned version;	/* the stream's format version (0: any): DELTA records are of
				 * version 1 or 2, COLS of 2, RCOLS of 3 */
	const uint64_t *cur;	/* the frame just decoded (val) */
	uint64_t *q;		/* a column record's second differences: qk columns (their
				 * positions in pos) of qn frames */
	int64_t qm[NP_REC_COLS_MAX_FRAMES], qw[NP_REC_COLS_MAX_FRAMES];
	size_t qn, qi, qk, qcap;	/* frames, the next one to hand out, columns, room */
	char *names;		/* the schema in force: n names, NUL-terminated */
	size_t names_len;
	const char **name;	/* name[i] points into names */
	uint8_t *config;
	size_t config_len;
	bool has_config;
};

void np_rec_dec_free(struct np_rec_dec *d);
/* Forget the frame (a new stream): the schema and configuration stay in force. */
static inline void np_rec_dec_reset(struct np_rec_dec *d)
{
	d->have = false;
	d->qn = d->qi = 0;
}
/* Frames of a column record still to hand out: np_rec_get returns them without input. */
static inline bool np_rec_dec_queued(const struct np_rec_dec *d)
{
	return d->qi < d->qn;
}
/*
 * Decode one record from *p (advanced past it) into d; its kind into *kind (a column record's
 * frames come out one by one as NP_REC_DELTA, the later ones without reading *p: see
 * np_rec_dec_queued); d->cur is the frame's counters after a KEY or DELTA. 0, -EBADMSG for
 * anything malformed (a delta with no frame before it, a count that does not match the
 * schema, a truncated record), -ENOMEM. d stays usable after an error only after a reset.
 */
int np_rec_get(struct np_rec_dec *d, const uint8_t **p, const uint8_t *end,
	       enum np_rec_kind *kind);

#endif

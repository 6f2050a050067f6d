/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The flight recorder's files below the records (doc/netpath-record-format.md): a segment
 * header, then blocks, each a header with its length and a CRC-32 over header and payload, so
 * a reader stops at a torn tail and never trusts a damaged block. Payloads are raw deflate:
 * one stream from each key block, flushed (Z_SYNC_FLUSH) at the end of every block so a block
 * on disk decodes without the ones after it.
 */
#ifndef NP_REC_BLOCK_H
#define NP_REC_BLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <zlib.h>

#include "rec_codec.h"

/* 2: frames after a key frame in column records (rec_cols.h); 3: their values from each
 * counter's running mean (RCOLS records), key blocks hourly. Readers still read 1 and 2. */
#define NP_REC_VERSION 3
#define NP_REC_VERSION_MIN 1
#define NP_REC_SEG_HDR 64
#define NP_REC_BLK_HDR 48
#define NP_REC_BLK_MAX (8u << 20)	/* a block's payload, stored or raw */
#define NP_REC_SEG_SUFFIX ".nprec"

/* Segment flags. */
#define NP_REC_SEG_SESSION 1u	/* the first segment of a recorder's run: not continuous */

/* Block flags. */
#define NP_REC_BLK_KEY 1u	/* a new deflate stream and a key frame: a reader starts here */
#define NP_REC_BLK_SCHEMA 2u	/* holds a schema record (always a key block) */
#define NP_REC_BLK_CONFIG 4u	/* holds a configuration record (always a key block) */
#define NP_REC_BLK_DISCONT 8u	/* frames were lost before this block (disk full) */

struct np_rec_seghdr {
	uint64_t session;	/* random, one per recorder run */
	uint64_t seq;		/* the segment's number in its directory */
	int64_t wall_ns, mono_ns;	/* when the segment was started */
	uint32_t interval_ms;	/* the recorder's cadence */
	uint32_t flags;
	uint32_t version;	/* the format version (packing 0: NP_REC_VERSION) */
};

struct np_rec_blkhdr {
	uint32_t flags, stored, raw, nframes;
	int64_t first_wall, last_wall, last_mono;
};

void np_rec_seghdr_pack(const struct np_rec_seghdr *h, uint8_t out[NP_REC_SEG_HDR]);
/* -EBADMSG: not a segment, or its header is damaged; -ENOTSUP: a format version this build
 * does not read (any from NP_REC_VERSION_MIN to NP_REC_VERSION is read). */
int np_rec_seghdr_unpack(const uint8_t in[NP_REC_SEG_HDR], struct np_rec_seghdr *h);
/* The header of payload (h->stored bytes) with its CRC. */
void np_rec_blkhdr_pack(const struct np_rec_blkhdr *h, const uint8_t *payload,
			uint8_t out[NP_REC_BLK_HDR]);

/* "SEQ-WALLSEC.nprec": the name a segment gets, and its parse (false: not a segment). */
int np_rec_seg_name(char *out, size_t size, uint64_t seq, int64_t wall_ns);
bool np_rec_seg_parse(const char *name, uint64_t *seq, int64_t *wall_s);

/*
 * Walk the blocks of a segment (fd) from offset from (NP_REC_SEG_HDR: the first): cb (may be NULL) gets each
 * block whose header and CRC hold, with its payload; a nonzero return ends the walk with that
 * value. *end: the offset just past the last good block; *torn: the file goes on past it (a
 * block cut short by a crash, or damaged). Returns 0, cb's value, or -errno on a read error.
 */
/* The offset of the first good block after the bad bytes at off (damage in the middle, kept
 * for whoever looks into it), or -1 when none follows (a write a crash cut short, or one
 * under way). */
off_t np_rec_next_good(int fd, off_t off, off_t size);
typedef int (*np_rec_block_cb)(void *arg, const struct np_rec_blkhdr *h, off_t off,
			       const uint8_t *payload);
int np_rec_segment_walk(int fd, off_t from, off_t size, np_rec_block_cb cb, void *arg,
			off_t *end, bool *torn);
/* One block at off (header and payload, checked), payload into *buf (reallocated). */
int np_rec_block_read(int fd, off_t off, off_t size, struct np_rec_blkhdr *h,
		      struct np_rec_buf *buf);

/* Raw deflate for blocks: level as zlib's; reset at each key block. */
int np_rec_deflate_init(z_stream *z, int level);
/* Compress in (len) to the end of out, ending with a sync flush; the plain_len bytes at
 * plain_at (bit-packed noise) go in as stored, not compressed, since deflate would only
 * lengthen them (0, 0: none). 0 or -ENOMEM/-EIO. */
int np_rec_deflate_block(z_stream *z, int level, const uint8_t *in, size_t len,
			 size_t plain_at, size_t plain_len, struct np_rec_buf *out);
int np_rec_inflate_init(z_stream *z);
/* Inflate one block's payload into out (exactly raw bytes). 0 or -EBADMSG. */
int np_rec_inflate_block(z_stream *z, const uint8_t *in, size_t len, size_t raw,
			 struct np_rec_buf *out);

/* The segments of a store's directory, oldest (lowest seq) first. */
struct np_rec_seg {
	uint64_t seq;
	int64_t wall_s;		/* from its name: when it was started */
	uint64_t bytes;
	char name[48];
};

/*
 * Open a store's directory (O_DIRECTORY, no symlink at its end): with create, make it 0700
 * when missing. -EPERM when others could change what is in it: group- or world-writable
 * (sticky or not: the recording must be the recorder's alone), or owned by someone other
 * than root or the caller. err: one line.
 */
int np_rec_dir_open(const char *dir, bool create, int *dirfd, char *err, size_t errlen);
/* The segments in dirfd, by seq. 0 or -errno; *segs is freed by the caller. */
int np_rec_dir_list(int dirfd, struct np_rec_seg **segs, size_t *n);

#endif

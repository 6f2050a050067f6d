// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz the flight recorder's reader (rec_read.c, rec_block.c, rec_codec.c): the input is one
 * segment file in a scratch recording directory, read from the start and again from a seek
 * to a time taken from the input; the same bytes are also decoded as a bare record stream
 * (any version: DELTA, COLS and RCOLS records). Seeds in tests/fixtures/rec/ hold versions 1,
 * 2 and 3.
 * Invariants: the reader ends (bounded frames), frames stay within the caps, names are there
 * for every counter when a schema is, and every error is one the API documents.
 */
#include "fuzz.h"
#include "cleanup.h"
#include "rec_block.h"
#include "rec_codec.h"
#include "rec_store.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64];

static void remove_dir(void)
{
	np_rmtree(dir);
}

static void check_frame(const struct np_rec_frame *f)
{
	FUZZ_CHECK(f->n <= NP_REC_MAX_COUNTERS);
	FUZZ_CHECK(f->n == 0 || f->v);
	if (f->name)
		for (size_t i = 0; i < f->n; i++)
			FUZZ_CHECK(f->name[i]);
	FUZZ_CHECK(!f->config || f->config_len <= NP_REC_MAX_BLOB);
	FUZZ_CHECK(!(f->flags & ~63u));
}

static void read_dir(int64_t at)
{
	struct np_rec_reader *r = NULL;
	struct np_rec_frame f;
	char err[256];
	unsigned frames = 0;
	int rc;

	rc = np_rec_reader_open(dir, &r, err, sizeof(err));
	FUZZ_CHECK(rc == 0);
	for (int pass = 0; pass < 2; pass++) {
		if (pass)
			FUZZ_CHECK(np_rec_reader_seek(r, at) == 0);
		while ((rc = np_rec_reader_next(r, &f)) == 1) {
			check_frame(&f);
			FUZZ_CHECK(++frames < 1u << 22);
			FUZZ_CHECK(!pass || frames > 1 || f.flags & NP_REC_F_FIRST);
		}
		FUZZ_CHECK(rc == 0 || rc == -ENOMEM);
	}
	np_rec_reader_close(r);
}

static void decode_bare(const uint8_t *data, size_t size)
{
	struct np_rec_dec d = { 0 };
	const uint8_t *p = data, *end = data + size;
	enum np_rec_kind kind;
	int rc = 0;

	while (rc == 0 && (p < end || np_rec_dec_queued(&d))) {
		const uint8_t *before = p;
		bool queued = np_rec_dec_queued(&d);

		rc = np_rec_get(&d, &p, end, &kind);
		FUZZ_CHECK(rc == 0 || rc == -EBADMSG || rc == -ENOMEM);
		/* A column record's later frames come without input; anything else consumes. */
		FUZZ_CHECK(rc < 0 || (queued ? p == before : p > before && p <= end));
		FUZZ_CHECK(rc < 0 || kind != NP_REC_DELTA || d.n == 0 || d.cur);
	}
	np_rec_dec_free(&d);
}

/*
 * A CRC stops almost every mutation at the block header, so odd first bytes build a valid
 * segment instead: the rest of the input is records, cut into blocks at each 0xfe byte,
 * deflated, with flags from the byte after the cut. The reader then gets past the CRCs into
 * inflate, the records and the frames' flags. Bits 1-2 of the first byte choose the segment's
 * version: 0 is 2 (the seeds built before version 3), 1 and 3 are 3, 2 is 1.
 */
static size_t build_segment(uint8_t first, const uint8_t *data, size_t size,
			    struct np_rec_buf *seg)
{
	static const uint32_t version[4] = { 2, 3, 1, 3 };
	struct np_rec_seghdr sh = { .seq = 1, .interval_ms = 1000, .flags = NP_REC_SEG_SESSION,
				    .version = version[(first >> 1) & 3] };
	z_stream z;
	size_t pos = 0;
	uint32_t flags = NP_REC_BLK_KEY;

	FUZZ_CHECK(np_rec_deflate_init(&z, 1) == 0);
	FUZZ_CHECK(np_rec_put_varint(seg, 0) == 0 && seg->cap >= NP_REC_SEG_HDR);
	np_rec_seghdr_pack(&sh, seg->p);
	seg->len = NP_REC_SEG_HDR;
	while (pos < size) {
		const uint8_t *cut = memchr(data + pos, 0xfe, size - pos);
		size_t len = cut ? (size_t)(cut - (data + pos)) : size - pos, at;
		struct np_rec_blkhdr h = { .flags = flags, .raw = (uint32_t)len, .nframes = 1 };

		if (flags & NP_REC_BLK_KEY)
			deflateReset(&z);
		if (len) {
			while (seg->cap - seg->len < NP_REC_BLK_HDR)
				FUZZ_CHECK(np_rec_put_varint(seg, 0) == 0);
			at = seg->len;
			seg->len += NP_REC_BLK_HDR;
			FUZZ_CHECK(np_rec_deflate_block(&z, 6, data + pos, len, 0, 0, seg) == 0);
			h.stored = (uint32_t)(seg->len - at - NP_REC_BLK_HDR);
			h.first_wall = h.last_wall = (int64_t)pos * 1000000000;
			np_rec_blkhdr_pack(&h, seg->p + at + NP_REC_BLK_HDR, seg->p + at);
		}
		pos += len;
		if (pos < size)
			pos++;
		flags = pos < size ? data[pos] & 15 : 0;
		if (pos < size)
			pos++;
	}
	deflateEnd(&z);
	return seg->len;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct np_rec_buf seg = { 0 };

	char path[128];
	int64_t at = 0;
	int fd;

	if (!dir[0]) {
		struct stat sb;

		snprintf(dir, sizeof(dir), "%s/np-fuzz-rec.XXXXXX",
			 stat("/dev/shm", &sb) == 0 && S_ISDIR(sb.st_mode) ? "/dev/shm" : "/tmp");
		FUZZ_CHECK(mkdtemp(dir));
		atexit(remove_dir);
	}
	snprintf(path, sizeof(path), "%s/000000000001-0.nprec", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	FUZZ_CHECK(fd >= 0);
	if (size && (data[0] & 1)) {
		size_t n = build_segment(data[0], data + 1, size - 1, &seg);

		FUZZ_CHECK(write(fd, seg.p, n) == (ssize_t)n);
	} else {
		FUZZ_CHECK(!size || write(fd, data, size) == (ssize_t)size);
	}
	close(fd);
	/* The seek time: the first block's wall time field, moved by the input's last byte. */
	if (size >= 64 + 32)
		memcpy(&at, data + 64 + 24, sizeof(at));
	if (size)
		at = (int64_t)((uint64_t)at + (uint64_t)(data[size - 1] % 16) * 1000000000u);
	read_dir(at);
	decode_bare(data, size);
	np_rec_buf_free(&seg);
	return 0;
}

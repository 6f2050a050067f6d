/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The tar stream parser behind np_tar_extract, without I/O: fed 512-byte blocks, it verifies
 * header checksums, folds pax ('x') and GNU long-name ('L', 'K') headers into the member that
 * follows, and hands out one member at a time. The caller consumes each member's data itself.
 * Also the path rules extraction applies. What tests/fuzz/fuzz_tar.c drives.
 */
#ifndef NP_TAR_PARSE_H
#define NP_TAR_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NP_TAR_BLOCK 512
/* A pax or GNU long-name header's own data above this is refused (real ones are < 1 KiB). */
#define NP_TAR_META_MAX (1u << 20)

enum np_tar_type {
	NP_TAR_FILE,		/* '0', '\0', '7' (contiguous) */
	NP_TAR_DIR,		/* '5', or an old-style regular entry whose name ends in '/' */
	NP_TAR_SYMLINK,		/* '2' */
	NP_TAR_HARDLINK,	/* '1' */
	NP_TAR_OTHER,		/* devices, FIFOs, GNU sparse/dumpdir/volume, unknown types */
};

struct np_tar_member {
	const char *path;	/* as in the archive (np_tar_clean_path makes it safe) */
	const char *linkpath;	/* link target, "" when none */
	enum np_tar_type type;
	char typeflag;		/* the header's own type byte */
	uint64_t size;		/* the size field, a pax size record applied */
	uint64_t data;		/* bytes of data after the header, before padding to 512 */
	unsigned mode;
	int64_t mtime;
	uint64_t offset;	/* where the member's first header starts (its pax header, if any) */
};

enum np_tar_step {
	NP_TAR_MORE,		/* block taken (metadata); feed the next one */
	NP_TAR_MEMBER,		/* p->m is the next member; consume its data, then np_tar_parse_skip */
	NP_TAR_END,		/* end-of-archive block */
};

struct np_tar_parser {
	uint64_t offset;	/* stream offset of the next block */
	bool ended;
	bool in_member;		/* NP_TAR_MEMBER returned, np_tar_parse_skip not yet called */
	/* A pax / GNU header's data being collected. */
	char meta_type;
	uint8_t *meta;
	uint64_t meta_len, meta_size, meta_blocks;
	/* GNU old sparse: extension blocks still to come before the member is complete. */
	bool sparse_ext;
	/* Overrides for the next member from pax and GNU headers, and where its group began. */
	char *ov_path, *ov_link;
	bool ov_have_size, pending;
	uint64_t ov_size, group_offset;
	/* The member handed out; its strings point here or at the overrides. */
	char name[100 + 1 + 155 + 1], link[100 + 1];
	struct np_tar_member m;
};

void np_tar_parser_init(struct np_tar_parser *p);
void np_tar_parser_free(struct np_tar_parser *p);
/*
 * Feed the next block. NP_TAR_MORE / NP_TAR_MEMBER / NP_TAR_END, or with a one-line reason in
 * err: -EBADMSG (bad checksum naming the header's offset, bad number field, malformed pax
 * record, a member after the end), -EFBIG (a pax/GNU header above NP_TAR_META_MAX), -ENOMEM,
 * -EINVAL (a block fed while member data is still owed).
 */
int np_tar_parse_block(struct np_tar_parser *p, const uint8_t *blk, char *err, size_t errlen);
/* The member's data (and padding) was consumed: account for bytes (np_tar_padded(m.data)). */
void np_tar_parse_skip(struct np_tar_parser *p, uint64_t bytes);
/* n rounded up to whole blocks (UINT64_MAX when that overflows). */
uint64_t np_tar_padded(uint64_t n);
/*
 * The input ended (partial: bytes of an incomplete block left over). 0 after the end-of-archive
 * block, else -EBADMSG "truncated ..." in err.
 */
int np_tar_parse_eof(const struct np_tar_parser *p, size_t partial, char *err, size_t errlen);

/* True when blk is a tar header with a valid checksum (format detection). */
bool np_tar_is_header(const uint8_t *blk);

/*
 * Make an archive path safe to create below a directory: drop leading "./" (and "." and empty
 * components anywhere), a trailing '/'. 0 with the result in out; 1 when nothing is left (the
 * archive's top "./"); -EPERM for an absolute path or a ".." component; -ELOOP when deeper than
 * NP_TAR_MAX_DEPTH components; -ENAMETOOLONG when out is too small or a component exceeds 255.
 * in and out must not overlap.
 */
int np_tar_clean_path(const char *in, char *out, size_t size);

#endif

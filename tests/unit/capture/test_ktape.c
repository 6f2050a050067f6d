// SPDX-License-Identifier: GPL-2.0-only
/* The kernel tape: record, save, load, replay; netlink restamping; caps; damaged files. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <linux/netlink.h>

#include "ktape.h"

/* A netlink request or reply message: header, then len bytes of payload. */
static size_t nlmsg(uint8_t *buf, uint16_t type, uint32_t seq, uint32_t pid, uint8_t fill,
		    size_t len)
{
	struct nlmsghdr h = { .nlmsg_len = (uint32_t)NLMSG_LENGTH(len), .nlmsg_type = type,
			      .nlmsg_seq = seq, .nlmsg_pid = pid };

	memcpy(buf, &h, sizeof(h));
	memset(buf + NLMSG_HDRLEN, fill, len);
	return NLMSG_ALIGN(h.nlmsg_len);
}

static void record_two(struct np_ktape *t)
{
	uint8_t req[64], rep[128];
	size_t rl = nlmsg(req, 20, 1000, 4242, 0xaa, 8);
	size_t n = nlmsg(rep, 20, 1000, 4242, 0x11, 16);

	n += nlmsg(rep + n, NLMSG_DONE, 1000, 4242, 0, 4);
	np_ktape_begin(t, NP_KT_GENL, req, rl);
	np_ktape_chunk(t, rep, n);
	np_ktape_end(t, 0);
	/* A second request, different bytes, answered by an error. */
	rl = nlmsg(req, 20, 1001, 4242, 0xbb, 8);
	np_ktape_begin(t, NP_KT_GENL, req, rl);
	np_ktape_end(t, -ETIMEDOUT);
}

static void round_trip_and_replay(void **state)
{
	struct np_ktape rec, play;
	struct np_ktape_play p;
	uint8_t req[64], buf[256];
	struct nlmsghdr h;
	char *file;
	size_t len, rl;
	ssize_t n;

	(void)state;
	np_ktape_init(&rec, true);
	record_two(&rec);
	assert_int_equal(rec.n, 2);
	assert_int_equal(np_ktape_save(&rec, &file, &len), 0);
	assert_int_equal(np_ktape_load(&play, file, len), 0);
	assert_int_equal(play.n, 2);

	/* Another run asks the same with its own sequence number and port: found. */
	rl = nlmsg(req, 20, 77, 99, 0xaa, 8);
	assert_int_equal(np_ktape_find(&play, NP_KT_GENL, req, rl, &p), 0);
	n = np_ktape_next(&p, buf, sizeof(buf), 77);
	assert_true(n > 0);
	memcpy(&h, buf, sizeof(h));
	assert_int_equal(h.nlmsg_seq, 77);		/* restamped for this request */
	assert_int_equal(h.nlmsg_pid, 0);
	memcpy(&h, buf + NLMSG_ALIGN(h.nlmsg_len), sizeof(h));
	assert_int_equal(h.nlmsg_type, NLMSG_DONE);
	assert_int_equal(h.nlmsg_seq, 77);		/* every message of the chunk */
	assert_int_equal(np_ktape_next(&p, buf, sizeof(buf), 77), -ENODATA);
	/* Each exchange answers once: a second identical request finds nothing. */
	assert_int_equal(np_ktape_find(&play, NP_KT_GENL, req, rl, &p), -ENOENT);
	/* The recorded error comes back. */
	rl = nlmsg(req, 20, 78, 99, 0xbb, 8);
	assert_int_equal(np_ktape_find(&play, NP_KT_GENL, req, rl, &p), 0);
	assert_int_equal(np_ktape_next(&p, buf, sizeof(buf), 78), -ETIMEDOUT);
	/* Another bus, or other bytes: not the same request. */
	rl = nlmsg(req, 20, 79, 99, 0xcc, 8);
	assert_int_equal(np_ktape_find(&play, NP_KT_GENL, req, rl, &p), -ENOENT);
	assert_int_equal(np_ktape_find(&play, NP_KT_RTNL, req, rl, &p), -ENOENT);
	free(file);
	np_ktape_free(&rec);
	np_ktape_free(&play);
}

/* history judges many windows on one replayed configuration: the answers handed out when
 * it was opened are put back before each, so every window collects what the first did. */
static void answers_put_back(void **state)
{
	struct np_ktape rec, play;
	struct np_ktape_play p;
	uint8_t a[64], b[64];
	size_t la = nlmsg(a, 20, 5, 6, 0xaa, 8), lb = nlmsg(b, 20, 7, 6, 0xbb, 8), len;
	bool *opened;
	char *file;

	(void)state;
	np_ktape_init(&rec, true);
	record_two(&rec);
	assert_int_equal(np_ktape_save(&rec, &file, &len), 0);
	assert_int_equal(np_ktape_load(&play, file, len), 0);
	assert_int_equal(np_ktape_find(&play, NP_KT_GENL, a, la, &p), 0);	/* at open */
	opened = np_ktape_used(&play);
	assert_non_null(opened);
	assert_true(opened[0]);
	assert_false(opened[1]);
	/* A window's collection takes the other answer... */
	assert_int_equal(np_ktape_find(&play, NP_KT_GENL, b, lb, &p), 0);
	assert_int_equal(np_ktape_find(&play, NP_KT_GENL, b, lb, &p), -ENOENT);
	/* ...which the next window finds again; the one taken at open stays taken. */
	np_ktape_set_used(&play, opened);
	assert_int_equal(np_ktape_find(&play, NP_KT_GENL, b, lb, &p), 0);
	assert_int_equal(np_ktape_find(&play, NP_KT_GENL, a, la, &p), -ENOENT);
	free(opened);
	free(file);
	np_ktape_free(&rec);
	np_ktape_free(&play);
}

static void small_buffer_refused(void **state)
{
	struct np_ktape rec, play;
	struct np_ktape_play p;
	uint8_t req[64], buf[8];
	char *file;
	size_t len, rl;

	(void)state;
	np_ktape_init(&rec, true);
	record_two(&rec);
	assert_int_equal(np_ktape_save(&rec, &file, &len), 0);
	assert_int_equal(np_ktape_load(&play, file, len), 0);
	rl = nlmsg(req, 20, 5, 5, 0xaa, 8);
	assert_int_equal(np_ktape_find(&play, NP_KT_GENL, req, rl, &p), 0);
	/* A recorded chunk never overruns the caller's buffer. */
	assert_int_equal(np_ktape_next(&p, buf, sizeof(buf), 5), -EMSGSIZE);
	free(file);
	np_ktape_free(&rec);
	np_ktape_free(&play);
}

static void ioctl_exchange(void **state)
{
	struct np_ktape rec, play;
	struct np_ktape_play p;
	uint8_t key[24] = "eth0", in[8] = { 1 }, out[8] = { 1, 2, 3, 4, 5, 6, 7, 8 }, got[8];
	char *file;
	size_t len;

	(void)state;
	memcpy(key + 16, in, sizeof(in));
	np_ktape_init(&rec, true);
	np_ktape_begin(&rec, NP_KT_ETHTOOL_IOCTL, key, sizeof(key));
	np_ktape_chunk(&rec, out, sizeof(out));
	np_ktape_end(&rec, 0);
	assert_int_equal(np_ktape_save(&rec, &file, &len), 0);
	assert_int_equal(np_ktape_load(&play, file, len), 0);
	assert_int_equal(np_ktape_find(&play, NP_KT_ETHTOOL_IOCTL, key, sizeof(key), &p), 0);
	/* The caller's buffer must be the recorded size exactly. */
	assert_int_equal(np_ktape_ioctl(&p, got, 4), -EBADMSG);
	assert_int_equal(np_ktape_ioctl(&p, got, sizeof(got)), 0);
	assert_memory_equal(got, out, sizeof(out));
	free(file);
	np_ktape_free(&rec);
	np_ktape_free(&play);
}

static void socket_dumps_capped(void **state)
{
	struct np_ktape rec, play;
	struct np_ktape_play p;
	static uint8_t big[NP_KTAPE_MAX_CHUNK / 2];
	uint8_t req[64], buf[NP_KTAPE_MAX_CHUNK];
	struct nlmsghdr h;
	char *file;
	size_t len, rl = nlmsg(req, 20, 1, 1, 0x5a, 8);
	unsigned kept = 0;

	(void)state;
	nlmsg(big, 20, 1, 1, 0x33, sizeof(big) - NLMSG_HDRLEN);
	np_ktape_init(&rec, true);
	np_ktape_begin(&rec, NP_KT_SOCK_DIAG, req, rl);
	for (unsigned i = 0; i < 2 * (NP_KTAPE_SOCK_BYTES / sizeof(big)); i++)
		np_ktape_chunk(&rec, big, sizeof(big));
	np_ktape_end(&rec, 0);
	assert_int_equal(rec.capped, 1);
	assert_true(rec.sock_bytes <= NP_KTAPE_SOCK_BYTES);
	assert_int_equal(np_ktape_save(&rec, &file, &len), 0);
	assert_int_equal(np_ktape_load(&play, file, len), 0);
	assert_int_equal(np_ktape_find(&play, NP_KT_SOCK_DIAG, req, rl, &p), 0);
	while (np_ktape_next(&p, buf, sizeof(buf), 9) == (ssize_t)sizeof(big))
		kept++;
	assert_int_equal(kept, NP_KTAPE_SOCK_BYTES / sizeof(big));
	/* After what was kept, the dump ends: an NLMSG_DONE made for the cut. */
	memcpy(&h, buf, sizeof(h));
	assert_int_equal(h.nlmsg_type, NLMSG_DONE);
	assert_int_equal(h.nlmsg_seq, 9);
	free(file);
	np_ktape_free(&rec);
	np_ktape_free(&play);
}

static void damaged_files(void **state)
{
	struct np_ktape rec, t;
	char *file;
	size_t len;

	(void)state;
	np_ktape_init(&rec, true);
	record_two(&rec);
	assert_int_equal(np_ktape_save(&rec, &file, &len), 0);
	/* Every truncation inside an exchange is refused, never half-loaded; only the magic
	 * alone (an empty tape) and the end of the first exchange load. */
	{
		unsigned whole = 0;

		for (size_t cut = 0; cut < len; cut++) {
			int e = np_ktape_load(&t, file, cut);

			if (e == 0) {
				assert_int_equal(t.n, whole);
				whole++;
			} else {
				assert_int_equal(e, -EBADMSG);
				assert_int_equal(t.n, 0);
			}
			np_ktape_free(&t);
		}
		assert_int_equal(whole, 2);
	}
	/* A bad bus number, a positive error, a lying chunk count. */
	file[8] = 9;
	assert_int_equal(np_ktape_load(&t, file, len), -EBADMSG);
	file[8] = NP_KT_GENL;
	file[16] = 5;
	assert_int_equal(np_ktape_load(&t, file, len), -EBADMSG);
	file[16] = 0;
	assert_int_equal(np_ktape_load(&t, file, len), 0);
	np_ktape_free(&t);
	memcpy(file, "NPKTAPE2", 8);
	assert_int_equal(np_ktape_load(&t, file, len), -EBADMSG);
	free(file);
	np_ktape_free(&rec);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(round_trip_and_replay),
		cmocka_unit_test(answers_put_back),
		cmocka_unit_test(small_buffer_refused),
		cmocka_unit_test(ioctl_exchange),
		cmocka_unit_test(socket_dumps_capped),
		cmocka_unit_test(damaged_files),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

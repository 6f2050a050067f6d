// SPDX-License-Identifier: GPL-2.0-only
/* The netlink transport's kernel tape: an exchange recorded through the transport replays
 * through it with the same bytes, renumbered for the new request; what the tape lacks, and
 * how the transport ended a reply (a timeout), come back the same way. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>

#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "nl_transport.h"

static const struct np_nl_bus bus = {
	.name = "test", .protocol = NETLINK_ROUTE, .tape_bus = NP_KT_RTNL,
	.bufsize = 4096, .timeout_ms = 1000, .deadline_s = 5.0,
};

/* The "kernel": two buffers, a RTM_NEWLINK then NLMSG_DONE, then silence. */
struct kernel {
	unsigned calls;
};

static ssize_t kernel_fn(void *arg, const struct nlmsghdr *req, void *buf, size_t size)
{
	struct kernel *k = arg;
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);

	(void)size;
	if (k->calls++ >= 2)
		return 0;
	nlh->nlmsg_type = k->calls == 1 ? RTM_NEWLINK : NLMSG_DONE;
	nlh->nlmsg_flags = NLM_F_MULTI;
	nlh->nlmsg_seq = req->nlmsg_seq;
	mnl_nlmsg_put_extra_header(nlh, 16);
	return nlh->nlmsg_len;
}

/* Remembers what it was fed: types in order and the sequence numbers seen. */
struct seen {
	uint16_t type[4];
	uint32_t seq[4];
	unsigned n;
	bool until_done;	/* false: want more until the transport gives up */
};

static int feed(void *arg, const void *buf, size_t len)
{
	struct seen *s = arg;
	const struct nlmsghdr *nlh = buf;

	assert_true(len >= sizeof(*nlh));
	if (s->n < 4) {
		s->type[s->n] = nlh->nlmsg_type;
		s->seq[s->n] = nlh->nlmsg_seq;
	}
	s->n++;
	return s->until_done && nlh->nlmsg_type == NLMSG_DONE ? 0 : 1;
}

static struct nlmsghdr *dump_request(struct np_nl *t)
{
	struct nlmsghdr *nlh = np_nl_request(t, RTM_GETLINK, NLM_F_DUMP);
	struct ifinfomsg *ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));

	ifi->ifi_family = AF_UNSPEC;
	return nlh;
}

static void record_then_replay(void **state)
{
	struct kernel k = { 0 };
	struct seen rec = { .until_done = true }, play = { .until_done = true };
	struct np_ktape tape;
	struct nlmsghdr *req;
	struct np_nl t;

	(void)state;
	np_ktape_init(&tape, true);
	assert_int_equal(np_nl_open_replay(&t, &bus, kernel_fn, &k), 0);
	t.tape = &tape;		/* what np_nl_open does with a live tape, minus the socket */
	assert_int_equal(np_nl_exchange(&t, dump_request(&t), feed, &rec), 0);
	np_nl_close(&t);
	assert_int_equal(rec.n, 2);
	assert_int_equal(tape.n, 1);
	assert_int_equal(tape.x[0].nchunks, 2);
	assert_int_equal(tape.x[0].err, 0);

	/* Replay: no socket, the same two buffers numbered for this request. */
	tape.recording = false;
	assert_int_equal(np_nl_open(&t, &bus, &tape), 0);
	assert_null(t.nl);
	t.seq += 1000;
	req = dump_request(&t);
	assert_int_equal(np_nl_exchange(&t, req, feed, &play), 0);
	assert_int_equal(play.n, 2);
	assert_int_equal(play.type[0], RTM_NEWLINK);
	assert_int_equal(play.type[1], NLMSG_DONE);
	assert_int_equal(play.seq[0], req->nlmsg_seq);
	assert_int_equal(play.seq[1], req->nlmsg_seq);
	/* Used up: the same request again, or another one, was not captured. */
	assert_int_equal(np_nl_exchange(&t, dump_request(&t), feed, &play), -ENODATA);
	np_nl_close(&t);
	np_ktape_free(&tape);
}

/* A reply the transport ended (the kernel fell silent) is filed with its error and replays
 * to the same end after the same buffers. */
static void timeout_recorded(void **state)
{
	struct kernel k = { 0 };
	struct seen rec = { .until_done = false }, play = { .until_done = false };
	struct np_ktape tape;
	struct np_nl t;

	(void)state;
	np_ktape_init(&tape, true);
	assert_int_equal(np_nl_open_replay(&t, &bus, kernel_fn, &k), 0);
	t.tape = &tape;
	assert_int_equal(np_nl_exchange(&t, dump_request(&t), feed, &rec), -ETIMEDOUT);
	np_nl_close(&t);
	assert_int_equal(rec.n, 2);
	assert_int_equal(tape.x[0].err, -ETIMEDOUT);

	tape.recording = false;
	assert_int_equal(np_nl_open(&t, &bus, &tape), 0);
	assert_int_equal(np_nl_exchange(&t, dump_request(&t), feed, &play), -ETIMEDOUT);
	assert_int_equal(play.n, 2);
	np_nl_close(&t);
	np_ktape_free(&tape);
}

/* A reopened transport keeps its replay seam and tap, and numbers requests on. */
static unsigned taps;

static void tap_fn(void *arg, const struct nlmsghdr *req, const void *buf, size_t len)
{
	(void)arg;
	(void)req;
	(void)buf;
	(void)len;
	taps++;
}

static void reopen_keeps_seams(void **state)
{
	struct kernel k = { 0 };
	struct seen s = { .until_done = true };
	struct np_nl t;

	(void)state;
	assert_int_equal(np_nl_open_replay(&t, &bus, kernel_fn, &k), 0);
	t.tap = tap_fn;
	assert_int_equal(np_nl_reopen(&t), 0);
	assert_ptr_equal(t.bus, &bus);
	assert_int_equal(np_nl_exchange(&t, dump_request(&t), feed, &s), 0);
	assert_int_equal(k.calls, 2);
	assert_int_equal(taps, 2);
	np_nl_close(&t);
}

/*
 * A busy host's dumps: the "kernel" answers dump number i with links 1..n_i, ending in DONE;
 * the first `intr` dumps have NLM_F_DUMP_INTR on message `intr_at` (0: the first link, n_i: the
 * DONE), the first `overrun` receives fail with ENOBUFS. The walker keeps the ifindexes it
 * sees; np_nl_dump() must hand back the first clean dump alone, never a broken one.
 */
struct busy {
	unsigned intr, intr_at, overrun;
	unsigned dumps, recvs, resets;
	uint32_t seq;		/* of the request being answered */
	unsigned sent;		/* messages of it sent so far */
	uint32_t want;		/* the request the walker expects replies to */
	int links[8];
	unsigned nlinks;
};

static unsigned links_in(unsigned dump)
{
	return dump == 1 ? 3 : 2;	/* the table changed: the broken dump saw one more */
}

static ssize_t busy_kernel(void *arg, const struct nlmsghdr *req, void *buf, size_t size)
{
	struct busy *b = arg;
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	unsigned n;

	(void)size;
	b->recvs++;
	if (req->nlmsg_seq != b->seq) {
		b->seq = req->nlmsg_seq;
		b->sent = 0;
		b->dumps++;
		if (b->dumps <= b->overrun)
			return -ENOBUFS;
	}
	n = links_in(b->dumps);
	if (b->sent > n)
		return 0;	/* after DONE: silence */
	nlh->nlmsg_type = b->sent < n ? RTM_NEWLINK : NLMSG_DONE;
	nlh->nlmsg_flags = NLM_F_MULTI;
	if (b->dumps <= b->intr && b->sent == (b->intr_at < n ? b->intr_at : n))
		nlh->nlmsg_flags |= NLM_F_DUMP_INTR;
	nlh->nlmsg_seq = req->nlmsg_seq;
	if (b->sent < n) {
		struct ifinfomsg *ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));

		ifi->ifi_index = (int)b->sent + 1;
	} else {
		*(int *)mnl_nlmsg_put_extra_header(nlh, sizeof(int)) = 0;
	}
	b->sent++;
	return nlh->nlmsg_len;
}

static int busy_feed(void *arg, const void *buf, size_t len)
{
	struct busy *b = arg;
	const struct nlmsghdr *nlh = buf;

	assert_true(len >= sizeof(*nlh));
	assert_int_equal(nlh->nlmsg_seq, b->want);	/* the walker follows the new request */
	if (nlh->nlmsg_type == NLMSG_DONE)
		return 0;
	assert_true(b->nlinks < 8);
	b->links[b->nlinks++] = ((const struct ifinfomsg *)NLMSG_DATA(nlh))->ifi_index;
	return 1;
}

static void busy_reset(void *arg, const struct nlmsghdr *req)
{
	struct busy *b = arg;

	assert_int_not_equal(req->nlmsg_seq, b->want);	/* numbered anew */
	b->want = req->nlmsg_seq;
	b->resets++;
	b->nlinks = 0;
}

/* The clean dump's table: links 1 and 2, nothing kept of a broken dump. */
static void assert_clean_table(const struct busy *b)
{
	assert_int_equal(b->nlinks, 2);
	assert_int_equal(b->links[0], 1);
	assert_int_equal(b->links[1], 2);
}

/* A dump request, the walker told to expect its replies. */
static struct nlmsghdr *busy_request(struct np_nl *t, struct busy *b)
{
	struct nlmsghdr *req = dump_request(t);

	b->want = req->nlmsg_seq;
	return req;
}

static int run_busy(struct busy *b)
{
	struct np_nl t;
	int ret;

	assert_int_equal(np_nl_open_replay(&t, &bus, busy_kernel, b), 0);
	ret = np_nl_dump(&t, busy_request(&t, b), busy_feed, busy_reset, b);
	np_nl_close(&t);
	return ret;
}

static void dump_intr_on_done_restarts(void **state)
{
	struct busy b = { .intr = 1, .intr_at = 99 };	/* on the DONE */

	(void)state;
	assert_int_equal(run_busy(&b), 0);
	assert_int_equal(b.dumps, 2);
	assert_int_equal(b.resets, 1);
	assert_clean_table(&b);
}

static void dump_intr_midway_restarts(void **state)
{
	/* The kernel flags the message it wrote when it saw the change, not the DONE. */
	struct busy b = { .intr = 2, .intr_at = 1 };

	(void)state;
	assert_int_equal(run_busy(&b), 0);
	assert_int_equal(b.dumps, 3);
	assert_int_equal(b.resets, 2);
	assert_clean_table(&b);
}

static void dump_intr_every_time_fails(void **state)
{
	struct busy b = { .intr = 1000, .intr_at = 99 };

	(void)state;
	assert_int_equal(run_busy(&b), -EAGAIN);
	assert_int_equal(b.dumps, NP_NL_DUMP_TRIES);
	assert_int_equal(b.resets, NP_NL_DUMP_TRIES - 1);
}

static void dump_overrun_restarts(void **state)
{
	struct busy b = { .overrun = 1 };

	(void)state;
	assert_int_equal(run_busy(&b), 0);
	assert_int_equal(b.dumps, 2);
	assert_clean_table(&b);
	b = (struct busy){ .overrun = 1000 };
	assert_int_equal(run_busy(&b), -ENOBUFS);
	assert_int_equal(b.dumps, NP_NL_DUMP_TRIES);
}

/* A clean dump is asked once; a plain exchange reports the flag too. */
static void dump_clean_once(void **state)
{
	struct busy b = { 0 };
	struct np_nl t;

	(void)state;
	assert_int_equal(run_busy(&b), 0);
	assert_int_equal(b.dumps, 1);
	assert_int_equal(b.resets, 0);
	b = (struct busy){ .intr = 1, .intr_at = 0 };
	assert_int_equal(np_nl_open_replay(&t, &bus, busy_kernel, &b), 0);
	assert_int_equal(np_nl_exchange(&t, busy_request(&t, &b), busy_feed, &b), 0);
	assert_true(t.dump_intr);
	np_nl_close(&t);
}

/* Through a capture: the interrupted dump and the clean one recorded, replayed in order. */
static void dump_intr_recorded(void **state)
{
	struct busy b = { .intr = 1, .intr_at = 1 };
	struct np_ktape tape;
	struct np_nl t;

	(void)state;
	np_ktape_init(&tape, true);
	/* Recording without a socket: the replay seam answers, the tape keeps. */
	assert_int_equal(np_nl_open_replay(&t, &bus, busy_kernel, &b), 0);
	t.tape = &tape;
	assert_int_equal(np_nl_exchange(&t, busy_request(&t, &b), busy_feed, &b), 0);
	assert_true(t.dump_intr);
	b.nlinks = 0;
	assert_int_equal(np_nl_exchange(&t, busy_request(&t, &b), busy_feed, &b), 0);
	assert_false(t.dump_intr);
	np_nl_close(&t);
	assert_int_equal(tape.n, 2);

	tape.recording = false;
	b = (struct busy){ 0 };
	assert_int_equal(np_nl_open(&t, &bus, &tape), 0);
	assert_int_equal(np_nl_dump(&t, busy_request(&t, &b), busy_feed, busy_reset, &b), 0);
	assert_int_equal(b.resets, 1);
	assert_clean_table(&b);
	np_nl_close(&t);
	np_ktape_free(&tape);
}

/* A closed transport's buffer serves the next one opened when it is large enough (a doctor run
 * opens four, one after another); a larger bus gets a buffer of its own size, which is then the
 * one kept. Every buffer is whole: a reply as large as the bus allows still fits with its
 * request. */
static void buffer_reused_between_transports(void **state)
{
	static const struct np_nl_bus big = {
		.name = "big", .protocol = NETLINK_ROUTE, .tape_bus = NP_KT_RTNL,
		.bufsize = 3 * 4096, .timeout_ms = 1000, .deadline_s = 5.0,
	};
	struct np_nl a, b, c;
	char *first, *second;

	(void)state;
	assert_int_equal(np_nl_open_replay(&a, &big, kernel_fn, NULL), 0);
	first = a.buf;
	assert_true(a.bufcap >= big.bufsize + NP_NL_REQSIZE);
	memset(a.buf, 0x5a, a.bufcap);		/* all of it is ours (ASan would say otherwise) */
	np_nl_close(&a);
	/* Smaller: the big one, with its capacity. */
	assert_int_equal(np_nl_open_replay(&b, &bus, kernel_fn, NULL), 0);
	assert_ptr_equal(b.buf, first);
	assert_true(b.bufcap >= big.bufsize + NP_NL_REQSIZE);
	/* Open at the same time: a buffer of its own. */
	assert_int_equal(np_nl_open_replay(&c, &bus, kernel_fn, NULL), 0);
	second = c.buf;
	assert_ptr_not_equal(second, first);
	assert_true(c.bufcap >= bus.bufsize + NP_NL_REQSIZE);
	memset(c.buf, 0x5a, c.bufcap);
	np_nl_close(&c);
	np_nl_close(&b);	/* the larger is kept over the smaller */
	assert_int_equal(np_nl_open_replay(&a, &big, kernel_fn, NULL), 0);
	assert_ptr_equal(a.buf, first);
	np_nl_close(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(record_then_replay),
		cmocka_unit_test(timeout_recorded),
		cmocka_unit_test(reopen_keeps_seams),
		cmocka_unit_test(dump_intr_on_done_restarts),
		cmocka_unit_test(dump_intr_midway_restarts),
		cmocka_unit_test(dump_intr_every_time_fails),
		cmocka_unit_test(dump_overrun_restarts),
		cmocka_unit_test(dump_clean_once),
		cmocka_unit_test(dump_intr_recorded),
		cmocka_unit_test(buffer_reused_between_transports),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

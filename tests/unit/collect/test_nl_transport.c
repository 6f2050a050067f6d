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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(record_then_replay),
		cmocka_unit_test(timeout_recorded),
		cmocka_unit_test(reopen_keeps_seams),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0-only
/* The netlink transport: socket, numbered requests, the bounded receive loop, tape and seams. */
#include "clock.h"
#include "log.h"
#include "nl_transport.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <linux/netlink.h>

/* What receive() returns for a buffer another process sent us: skipped, never a reply. */
#define FOREIGN 0

static bool replaying(const struct np_nl *t)
{
	return t->tape && !t->tape->recording;
}

static bool recording(const struct np_nl *t)
{
	return t->tape && t->tape->recording;
}

static struct mnl_socket *socket_open(const struct np_nl_bus *bus, int *err)
{
	struct timeval tv = { bus->timeout_ms / 1000, (bus->timeout_ms % 1000) * 1000 };
	struct mnl_socket *nl = mnl_socket_open2(bus->protocol, SOCK_CLOEXEC);
	int one = 1;

	if (!nl) {
		*err = -errno;
		return NULL;
	}
	/* All best effort: older kernels lack them and still answer. CAP_ACK keeps the kernel
	 * from echoing our request back in every error; strict checking makes rtnetlink's dumps
	 * honour the filters we send (and refuse what it does not understand). */
	if (mnl_socket_setsockopt(nl, NETLINK_EXT_ACK, &one, sizeof(one)) < 0)
		np_dbg("%s: NETLINK_EXT_ACK: %s", bus->name, strerror(errno));
	if (mnl_socket_setsockopt(nl, NETLINK_CAP_ACK, &one, sizeof(one)) < 0)
		np_dbg("%s: NETLINK_CAP_ACK: %s", bus->name, strerror(errno));
	if (bus->protocol == NETLINK_ROUTE &&
	    mnl_socket_setsockopt(nl, NETLINK_GET_STRICT_CHK, &one, sizeof(one)) < 0)
		np_dbg("%s: NETLINK_GET_STRICT_CHK: %s", bus->name, strerror(errno));
	if (setsockopt(mnl_socket_get_fd(nl), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0 ||
	    mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		*err = -errno;
		mnl_socket_close(nl);
		return NULL;
	}
	return nl;
}

/*
 * The buffer of the last transport closed, kept for the next one opened. A doctor run opens
 * four transports one after another, each with a buffer of 64 or 128 KB: from glibc's mmap or
 * a fresh stretch of heap, whose pages the kernel's replies fault in again each time (issue
 * #35). netpath is single-threaded; the one kept is reachable, not leaked.
 */
static struct {
	char *buf;
	size_t size;
} spare;

static char *buf_take(size_t size, size_t *cap)
{
	char *b;

	if (spare.buf && spare.size >= size) {
		b = spare.buf;
		*cap = spare.size;
		spare.buf = NULL;
		return b;
	}
	*cap = size;
	return malloc(size);
}

static void buf_give(char *buf, size_t size)
{
	if (!buf)
		return;
	if (spare.buf && spare.size >= size) {
		free(buf);
		return;
	}
	free(spare.buf);
	spare.buf = buf;
	spare.size = size;
}

static int alloc(struct np_nl *t, const struct np_nl_bus *bus)
{
	memset(t, 0, sizeof(*t));
	t->bus = bus;
	t->buf = buf_take(bus->bufsize + NP_NL_REQSIZE, &t->bufcap);
	if (!t->buf)
		return -ENOMEM;
	/* Start somewhere arbitrary so a previous process's stale replies cannot match. */
	t->seq = (uint32_t)time(NULL);
	return 0;
}

int np_nl_open(struct np_nl *t, const struct np_nl_bus *bus, struct np_ktape *tape)
{
	int err = alloc(t, bus);

	if (err)
		return err;
	t->tape = tape;
	if (replaying(t))
		return 0;
	t->nl = socket_open(bus, &err);
	if (!t->nl) {
		np_nl_close(t);
		return err;
	}
	return 0;
}

int np_nl_open_replay(struct np_nl *t, const struct np_nl_bus *bus, np_nl_replay_fn fn,
		      void *arg)
{
	int err = alloc(t, bus);

	if (err)
		return err;
	t->replay = fn;
	t->replay_arg = arg;
	return 0;
}

int np_nl_reopen(struct np_nl *t)
{
	struct np_nl old = *t;
	int err;

	if (old.replay)
		err = np_nl_open_replay(t, old.bus, old.replay, old.replay_arg);
	else
		err = np_nl_open(t, old.bus, old.tape);
	if (!err) {
		t->tap = old.tap;
		t->tap_arg = old.tap_arg;
	}
	np_nl_close(&old);
	return err;
}

void np_nl_close(struct np_nl *t)
{
	if (t->nl)
		mnl_socket_close(t->nl);
	buf_give(t->buf, t->bufcap);
	memset(t, 0, sizeof(*t));
}

uint32_t np_nl_portid(const struct np_nl *t)
{
	return t->nl ? mnl_socket_get_portid(t->nl) : 0;
}

struct nlmsghdr *np_nl_request(struct np_nl *t, uint16_t type, uint16_t flags)
{
	char *req = t->buf + t->bus->bufsize;
	struct nlmsghdr *nlh;

	memset(req, 0, NP_NL_REQSIZE);
	nlh = mnl_nlmsg_put_header(req);
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = ++t->seq;
	return nlh;
}

/* One received buffer into t->buf: its length, FOREIGN, or a negative errno. */
static ssize_t receive(struct np_nl *t, const struct nlmsghdr *req)
{
	struct sockaddr_nl from;
	struct iovec iov = { t->buf, t->bus->bufsize };
	struct msghdr msg = {
		.msg_name = &from, .msg_namelen = sizeof(from), .msg_iov = &iov, .msg_iovlen = 1,
	};
	ssize_t n;

	if (replaying(t))
		return np_ktape_next(&t->play, t->buf, t->bus->bufsize, req->nlmsg_seq);
	if (t->replay) {
		n = t->replay(t->replay_arg, req, t->buf, t->bus->bufsize);
		return n == 0 || n == -EAGAIN ? -ETIMEDOUT : n;
	}
	do
		n = recvmsg(mnl_socket_get_fd(t->nl), &msg, 0);
	while (n < 0 && errno == EINTR);
	if (n < 0)	/* ENOBUFS: the socket overran and messages were lost */
		return errno == EAGAIN || errno == EWOULDBLOCK ? -ETIMEDOUT : -errno;
	if (from.nl_pid != 0)
		return FOREIGN;		/* not from the kernel */
	if (msg.msg_flags & MSG_TRUNC)
		return -EMSGSIZE;
	return n ? n : -EPIPE;
}

/* Whether a message of seq in the n bytes of buf carries NLM_F_DUMP_INTR. The kernel flags
 * the message written when it noticed the change, not necessarily the NLMSG_DONE, so every
 * buffer is looked at. Framing errors are the walker's to report: the scan just stops. */
static bool dump_interrupted(const void *buf, size_t n, uint32_t seq)
{
	const char *p = buf;

	while (n >= sizeof(struct nlmsghdr)) {
		struct nlmsghdr h;
		size_t step;

		memcpy(&h, p, sizeof(h));
		if (h.nlmsg_len < sizeof(h) || h.nlmsg_len > n)
			return false;
		if (h.nlmsg_seq == seq && (h.nlmsg_flags & NLM_F_DUMP_INTR))
			return true;
		step = NLMSG_ALIGN((size_t)h.nlmsg_len);
		if (step >= n)
			return false;
		p += step;
		n -= step;
	}
	return false;
}

int np_nl_exchange(struct np_nl *t, struct nlmsghdr *req, np_nl_feed_fn feed, void *arg)
{
	double deadline = t->bus->deadline_s ? np_mono_now() + t->bus->deadline_s : 0;
	unsigned foreign = 0;
	int ret, tape_err = 0;

	t->dump_intr = false;
	if (replaying(t)) {
		if (np_ktape_find(t->tape, t->bus->tape_bus, req, req->nlmsg_len, &t->play) < 0)
			return -ENODATA;	/* the capture did not ask this */
	} else if (!t->replay) {
		ssize_t sent;

		do
			sent = mnl_socket_sendto(t->nl, req, req->nlmsg_len);
		while (sent < 0 && errno == EINTR);
		if (sent < 0)
			return -errno;
	}
	if (recording(t))
		np_ktape_begin(t->tape, t->bus->tape_bus, req, req->nlmsg_len);
	do {
		ssize_t n;

		if (deadline && np_mono_now() > deadline) {
			ret = tape_err = -ETIMEDOUT;
			break;
		}
		n = receive(t, req);
		if (n < 0) {
			ret = tape_err = (int)n;
			break;
		}
		if (n == FOREIGN) {
			foreign++;
			ret = 1;
			continue;
		}
		if (recording(t))
			np_ktape_chunk(t->tape, t->buf, (size_t)n);
		if (t->tap)
			t->tap(t->tap_arg, req, t->buf, (size_t)n);
		if (!t->dump_intr)
			t->dump_intr = dump_interrupted(t->buf, (size_t)n, req->nlmsg_seq);
		ret = feed(arg, t->buf, (size_t)n);
	} while (ret > 0);
	/* The tape keeps how the transport ended the reply; where the walker ended it, replay
	 * ends it the same way from the same bytes. */
	if (recording(t))
		np_ktape_end(t->tape, tape_err);
	if (foreign)
		np_dbg("%s: skipped %u messages not from the kernel", t->bus->name, foreign);
	return ret;
}

int np_nl_dump(struct np_nl *t, struct nlmsghdr *req, np_nl_feed_fn feed, np_nl_reset_fn reset,
	       void *arg)
{
	char saved[NP_NL_REQSIZE];
	int ret = 0;

	if (req->nlmsg_len > sizeof(saved))
		return -EMSGSIZE;
	memcpy(saved, req, req->nlmsg_len);
	for (int try = 0; try < NP_NL_DUMP_TRIES; try++) {
		if (try) {
			/* A fresh socket: the old one may still hold the rest of the broken
			 * dump, and the kernel refuses a new dump (EBUSY) while one runs on a
			 * socket. The same request, numbered anew. */
			uint32_t seq = t->seq;
			int err = np_nl_reopen(t);

			if (err < 0)
				return err;
			req = (struct nlmsghdr *)(t->buf + t->bus->bufsize);
			memcpy(req, saved, ((struct nlmsghdr *)saved)->nlmsg_len);
			req->nlmsg_seq = t->seq = seq + 1;
			if (reset)
				reset(arg, req);
		}
		ret = np_nl_exchange(t, req, feed, arg);
		if (ret == 0 && t->dump_intr)
			ret = -EAGAIN;
		if (ret != -EAGAIN && ret != -ENOBUFS)
			return ret;
		np_dbg("%s: dump %s (try %d of %d)", t->bus->name,
		       ret == -EAGAIN ? "inconsistent: the table changed under it" :
		       "overran the socket", try + 1, NP_NL_DUMP_TRIES);
	}
	return ret;
}

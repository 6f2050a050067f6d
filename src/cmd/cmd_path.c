// SPDX-License-Identifier: GPL-2.0-only
/*
 * `netpath path PEER[:PORT] --key FILE`: a bounded TCP transfer to `netpath serve` on PEER, the
 * sending streams' tcp_info every 100 ms, each end's doctor judgement over the transfer, then
 * what limited it (np_path_judge) printed as text or JSON. The protocol: path_proto.h.
 * Exit: 0 the path or the application limited it, 1 a host-side cause, 3 could not test.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd_args.h"
#include "commands.h"
#include "hmac.h"
#include "log.h"
#include "path_end.h"
#include "path_proto.h"
#include "path_udp.h"
#include "path_verdict.h"
#include "path_xfer.h"
#include "render.h"
#include "render_path.h"
#include "specs.h"
#include "termwidth.h"

#define GRACE_S 10.0

struct run {
	const struct path_args *a;
	struct np_path_key key;
	struct np_target tgt;
	bool tgt_open;
	struct np_conn c;
	struct sockaddr_storage peer;
	socklen_t plen;
	uint8_t cn[NP_PROTO_NONCE], sn[NP_PROTO_NONCE], tag[NP_SHA256_LEN];
	char token[2 * NP_SHA256_LEN + 1];
	struct np_path_req got;
	int fds[NP_PATH_MAX_STREAMS];
	struct np_path_result r;
};

static int refused(struct np_status *st, const char *peer)
{
	return np_fail(st, "%s refused the key (authentication failed)", peer);
}

/* A line from serve, or a failure saying the peer went quiet or away. */
static int line(struct run *u, char *buf, size_t cap, int timeout_ms, struct np_status *st)
{
	int r = np_conn_line(&u->c, buf, cap, timeout_ms);

	if (r > 0)
		return 0;
	return np_fail(st, "%s %s", u->a->peer, r == 0 ? "closed the connection" :
		       errno == ETIMEDOUT ? "went silent (no answer in time)" :
		       "sent a line too long or the connection broke");
}

/* Connect, prove the key both ways, ask for the test. */
static int handshake(struct run *u, struct np_status *st)
{
	char buf[NP_WIRE_LINE_MAX], err[300], hex[2 * NP_PROTO_NONCE + 1];
	uint8_t mac[NP_SHA256_LEN], got[NP_SHA256_LEN];
	struct np_path_req req = { .duration = u->a->duration, .streams = u->a->streams,
				   .reverse = u->a->reverse, .udp = u->a->udp_steps };
	int fd;

	if (np_proto_addr(u->a->peer, false, &u->peer, &u->plen, err, sizeof(err)) < 0)
		return np_fail(st, "cannot reach %s: %s", u->a->peer, err);
	fd = np_proto_connect(&u->peer, u->plen, NP_PROTO_TIMEOUT_MS);
	if (fd < 0)
		return np_fail(st, "cannot reach %s: %s", u->a->peer, strerror(-fd));
	u->c.fd = fd;
	if (np_proto_random(u->cn, sizeof(u->cn)) < 0)
		return np_fail(st, "getrandom: %s", strerror(errno));
	np_hex(u->cn, NP_PROTO_NONCE, hex);
	if (np_proto_sendf(fd, "HELLO " NP_PROTO_VERSION " %s", hex) < 0)
		return np_fail(st, "cannot reach %s: %s", u->a->peer, strerror(errno));
	if (line(u, buf, sizeof(buf), NP_PROTO_TIMEOUT_MS, st) < 0)
		return -1;
	if (strncmp(buf, "BUSY", 4) == 0)
		return np_fail(st, "%s is busy with another test (try again later)", u->a->peer);
	if (strncmp(buf, "CHALLENGE ", 10) != 0 || np_unhex(buf + 10, u->sn, NP_PROTO_NONCE) < 0 ||
	    np_unhex(buf + 11 + 2 * NP_PROTO_NONCE, got, sizeof(got)) < 0)
		return np_fail(st, "%s does not speak " NP_PROTO_VERSION " (is it netpath serve?)",
			       u->a->peer);
	/* serve proves first: a server without the key learns nothing from our proof. */
	np_proto_mac(&u->key, NP_PROTO_VERSION " server", u->cn, u->sn, mac);
	if (!np_ct_equal(got, mac, sizeof(mac)))
		return refused(st, u->a->peer);
	np_proto_mac(&u->key, NP_PROTO_VERSION " client", u->sn, u->cn, mac);
	np_hex(mac, NP_SHA256_LEN, buf);
	if (np_proto_sendf(fd, "AUTH %s", buf) < 0 || np_path_req_format(&req, buf, sizeof(buf)) < 0 ||
	    np_proto_sendf(fd, "%s", buf) < 0 || line(u, buf, sizeof(buf), NP_PROTO_TIMEOUT_MS, st) < 0)
		return -1;
	if (strncmp(buf, "DENIED", 6) == 0)
		return refused(st, u->a->peer);
	if (strncmp(buf, "OK ", 3) != 0)
		return np_fail(st, "%s did not grant the test", u->a->peer);
	/* "OK duration=..." read as "TEST duration=..." */
	memmove(buf + 5, buf + 3, strlen(buf + 3) + 1);
	memcpy(buf, "TEST ", 5);
	if (np_path_req_parse(buf, &u->got) < 0)
		return np_fail(st, "%s did not grant the test", u->a->peer);
	/* What serve grants is within what was asked; anything else is a broken peer. */
	if (u->got.duration > req.duration || u->got.streams > req.streams ||
	    u->got.reverse != req.reverse || u->got.udp > req.udp || u->got.streams < 1)
		return np_fail(st, "%s granted a test that was not asked for", u->a->peer);
	np_proto_mac(&u->key, NP_PROTO_VERSION " data", u->cn, u->sn, u->tag);
	np_hex(u->tag, NP_SHA256_LEN, u->token);
	return 0;
}

static int open_data(struct run *u, struct np_status *st)
{
	char buf[64];

	for (unsigned i = 0; i < u->got.streams; i++) {
		u->fds[i] = np_proto_connect(&u->peer, u->plen, NP_PROTO_TIMEOUT_MS);
		if (u->fds[i] < 0)
			return np_fail(st, "cannot reach %s: %s", u->a->peer, strerror(-u->fds[i]));
		if (np_proto_sendf(u->fds[i], "DATA %s %u", u->token, i) < 0)
			return np_fail(st, "cannot reach %s: %s", u->a->peer, strerror(errno));
	}
	if (line(u, buf, sizeof(buf), 2 * NP_PROTO_TIMEOUT_MS, st) < 0)
		return -1;
	if (strcmp(buf, "START") != 0)
		return np_fail(st, "%s did not start the test", u->a->peer);
	return 0;
}

/* serve's report into end (and, reversed, its samples into r). */
static int read_report(struct run *u, struct np_path_end *end, struct np_status *st)
{
	struct np_wire_rx rx;
	char buf[NP_WIRE_LINE_MAX], err[200];
	int r;

	np_wire_rx_init(&rx, end, u->got.reverse ? &u->r : NULL);
	do {
		if (line(u, buf, sizeof(buf), (int)(GRACE_S * 2000), st) < 0)
			return -1;
		r = np_wire_rx_line(&rx, buf, err, sizeof(err));
		if (r < 0)
			return np_fail(st, "%s sent a bad report: %s", u->a->peer, err);
	} while (r == 0);
	return 0;
}

static int test(struct run *u, struct np_status *st)
{
	struct np_path_window w;
	char ifname[16] = "";
	int rc;

	if (handshake(u, st) < 0)
		return -1;
	np_sock_ifname(u->c.fd, ifname, sizeof(ifname));
	np_path_window_begin(&w, &u->tgt, ifname);
	rc = open_data(u, st);
	if (rc == 0 && !u->got.reverse) {
		if (np_xfer_send(u->fds, u->got.streams, u->got.duration, GRACE_S, -1, &u->r) < 0)
			rc = np_fail(st, "%s: the transfer broke: %s", u->a->peer, strerror(errno));
		np_path_window_end(&w, u->fds[0], &u->r.sender);
		if (rc == 0)
			rc = read_report(u, &u->r.receiver, st);
	} else if (rc == 0) {
		u->r.receiver.bytes_counted = np_xfer_recv(u->fds, u->got.streams,
							   u->got.duration + GRACE_S, -1);
		np_path_window_end(&w, u->fds[0], &u->r.receiver);
		rc = read_report(u, &u->r.sender, st);
	}
	np_path_window_free(&w);
	if (rc < 0)
		return -1;
	if (!(u->r.duration_s > 0))
		return np_fail(st, "%s did not say how long the transfer took", u->a->peer);
	u->r.throughput_bps = (double)u->r.receiver.bytes_counted * 8 / u->r.duration_s;
	if (u->got.udp && np_udp_steps_send(&u->c, &u->peer, u->plen, u->tag,
					    u->r.throughput_bps, &u->r, st->msg,
					    sizeof(st->msg)) < 0)
		return -1;
	np_proto_sendf(u->c.fd, "BYE");
	return 0;
}

/* A test that could not run: one line on standard error, spec34's wording ("netpath: PEER
 * refused the key ..."), and with --json the netpath/error document every command prints. */
static int failed(const struct np_status *st, bool json)
{
	fprintf(stderr, "netpath: %s\n", st->msg);
	if (json) {
		np_render_error_json(stdout, "path", st->msg, NP_EXIT_UNKNOWN);
		fflush(stdout);
	}
	return NP_EXIT_UNKNOWN;
}

int np_cmd_path(int argc, char **argv)
{
	struct path_args a = { .duration = 10, .streams = 1 };
	struct np_status st = { 0 };
	struct np_target_spec ts = { .cmd = "path", .any_iface = true };
	struct np_path_verdict v;
	struct run *u;
	char err[600];
	int rc = NP_EXIT_UNKNOWN;

	if (np_opts_parse(&np_path_spec, argc, argv, NULL, &a, &st) < 0)
		return np_finish(&st, "path", a.json);
	np_log_set_verbosity(a.verbose);
	if (optind < argc)
		a.peer = argv[optind++];
	if (!a.peer || optind < argc) {
		np_usage(&st, a.peer ? "unexpected argument '%s' (one peer at a time)" :
			 "name the peer: netpath path PEER[:PORT] --key FILE%s",
			 a.peer ? argv[optind] : "");
		return np_finish(&st, "path", a.json);
	}
	if (!a.key) {
		np_fail(&st, "path never runs without a key: --key FILE (the same file as the "
			"server's, mode 0600)");
		return failed(&st, a.json);
	}
	u = calloc(1, sizeof(*u));
	if (!u)
		return np_fail(&st, "out of memory"), failed(&st, a.json);
	u->a = &a;
	u->c.fd = -1;
	for (size_t i = 0; i < NP_PATH_MAX_STREAMS; i++)
		u->fds[i] = -1;
	ts.netns = a.netns;
	if (np_path_key_load(a.key, &u->key, err, sizeof(err)) < 0) {
		np_fail(&st, "%s", err);
	} else if (np_target_open(&u->tgt, &ts, err, sizeof(err)) < 0) {
		np_fail(&st, "%s", err);
	} else {
		u->tgt_open = true;
		snprintf(u->r.peer, sizeof(u->r.peer), "%s", a.peer);
		u->r.streams = (unsigned)a.streams;
		u->r.reverse = a.reverse;
		if (test(u, &st) == 0) {
			u->r.streams = u->got.streams;
			np_path_judge(&u->r, &v);
			if (a.json)
				np_render_path_json(stdout, &u->r, &v);
			else
				np_render_path_text(stdout, &u->r, &v, np_term_width(stdout));
			rc = np_path_exit_code(&v);
		}
	}
	if (np_failed(&st))
		rc = failed(&st, a.json);
	else if (fflush(stdout) == EOF || ferror(stdout))
		rc = np_fail(&st, "cannot write to standard output"), failed(&st, false);
	if (u->c.fd >= 0)
		close(u->c.fd);
	for (size_t i = 0; i < NP_PATH_MAX_STREAMS; i++)
		if (u->fds[i] >= 0)
			close(u->fds[i]);
	if (u->tgt_open)
		np_target_close(&u->tgt);
	np_path_key_wipe(&u->key);
	free(u);
	return rc;
}

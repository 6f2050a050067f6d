// SPDX-License-Identifier: GPL-2.0-only
/*
 * `netpath serve --listen ADDR[:PORT] --key FILE`: the far end of `netpath path`. Never without
 * a key, never on all addresses; one test at a time (anyone else is told "BUSY" in one line);
 * every wait bounded; the test's length capped by --max-duration on this host's clock. It
 * reads the host (doctor's snapshots) and changes nothing. The protocol: path_proto.h.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd_args.h"
#include "commands.h"
#include "hmac.h"
#include "log.h"
#include "path_end.h"
#include "path_proto.h"
#include "path_udp.h"
#include "path_xfer.h"
#include "specs.h"

#define GRACE_S 5.0		/* beyond the granted time: the drain, then serve stops anyway */

struct client {
	struct np_conn c;
	char from[80];
	uint8_t cn[NP_PROTO_NONCE], sn[NP_PROTO_NONCE], tag[NP_SHA256_LEN];
	char token[2 * NP_SHA256_LEN + 1];
};

/* HELLO, CHALLENGE, AUTH: 1 authenticated, 0 not (the client was told why), -1 broken. */
static int authenticate(struct client *cl, const struct np_path_key *k)
{
	char line[NP_WIRE_LINE_MAX], hex[2 * NP_SHA256_LEN + 1], nhex[2 * NP_PROTO_NONCE + 1];
	uint8_t mac[NP_SHA256_LEN], got[NP_SHA256_LEN];

	if (np_conn_line(&cl->c, line, sizeof(line), NP_PROTO_TIMEOUT_MS) <= 0)
		return -1;
	if (strncmp(line, "HELLO " NP_PROTO_VERSION " ", sizeof("HELLO " NP_PROTO_VERSION)) ||
	    np_unhex(line + sizeof("HELLO " NP_PROTO_VERSION), cl->cn, NP_PROTO_NONCE) < 0) {
		np_proto_sendf(cl->c.fd, "ERR expected HELLO " NP_PROTO_VERSION);
		return 0;
	}
	if (np_proto_random(cl->sn, sizeof(cl->sn)) < 0)
		return -1;
	np_proto_mac(k, NP_PROTO_VERSION " server", cl->cn, cl->sn, mac);
	np_hex(cl->sn, NP_PROTO_NONCE, nhex);
	np_hex(mac, NP_SHA256_LEN, hex);
	if (np_proto_sendf(cl->c.fd, "CHALLENGE %s %s", nhex, hex) < 0)
		return -1;
	if (np_conn_line(&cl->c, line, sizeof(line), NP_PROTO_TIMEOUT_MS) <= 0) {
		/* The client checks our proof first: one with another key leaves here. */
		fprintf(stderr, "netpath serve: %s left after the challenge (not the same key?)\n",
			cl->from);
		return -1;
	}
	np_proto_mac(k, NP_PROTO_VERSION " client", cl->sn, cl->cn, mac);
	if (strncmp(line, "AUTH ", 5) != 0 || np_unhex(line + 5, got, sizeof(got)) < 0 ||
	    !np_ct_equal(got, mac, sizeof(mac))) {
		np_proto_sendf(cl->c.fd, "DENIED authentication failed");
		fprintf(stderr, "netpath serve: %s failed authentication\n", cl->from);
		return 0;
	}
	np_proto_mac(k, NP_PROTO_VERSION " data", cl->cn, cl->sn, cl->tag);
	np_hex(cl->tag, NP_SHA256_LEN, cl->token);
	return 1;
}

/* The n data connections, each proving the token on its first line within 2 s; anything else
 * is closed at once (a second client is told BUSY). 0, or -1 when they did not all come. */
static int accept_data(int lfd, const struct client *cl, int *fds, unsigned n)
{
	/* One deadline for them all, on this host's clock: callers that connect and say nothing
	 * cost 2 s each but cannot stretch the wait. */
	struct timespec t0, now;
	unsigned got = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	now = t0;
	for (unsigned i = 0; i < n; i++)
		fds[i] = -1;
	while (got < n && (now.tv_sec - t0.tv_sec) * 1000 + (now.tv_nsec - t0.tv_nsec) / 1000000 <
			  NP_PROTO_TIMEOUT_MS) {
		struct pollfd p = { .fd = lfd, .events = POLLIN };
		struct np_conn dc = { .fd = -1 };
		char line[NP_WIRE_LINE_MAX], want[200];
		unsigned idx;

		clock_gettime(CLOCK_MONOTONIC, &now);
		if (poll(&p, 1, 100) <= 0)
			continue;
		dc.fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
		if (dc.fd < 0)
			continue;
		if (np_conn_line(&dc, line, sizeof(line), 2000) <= 0) {
			close(dc.fd);
			continue;
		}
		snprintf(want, sizeof(want), "DATA %s ", cl->token);
		if (strncmp(line, want, strlen(want)) != 0 ||
		    sscanf(line + strlen(want), "%u", &idx) != 1 || idx >= n || fds[idx] >= 0) {
			if (strncmp(line, "HELLO ", 6) == 0)
				np_proto_sendf(dc.fd, "BUSY netpath serve: a test is running, try "
					       "again later");
			close(dc.fd);
			continue;
		}
		fds[idx] = dc.fd;
		got++;
	}
	return got == n ? 0 : -1;
}

static void send_report(int fd, const struct np_wire_report *w)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return;
	np_wire_report_write(f, w);
	if (fclose(f) == 0)
		np_proto_send(fd, buf, len, NP_PROTO_TIMEOUT_MS * 2);
	free(buf);
}

/* One client: 1 when an authenticated test ran (whatever its outcome), else 0. */
static int serve_one(int lfd, int cfd, const struct serve_args *a, const struct np_path_key *k,
		     struct np_target *tgt, const struct sockaddr_storage *local, socklen_t llen)
{
	struct client *cl = calloc(1, sizeof(*cl));
	struct np_path_result *r = calloc(1, sizeof(*r));
	struct np_path_window w = { 0 };
	struct np_path_end end;
	struct np_path_req req;
	struct sockaddr_storage peer;
	socklen_t pl = sizeof(peer);
	char line[NP_WIRE_LINE_MAX], ifname[16] = "";
	int fds[NP_PATH_MAX_STREAMS], ran = 0, au;

	if (!cl || !r)
		goto out;
	cl->c.fd = cfd;
	if (getpeername(cfd, (struct sockaddr *)&peer, &pl) == 0)
		np_proto_addr_str(&peer, cl->from, sizeof(cl->from));
	au = authenticate(cl, k);
	if (au <= 0)
		goto out;
	ran = 1;
	if (np_conn_line(&cl->c, line, sizeof(line), NP_PROTO_TIMEOUT_MS) <= 0 ||
	    np_path_req_parse(line, &req) < 0) {
		np_proto_sendf(cfd, "ERR expected TEST");
		goto out;
	}
	np_path_req_cap(&req, a->max_duration);
	if (np_path_req_format(&req, line, sizeof(line)) < 0 ||
	    np_proto_sendf(cfd, "OK %s", line + 5) < 0 ||
	    accept_data(lfd, cl, fds, req.streams) < 0) {
		fprintf(stderr, "netpath serve: %s: the test's data connections did not come\n",
			cl->from);
		goto close_data;
	}
	np_sock_ifname(cfd, ifname, sizeof(ifname));
	np_path_window_begin(&w, tgt, ifname);
	if (np_proto_sendf(cfd, "START") < 0)
		goto close_data;
	memset(&end, 0, sizeof(end));
	if (!req.reverse) {
		end.bytes_counted = np_xfer_recv(fds, req.streams, req.duration + GRACE_S, lfd);
		np_path_window_end(&w, fds[0], &end);
		send_report(cfd, &(struct np_wire_report){ .end = &end, .duration_s = NAN,
							    .sender_bytes = NAN });
	} else {
		np_xfer_send(fds, req.streams, req.duration, GRACE_S, lfd, r);
		np_path_window_end(&w, fds[0], &end);
		send_report(cfd, &(struct np_wire_report){
			.end = &end, .duration_s = r->duration_s,
			.sender_bytes = (double)r->sender_bytes, .samples = r->samples,
			.nsamples = r->nsamples });
	}
	np_path_window_free(&w);
close_data:
	for (unsigned i = 0; i < req.streams && i < NP_PATH_MAX_STREAMS; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	if (req.udp)
		np_udp_steps_serve(&cl->c, local, llen, cl->tag, lfd);
out:
	close(cfd);
	free(cl);
	free(r);
	return ran;
}

static int fail(const char *fmt, const char *a, const char *b)
{
	fprintf(stderr, "netpath: ");
	fprintf(stderr, fmt, a, b);
	fputc('\n', stderr);
	return NP_EXIT_UNKNOWN;
}

int np_cmd_serve(int argc, char **argv)
{
	struct serve_args a = { .max_duration = 30 };
	struct np_status st = { 0 };
	struct np_path_key *k = calloc(1, sizeof(*k));
	struct np_target_spec ts = { .cmd = "serve", .any_iface = true };
	struct np_target tgt;
	struct sockaddr_storage ss;
	socklen_t sl;
	char err[600], where[80];
	int lfd, one = 1, rc = NP_EXIT_OK;

	if (!k)
		return NP_EXIT_UNKNOWN;
	if (np_opts_parse(&np_serve_spec, argc, argv, NULL, &a, &st) < 0) {
		free(k);
		return np_finish(&st, "serve", false);
	}
	np_log_set_verbosity(a.verbose);
	if (optind < argc)
		rc = fail("serve: unexpected argument '%s'%s", argv[optind], "");
	else if (!a.key)
		rc = fail("serve never runs without a key: --key FILE (16 or more random bytes, "
			  "mode 0600, the same file on both ends)%s%s", "", "");
	else if (!a.listen)
		rc = fail("serve needs --listen ADDR[:PORT] (it never listens on every address)"
			  "%s%s", "", "");
	else if (np_path_key_load(a.key, k, err, sizeof(err)) < 0)
		rc = fail("%s%s", err, "");
	if (rc != NP_EXIT_OK) {
		free(k);
		return rc;
	}
	ts.netns = a.netns;
	if (np_target_open(&tgt, &ts, err, sizeof(err)) < 0) {
		np_path_key_wipe(k);
		free(k);
		return fail("serve: %s%s", err, "");
	}
	if (np_proto_addr(a.listen, true, &ss, &sl, err, sizeof(err)) < 0 ||
	    (lfd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0)) < 0) {
		rc = fail("serve: --listen %s: %s", a.listen, err);
		goto out;
	}
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(lfd, (struct sockaddr *)&ss, sl) < 0 || listen(lfd, 8) < 0) {
		rc = fail("serve: cannot listen on %s: %s", a.listen, strerror(errno));
		close(lfd);
		goto out;
	}
	np_proto_addr_str(&ss, where, sizeof(where));
	fprintf(stderr, "netpath serve: listening on %s\n", where);
	for (;;) {
		int cfd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);

		if (cfd < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			rc = fail("serve: accept: %s%s", strerror(errno), "");
			break;
		}
		if (serve_one(lfd, cfd, &a, k, &tgt, &ss, sl) && a.once)
			break;
	}
	close(lfd);
out:
	np_target_close(&tgt);
	np_path_key_wipe(k);
	free(k);
	return rc;
}

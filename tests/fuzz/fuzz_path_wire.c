// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz what a netpath serve or path peer can send (path_wire.c): the input's lines fed to the
 * report reader (with and without a result to take samples), and each line as a test request,
 * capped. Invariants: the counts stay within their arrays, every kept text is terminated and
 * free of control bytes (nothing a terminal would obey), a capped request is within serve's
 * limits.
 */
#include "fuzz.h"
#include "path_wire.h"

static struct np_path_result res;

static void text_ok(const char *s, size_t cap)
{
	size_t n = strnlen(s, cap);

	FUZZ_CHECK(n < cap);
	for (size_t i = 0; i < n; i++)
		FUZZ_CHECK((unsigned char)s[i] >= 0x20 && s[i] != 0x7f);
}

static void end_ok(const struct np_path_end *e)
{
	FUZZ_CHECK(e->nnotes <= NP_PATH_MAX_NOTES);
	text_ok(e->host, sizeof(e->host));
	text_ok(e->ifname, sizeof(e->ifname));
	text_ok(e->cc, sizeof(e->cc));
	text_ok(e->qdisc, sizeof(e->qdisc));
	for (size_t i = 0; i < e->nnotes; i++) {
		text_ok(e->notes[i].stage, sizeof(e->notes[i].stage));
		text_ok(e->notes[i].id, sizeof(e->notes[i].id));
		text_ok(e->notes[i].summary, sizeof(e->notes[i].summary));
		text_ok(e->notes[i].remedy, sizeof(e->notes[i].remedy));
		FUZZ_CHECK(e->notes[i].severity >= 0 && e->notes[i].severity <= 3);
	}
}

static void run(char *buf, size_t size, bool with_result)
{
	struct np_path_end e;
	struct np_wire_rx rx;
	char err[200] = "";	/* checked after every line, error or not */
	size_t off = 0;

	memset(&res, 0, sizeof(res));
	np_wire_rx_init(&rx, &e, with_result ? &res : NULL);
	while (off < size) {
		char *nl = memchr(buf + off, '\n', size - off);
		size_t l = nl ? (size_t)(nl - (buf + off)) : size - off;
		char line[NP_WIRE_LINE_MAX + 1];
		int r;

		if (l > NP_WIRE_LINE_MAX)
			l = NP_WIRE_LINE_MAX;	/* the connection's reader refuses longer */
		memcpy(line, buf + off, l);
		line[l] = '\0';
		off += (nl ? (size_t)(nl - (buf + off)) : size - off) + 1;
		if (with_result) {
			struct np_path_req q;

			if (np_path_req_parse(line, &q) == 0) {
				np_path_req_cap(&q, 30);
				FUZZ_CHECK(q.duration >= 1 && q.duration <= 30);
				FUZZ_CHECK(q.streams >= 1 && q.streams <= NP_PATH_MAX_STREAMS);
			}
		}
		r = np_wire_rx_line(&rx, line, err, sizeof(err));
		text_ok(err, sizeof(err));
		if (r != 0)
			break;
	}
	end_ok(&e);
	FUZZ_CHECK(res.nsamples <= NP_PATH_MAX_SAMPLES && res.nsteps <= NP_PATH_MAX_STEPS);
	FUZZ_CHECK(with_result || (res.nsamples == 0 && res.nsteps == 0));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_copy(data, size);

	run(buf, size, true);
	run(buf, size, false);
	free(buf);
	return 0;
}

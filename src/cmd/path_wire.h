/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * netpath path/serve: the control connection's text, with no I/O (path_proto.c moves it).
 * Every line a peer sends is bounded, parsed strictly, and its free text cleaned of control
 * characters and escape sequences before anything keeps it: a hostile or broken peer must not
 * write to the admin's terminal nor overflow a count. The protocol: path_proto.h.
 */
#ifndef NP_PATH_WIRE_H
#define NP_PATH_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "path_test.h"

#define NP_WIRE_LINE_MAX 2048		/* a longer line ends the conversation */
/* A report's lines: the facts and notes, every sample, every step, and some slack. */
#define NP_WIRE_REPORT_LINES (NP_PATH_MAX_SAMPLES + NP_PATH_MAX_NOTES + NP_PATH_MAX_STEPS + 64)

/* A test as asked for (path) and as granted (serve, after np_path_req_cap). */
struct np_path_req {
	double duration;		/* seconds */
	unsigned streams;
	bool reverse;			/* serve sends, path receives */
	bool udp;			/* --udp-steps after the TCP transfer */
};

/* "TEST duration=10 streams=1 reverse=0 udp=0". */
int np_path_req_format(const struct np_path_req *r, char *buf, size_t len);
/* 0, or -1 when the line is not a request (a missing or malformed field). */
int np_path_req_parse(const char *line, struct np_path_req *r);
/* Within serve's limits: 1 s .. max_duration (itself at most NP_PATH_MAX_SECONDS), 1 ..
 * NP_PATH_MAX_STREAMS streams. */
void np_path_req_cap(struct np_path_req *r, double max_duration);

/*
 * Copy src into dst (cap bytes, always terminated), keeping printable ASCII and well-formed
 * UTF-8 above the C1 controls; an escape sequence (ESC [ ... final, ESC ] ... BEL or ST) is
 * dropped whole, a newline or tab becomes a space, any other control byte nothing and
 * malformed UTF-8 '?'. A cut never
 * splits a UTF-8 character. Returns dst.
 */
char *np_wire_clean(char *dst, size_t cap, const char *src);

/* One end's report (REPORT ... END): its facts, notes, and optionally the samples, steps,
 * the measured duration and bytes acked, which only the sending end (or the receiver of the
 * steps) knows. Writes lines of at most NP_WIRE_LINE_MAX bytes. */
struct np_wire_report {
	const struct np_path_end *end;
	double duration_s;		/* NAN: not said */
	double sender_bytes;		/* NAN: not said */
	const struct np_path_sample *samples;
	size_t nsamples;
	const struct np_path_step *steps;
	size_t nsteps;
};
void np_wire_report_write(FILE *out, const struct np_wire_report *w);

/* Reading one: line by line into end and (when given) r's samples, steps, duration_s and
 * sender_bytes. */
struct np_wire_rx {
	struct np_path_end *end;
	struct np_path_result *r;	/* NULL: samples and steps are refused */
	size_t nlines;
	bool begun;
};
void np_wire_rx_init(struct np_wire_rx *rx, struct np_path_end *end, struct np_path_result *r);
/* 0 go on, 1 the report ended, -1 a malformed line or too many (err says which). */
int np_wire_rx_line(struct np_wire_rx *rx, const char *line, char *err, size_t errlen);

#endif

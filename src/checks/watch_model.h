/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * `netpath watch`'s frame: one interval of the receive path in motion, computed from two
 * snapshots, the report and the funnel (rates per stage, CPU, queue, IRQ and socket; findings
 * marked new against the first frame). Pure; render_watch.h prints it.
 */
#ifndef NP_WATCH_MODEL_H
#define NP_WATCH_MODEL_H

#include <net/if.h>
#include <stdbool.h>
#include <stdint.h>

#include "check.h"
#include "funnel.h"

/* Socket rows kept per frame (the busiest droppers). */
#define NP_WATCH_TOP_SOCKS 8

/* Rates are per second over the frame's interval; NAN = not reported. */
struct np_watch_stage {
	enum np_stage stage;
	enum np_scope scope;
	double packets, drops;
};

struct np_watch_cpu {
	int cpu;
	double processed, dropped, squeezed, rps, flow_limit;
};

struct np_watch_queue {
	int queue;
	double packets, drops;
	const char *source, *drops_source;	/* "qstats", "driver" or NULL */
};

struct np_watch_irq {
	int cpu;
	double rate;
};

struct np_watch_sock {
	char proto[8];			/* "udp", "udp6", "tcp" (listener), "tcp6" */
	char local[64];			/* "0.0.0.0:5353" */
	double rate;			/* drops per second, NAN when not measurable yet */
	uint64_t drops;			/* since the socket was created */
};

struct np_watch_finding {
	const struct np_check *check;
	enum np_severity severity;
	bool is_new;
	/* Judged on established TCP flows copied from the last full socket walk rather than
	 * read this frame (the frame's walk.age_s says how old). */
	bool from_walk;
	char summary[320];
};

/*
 * The socket walk behind a frame. Every frame dumps listeners and UDP sockets; established TCP
 * flows come from a full walk every N frames (walk_cadence.h). np_watch_frame_build fills the
 * fields it reads from the snapshot (known, full, age_s); the command the cadence.
 */
struct np_watch_walk {
	bool known;		/* false: sockets not read, nothing to say */
	bool full;		/* this frame saw every TCP socket: a full walk, or ... */
	bool only_listeners;	/* ... the namespace has none but listeners (sockstat) */
	double age_s;		/* seconds since the walk its established flows come from */
	bool adaptive;		/* N from the measured costs, not --socket-walk-every */
	unsigned every;		/* N: a full walk every N frames; 0 unknown */
	double walk_cpu_ms;	/* CPU of the last collection with a full walk; NAN unknown */
	double frame_cpu_ms;	/* ... and of the last one without; NAN unknown */
};

struct np_watch_frame {
	unsigned seq;			/* 1 for the first frame */
	double elapsed;			/* seconds since the session started */
	double dt;			/* seconds the rates cover */
	char time[40];			/* "2024-05-01T12:00:01.250Z", "" when unknown */
	char ifname[IF_NAMESIZE];
	size_t nstage;
	struct np_watch_stage stages[NP_STAGE__COUNT];
	size_t ncpu, nqueue, nirq, nsock, nfind;
	struct np_watch_cpu *cpus;
	struct np_watch_queue *queues;
	struct np_watch_irq *irqs;
	bool has_socks;			/* false: the sockets section is unavailable */
	struct np_watch_sock socks[NP_WATCH_TOP_SOCKS];
	struct np_watch_walk walk;
	struct np_watch_finding *findings;	/* worst first */
	/* "" or why the section is empty. */
	char queue_note[256], irq_note[256], sock_note[256];
};

/* What the first frame showed, so later frames can mark findings that turned on. */
struct np_watch_session {
	unsigned frames;		/* frames built so far */
	bool have_baseline;
	size_t nbase;
	const struct np_check **base_check;
	enum np_severity *base_sev;
};

/* Fill f from the analysis (prev and cur both set), its report and funnel. The first call on a
 * session records its findings as the baseline; afterwards a finding is new when its check was
 * absent from the first frame or is now more severe than it was then. 0 or -ENOMEM. */
int np_watch_frame_build(struct np_watch_frame *f, struct np_watch_session *sess,
			 const struct np_analysis *a, const struct np_report *r,
			 const struct np_funnel *fn);
void np_watch_frame_free(struct np_watch_frame *f);
/* Whether check c judges established TCP flows (those a frame between full walks copies from
 * the last one), or sizes buffers from the RTT when rtt_from_flows (the analysis measured it on
 * them): its findings are marked from_walk then. */
bool np_watch_check_reads_flows(const struct np_check *c, bool rtt_from_flows);
/* Every id np_watch_check_reads_flows() knows, for the test that holds them to the table. */
const char *const *np_watch_flow_check_ids(size_t *n);
void np_watch_session_free(struct np_watch_session *sess);

#endif

// SPDX-License-Identifier: GPL-2.0-only
/* The drops loader: open skeleton → set rodata → load → attach → read maps → destroy. */
#include "trace.h"

#include <errno.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "drops.skel.h"
#include "trace_dropfast.h"
#include "trace_flowfast.h"
#include "trace_rxcount.h"
#include "log.h"
#include "netpath_bpf.h"

struct np_tracer {
	struct np_drops *skel;
	struct np_reason_names names;
	uint32_t netns_inum;
	int ifindex;
	bool has_reason, by_location, gro_attached;
	struct np_trace_opts opt;
	uint32_t noflow_reason;		/* NOT_SPECIFIED's value: no flows counted for it */
	const char *attach;
	uint64_t *flow_taken;		/* flow_fast counts already taken (np_trace_take_flows) */
	uint64_t rx_start;		/* rx_packets at the start, without --arrivals */
	bool rx_counted;		/* rx_start could be read */
};

/* libbpf's own messages go to the debug log: shown with -vv only. */
static int libbpf_log(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char buf[1024];
	size_t n;

	(void)level;
	if (np_log_get_level() < NP_LOG_DEBUG)
		return 0;
	vsnprintf(buf, sizeof(buf), fmt, ap);
	n = strlen(buf);
	while (n && buf[n - 1] == '\n')
		buf[--n] = '\0';
	np_dbg("%s", buf);	/* libbpf prefixes its own "libbpf: " */
	return 0;
}

static int errf(char *err, size_t errlen, int r, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int errf(char *err, size_t errlen, int r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return r;
}

static int perm_error(char *err, size_t errlen)
{
	return errf(err, errlen, -EPERM, "loading BPF programs needs root or "
		    "CAP_BPF+CAP_PERFMON");
}

/* Attach one program; its link lands in the skeleton so destroy detaches it. */
static int attach_one(struct bpf_program *p, struct bpf_link **link)
{
	*link = bpf_program__attach(p);
	if (!*link)
		return errno ? -errno : -EINVAL;
	return 0;
}

/*
 * One attempt in one mode: tp_btf (5.5+, typed arguments) or raw_tp (the fallback, e.g. 5.4
 * with BTF but without tp_btf). Either way CO-RE needs the kernel's BTF.
 */
static int try_mode(struct np_tracer *t, bool btf_mode)
{
	struct np_drops *s;
	int r;

	s = np_drops__open();
	if (!s)
		return errno ? -errno : -EINVAL;
	s->rodata->targ_ifindex = (__u32)t->ifindex;
	s->rodata->targ_netns = t->netns_inum;
	s->rodata->has_reason = t->has_reason;
	s->rodata->flows_on = t->opt.flows;
	s->rodata->flow_by = (__u32)t->opt.by;
	s->rodata->noflow_reason = t->noflow_reason;
	s->rodata->filt_host = t->opt.filter.host;
	s->rodata->filt_family = t->opt.filter.family;
	memcpy((void *)s->rodata->filt_addr, t->opt.filter.addr, 16);
	memcpy((void *)s->rodata->filt_mask, t->opt.filter.mask, 16);
	s->rodata->filt_port_on = t->opt.filter.port_on;
	s->rodata->filt_port = t->opt.filter.port;
	s->rodata->filt_proto_on = t->opt.filter.proto_on;
	s->rodata->filt_proto = t->opt.filter.proto;
	s->rodata->stacks_on = t->opt.stacks;
	if (!t->opt.stacks) {	/* the maps exist either way; without --stack they stay tiny */
		bpf_map__set_max_entries(s->maps.stacks, 1);
		bpf_map__set_max_entries(s->maps.stack_counts, 1);
	}
	bpf_program__set_autoload(s->progs.np_drop_btf, btf_mode);
	bpf_program__set_autoload(s->progs.np_rx_btf, btf_mode && t->opt.arrivals);
	bpf_program__set_autoload(s->progs.np_gro_btf, btf_mode && t->opt.arrivals);
	bpf_program__set_autoload(s->progs.np_drop_raw, !btf_mode);
	bpf_program__set_autoload(s->progs.np_rx_raw, !btf_mode && t->opt.arrivals);
	bpf_program__set_autoload(s->progs.np_gro_raw, !btf_mode && t->opt.arrivals);
	r = np_drops__load(s);
	if (r < 0)
		goto fail;
	/* Without --arrivals, the kernel's rx_packets before and after the window: no program
	 * on every packet (the arrival program costs more than a counter the kernel keeps). */
	t->rx_counted = !t->opt.arrivals && np_trace_rx_packets(t->ifindex, &t->rx_start) == 0;
	r = !t->opt.arrivals ? 0 : attach_one(btf_mode ? s->progs.np_rx_btf : s->progs.np_rx_raw,
					       btf_mode ? &s->links.np_rx_btf : &s->links.np_rx_raw);
	if (r < 0)
		goto fail;
	/* Arrivals before GRO are a bonus: a kernel without this tracepoint still traces. */
	t->gro_attached = t->opt.arrivals &&
		attach_one(btf_mode ? s->progs.np_gro_btf : s->progs.np_gro_raw,
			   btf_mode ? &s->links.np_gro_btf : &s->links.np_gro_raw) == 0;
	/* Drops last: every skb whose drop is counted passed the arrival tracepoints while they
	 * were attached, so arrivals >= drops holds over the window. */
	r = attach_one(btf_mode ? s->progs.np_drop_btf : s->progs.np_drop_raw,
		       btf_mode ? &s->links.np_drop_btf : &s->links.np_drop_raw);
	if (r < 0)
		goto fail;
	t->skel = s;
	t->attach = btf_mode ? "tp_btf" : "raw_tp";
	return 0;
fail:
	np_dbg("trace: %s mode failed: %s", btf_mode ? "tp_btf" : "raw_tp", strerror(-r));
	np_drops__destroy(s);
	return r;
}

int np_trace_start(const char *ifname, const struct np_trace_opts *opt, struct np_tracer **out,
		   char *err, size_t errlen)
{
	struct np_tracer *t;
	struct stat st;
	int r;

	*out = NULL;
	libbpf_set_print(libbpf_log);
	t = calloc(1, sizeof(*t));
	if (!t)
		return errf(err, errlen, -ENOMEM, "out of memory");
	if (opt)
		t->opt = *opt;
	t->ifindex = (int)if_nametoindex(ifname);
	if (!t->ifindex) {
		free(t);
		return errf(err, errlen, -ENODEV, "no such interface '%s'", ifname);
	}
	/* The namespace by its proc inode, what the programs compare ns.inum with. */
	if (stat("/proc/self/ns/net", &st) < 0) {
		r = -errno;
		free(t);
		return errf(err, errlen, r, "cannot identify the network namespace "
			    "(/proc/self/ns/net): %s", strerror(-r));
	}
	t->netns_inum = (uint32_t)st.st_ino;
	r = np_reason_names_load_vmlinux(&t->names);
	if (r == -ENODATA) {
		free(t);
		return errf(err, errlen, -ENOTSUP,
			    "the kernel has no BTF (/sys/kernel/btf/vmlinux; "
			    "CONFIG_DEBUG_INFO_BTF): trace needs it");
	}
	if (r == -ENOMEM) {
		free(t);
		return errf(err, errlen, r, "out of memory");
	}
	/* No enum skb_drop_reason: a kernel before 5.17, whose kfree_skb has no reason; the
	 * freeing location is all there is to group by. */
	t->has_reason = r == 0;
	t->by_location = !t->has_reason;
	t->noflow_reason = UINT32_MAX;
	if (t->has_reason && np_reason_value(&t->names, "NOT_SPECIFIED") >= 0)
		t->noflow_reason = (uint32_t)np_reason_value(&t->names, "NOT_SPECIFIED");
	/* Flows are keyed by reason: without reasons they could not be told apart. */
	if (!t->has_reason)
		t->opt.flows = false;

	/* tp_btf first; raw_tp when the kernel cannot load or attach it (EPERM is final).
	 * NETPATH_TRACE_ATTACH=raw_tp starts with the fallback: the tests load it on kernels
	 * that would never need it. */
	r = -EAGAIN;
	if (!getenv("NETPATH_TRACE_ATTACH") || strcmp(getenv("NETPATH_TRACE_ATTACH"), "raw_tp"))
		r = try_mode(t, true);
	if (r < 0 && r != -EPERM)
		r = try_mode(t, false);
	if (r < 0) {
		np_reason_names_free(&t->names);
		free(t);
		if (r == -EPERM || r == -EACCES)
			return perm_error(err, errlen);
		return errf(err, errlen, r, "cannot load the tracepoint programs: %s (-vv shows "
			    "libbpf's log)", strerror(-r));
	}
	np_info("trace: %s on ifindex %d, netns inode %u, %s", t->attach, t->ifindex,
		t->netns_inum, t->has_reason ? "drop reasons" : "drop locations");
	*out = t;
	return 0;
}

/* Per-CPU values come as ncpu slots of the value size rounded up to 8 bytes. */
static int read_drops(struct np_tracer *t, struct np_trace_raw *out)
{
	struct bpf_map *m = t->skel->maps.drops;
	struct np_drop_key key, next, *prev = NULL;
	uint64_t *vals = calloc(out->ncpu, sizeof(*vals));
	int r = 0;

	if (!vals)
		return -ENOMEM;
	while (bpf_map__get_next_key(m, prev, &next, sizeof(next)) == 0) {
		struct np_trace_raw_drop *d, *nd;

		key = next;
		prev = &key;
		/* Every key below max_entries exists in an array: a failure is an error, not
		 * an empty slot (silence would break arrivals >= drops). */
		if (bpf_map__lookup_elem(m, &key, sizeof(key), vals, out->ncpu * sizeof(*vals),
					 0)) {
			r = -errno;
			break;
		}	/* deleted meanwhile: cannot happen, nothing deletes */
		nd = realloc(out->drops, (out->ndrops + 1) * sizeof(*nd));
		if (!nd) {
			r = -ENOMEM;
			break;
		}
		out->drops = nd;
		d = &nd[out->ndrops];
		memset(d, 0, sizeof(*d));
		d->per_cpu = calloc(out->ncpu, sizeof(*d->per_cpu));
		if (!d->per_cpu) {
			r = -ENOMEM;
			break;
		}
		out->ndrops++;
		d->reason = key.reason;
		d->location = key.location;
		for (unsigned int c = 0; c < out->ncpu; c++) {
			d->per_cpu[c] = vals[c];
			d->count += vals[c];
		}
	}
	free(vals);
	if (r == 0)
		r = np_trace_read_drop_fast(bpf_map__fd(t->skel->maps.drop_fast), out);
	return r;
}

static int read_arrivals(struct np_tracer *t, struct np_trace_raw *out)
{
	struct bpf_map *m = t->skel->maps.arrivals;
	struct np_arrival_val *vals = calloc(out->ncpu, sizeof(*vals));
	int r = 0;

	if (!vals)
		return -ENOMEM;
	/* Every slot of the array, once at the end of the window: NP_BPF_MAX_QUEUES lookups. */
	for (uint32_t key = 0; r == 0 && key < NP_BPF_MAX_QUEUES; key++) {
		/* Every key below max_entries exists in an array: a failure is an error, not
		 * an empty slot (silence would break arrivals >= drops). */
		if (bpf_map__lookup_elem(m, &key, sizeof(key), vals, out->ncpu * sizeof(*vals),
					 0)) {
			r = -errno;
			break;
		}
		for (unsigned int c = 0; c < out->ncpu; c++) {
			struct np_trace_raw_arrival *a, *na;

			if (!vals[c].packets && !vals[c].gro)
				continue;
			na = realloc(out->arrivals, (out->narrivals + 1) * sizeof(*na));
			if (!na) {
				r = -ENOMEM;
				break;
			}
			out->arrivals = na;
			a = &na[out->narrivals++];
			a->queue = (int)key - 1;
			a->cpu = c;
			a->packets = vals[c].packets;
			a->gro = vals[c].gro;
		}
	}
	free(vals);
	return r;
}

/* The flows map: shared values (no per-CPU slots), one lookup per key. */
static int read_flows(struct np_tracer *t, struct np_trace_raw *out)
{
	struct bpf_map *m = t->skel->maps.flows;
	struct np_flow_key key, next, *prev = NULL;
	size_t n;
	int r;

	while (bpf_map__get_next_key(m, prev, &next, sizeof(next)) == 0) {
		struct np_trace_raw_flow *nf;
		uint64_t v;

		key = next;
		prev = &key;
		if (bpf_map__lookup_elem(m, &key, sizeof(key), &v, sizeof(v), 0))
			return -errno;
		nf = realloc(out->flows, (out->nflows + 1) * sizeof(*nf));
		if (!nf)
			return -ENOMEM;
		out->flows = nf;
		nf[out->nflows].key = key;
		nf[out->nflows++].count = v;
	}
	n = out->nflows;
	r = np_trace_read_flow_fast(bpf_map__fd(t->skel->maps.flow_fast), NULL, &out->flows,
				    &out->nflows);
	out->flow_slot_keys = out->nflows - n;	/* in a slot only: no key of the map */
	return r;
}

static uint64_t read_stat(struct np_tracer *t, struct np_trace_raw *out, uint32_t slot)
{
	uint64_t *vals = calloc(out->ncpu, sizeof(*vals)), sum = 0;

	if (vals && bpf_map__lookup_elem(t->skel->maps.stats, &slot, sizeof(slot), vals,
					 out->ncpu * sizeof(*vals), 0) == 0)
		for (unsigned int c = 0; c < out->ncpu; c++)
			sum += vals[c];
	free(vals);
	return sum;
}

/* --stack: every (reason, stack id) count, each with its frames from the stack map. */
static int read_stacks(struct np_tracer *t, struct np_trace_raw *out)
{
	struct bpf_map *m = t->skel->maps.stack_counts;
	int sfd = bpf_map__fd(t->skel->maps.stacks);
	struct np_stack_key key, next, *prev = NULL;

	while (bpf_map__get_next_key(m, prev, &next, sizeof(next)) == 0) {
		struct np_trace_raw_stack *ns, *st;
		uint64_t v;

		key = next;
		prev = &key;
		if (bpf_map__lookup_elem(m, &key, sizeof(key), &v, sizeof(v), 0))
			return -errno;
		ns = realloc(out->stacks, (out->nstacks + 1) * sizeof(*ns));
		if (!ns)
			return -ENOMEM;
		out->stacks = ns;
		st = &ns[out->nstacks++];
		memset(st, 0, sizeof(*st));
		st->reason = key.reason;
		st->count = v;
		if (key.stackid < 0)
			continue;
		/* A stack shorter than the depth ends with zeros. */
		if (bpf_map_lookup_elem(sfd, &key.stackid, st->ips) == 0)
			while (st->nips < NP_BPF_STACK_DEPTH && st->ips[st->nips])
				st->nips++;
	}
	return 0;
}

int np_trace_read(struct np_tracer *t, struct np_trace_raw *out)
{
	int n, r;

	memset(out, 0, sizeof(*out));
	/* Stop counting drops first: the drops, flows and "other" maps are read one after the
	 * other, and a drop counted in between would make a reason's flows disagree with its
	 * count. Arrivals go on, which keeps arrivals >= drops. */
	bpf_link__destroy(t->skel->links.np_drop_btf);
	bpf_link__destroy(t->skel->links.np_drop_raw);
	t->skel->links.np_drop_btf = NULL;
	t->skel->links.np_drop_raw = NULL;
	n = libbpf_num_possible_cpus();
	if (n <= 0)
		return n < 0 ? n : -EINVAL;
	out->ncpu = (unsigned int)n;
	out->has_reason = t->has_reason;
	out->by_location = t->by_location;
	out->gro_attached = t->gro_attached;
	out->attach = t->attach;
	out->flows_on = t->opt.flows;
	out->by = t->opt.by;
	out->flow_cap = NP_BPF_MAX_FLOWS;
	out->lost = read_stat(t, out, NP_BPF_STAT_LOST);
	out->filtered = read_stat(t, out, NP_BPF_STAT_FILTERED);
	out->arrivals_bpf = t->opt.arrivals;
	if (t->rx_counted && np_trace_rx_packets(t->ifindex, &out->rx_packets) == 0) {
		out->rx_counted = true;
		out->rx_packets -= t->rx_start;	/* unsigned: a counter reset wraps, as in doctor */
	}
	r = read_drops(t, out);
	if (r == 0 && t->opt.arrivals)
		r = read_arrivals(t, out);
	if (r == 0 && t->opt.flows)
		r = read_flows(t, out);
	if (r == 0 && t->opt.flows)
		r = np_trace_read_flow_other(bpf_map__fd(t->skel->maps.flow_other), out);
	out->stacks_on = t->opt.stacks;
	if (r == 0 && t->opt.stacks) {
		out->stacks_unkeyed = read_stat(t, out, NP_BPF_STAT_STACK_UNKEYED);
		r = read_stacks(t, out);
	}
	if (r < 0)
		np_trace_raw_free(out);
	return r;
}

int np_trace_peek(struct np_tracer *t, struct np_trace_raw *out)
{
	int n = libbpf_num_possible_cpus(), r;

	memset(out, 0, sizeof(*out));
	if (n <= 0)
		return n < 0 ? n : -EINVAL;
	out->ncpu = (unsigned int)n;
	out->has_reason = t->has_reason;
	out->by_location = t->by_location;
	out->attach = t->attach;
	out->lost = read_stat(t, out, NP_BPF_STAT_LOST);
	r = read_drops(t, out);
	if (r < 0)
		np_trace_raw_free(out);
	return r;
}

/* Each key is taken out as it is read: the next minute starts from an empty map, so the map's
 * capacity bounds the flows of one minute, not of the whole recording. A drop counted between
 * the walk and its key's removal is in the next minute (lookup-and-delete, 5.14+) or lost
 * (the plain lookup then delete of older kernels: microseconds, once a minute). */
int np_trace_take_flows(struct np_tracer *t, struct np_trace_raw_flow **out, size_t *n)
{
	struct bpf_map *m = t->skel->maps.flows;
	struct np_flow_key key, next, *prev = NULL, *keys = NULL;
	size_t nk = 0, cap = 0;
	int r;

	*out = NULL;
	*n = 0;
	if (!t->opt.flows)
		return 0;
	while (nk < NP_BPF_MAX_FLOWS && bpf_map__get_next_key(m, prev, &next, sizeof(next)) == 0) {
		if (nk == cap) {
			struct np_flow_key *p = realloc(keys, (cap ? cap * 2 : 64) * sizeof(*p));

			if (!p) {
				free(keys);
				return -ENOMEM;
			}
			keys = p;
			cap = cap ? cap * 2 : 64;
		}
		keys[nk++] = next;
		key = next;
		prev = &key;
	}
	*out = calloc(nk ? nk : 1, sizeof(**out));
	if (!*out) {
		free(keys);
		return -ENOMEM;
	}
	for (size_t i = 0; i < nk; i++) {
		uint64_t v;
		int fd = bpf_map__fd(m);

		if (bpf_map_lookup_and_delete_elem(fd, &keys[i], &v) != 0) {
			if (bpf_map_lookup_elem(fd, &keys[i], &v) != 0)
				continue;
			bpf_map_delete_elem(fd, &keys[i]);
		}
		(*out)[*n].key = keys[i];
		(*out)[(*n)++].count = v;
	}
	free(keys);
	/* The flow_fast slots' growth since the last call (their keys stay, their counts grow). */
	r = np_trace_read_flow_fast(bpf_map__fd(t->skel->maps.flow_fast), &t->flow_taken, out, n);
	if (r < 0) {
		free(*out);
		*out = NULL;
		*n = 0;
	}
	return r;
}

int np_trace_ifindex(const struct np_tracer *t)
{
	return t->ifindex;
}

const struct np_reason_names *np_trace_names(const struct np_tracer *t)
{
	return &t->names;
}

uint32_t np_trace_netns_inum(const struct np_tracer *t)
{
	return t->netns_inum;
}

void np_trace_stop(struct np_tracer *t)
{
	if (!t)
		return;
	np_drops__destroy(t->skel);
	np_reason_names_free(&t->names);
	free(t->flow_taken);
	free(t);
}

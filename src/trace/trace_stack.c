// SPDX-License-Identifier: GPL-2.0-only
/* trace --stack: rank the (reason, stack) counts, symbolise the top stacks, print them. */
#include "trace_stack.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"

/* Frames that belong to the observer, not to the drop: the BPF program and the tracepoint's
 * dispatch above the function that freed the skb. */
static bool tracing_frame(const char *name)
{
	static const char *const prefixes[] = { "bpf_", "__bpf_", "__traceiter_", "perf_",
						"trace_call_bpf" };

	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

size_t np_trace_stack_symbolize(const uint64_t *ips, size_t n, const struct np_ksyms *ks,
				char frames[][NP_TRACE_FRAME_LEN])
{
	size_t first = 0, w = 0;

	if (n > NP_BPF_STACK_DEPTH)
		n = NP_BPF_STACK_DEPTH;
	while (first < n) {
		const struct np_ksym *s = np_ksyms_find(ks, ips[first], NULL);

		if (!s || !tracing_frame(s->name))
			break;
		first++;
	}
	if (first == n)
		first = 0;	/* nothing but tracing frames: show them rather than nothing */
	for (size_t i = first; i < n; i++)
		np_ksyms_format(ks, ips[i], frames[w++], NP_TRACE_FRAME_LEN);
	return w;
}

/* Busiest first; ties by reason, then by the frames, so the order never follows the map's. */
static int by_count(const void *pa, const void *pb)
{
	const struct np_trace_raw_stack *a = *(const struct np_trace_raw_stack *const *)pa;
	const struct np_trace_raw_stack *b = *(const struct np_trace_raw_stack *const *)pb;

	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	if (a->reason != b->reason)
		return a->reason < b->reason ? -1 : 1;
	return memcmp(a->ips, b->ips, sizeof(a->ips));
}

int np_trace_stacks_build(const struct np_trace_raw *raw, const struct np_reason_names *names,
			  const struct np_ksyms *ks, size_t top, struct np_trace_stacks *out)
{
	const struct np_trace_raw_stack **rec;
	size_t nrec = 0;

	memset(out, 0, sizeof(*out));
	if (!raw->stacks_on)
		return 0;
	out->on = true;
	out->depth = NP_BPF_STACK_DEPTH;
	out->cap = NP_BPF_MAX_STACKS;
	out->unkeyed = raw->stacks_unkeyed;
	out->total = raw->stacks_unkeyed;
	rec = calloc(raw->nstacks ? raw->nstacks : 1, sizeof(*rec));
	if (!rec)
		goto nomem;
	for (size_t i = 0; i < raw->nstacks; i++) {
		out->total += raw->stacks[i].count;
		if (raw->stacks[i].nips)
			rec[nrec++] = &raw->stacks[i];
		else
			out->unrecorded += raw->stacks[i].count;
	}
	qsort(rec, nrec, sizeof(*rec), by_count);
	out->n = nrec < top ? nrec : top;
	out->top = calloc(out->n ? out->n : 1, sizeof(*out->top));
	if (!out->top)
		goto nomem;
	for (size_t i = 0; i < nrec; i++) {
		struct np_trace_stack *s = &out->top[i];

		if (i >= out->n) {
			out->other += rec[i]->count;
			continue;
		}
		s->count = rec[i]->count;
		if (raw->has_reason && names && names->n)
			np_reason_name(names, rec[i]->reason, s->reason, sizeof(s->reason));
		s->nframes = np_trace_stack_symbolize(rec[i]->ips, rec[i]->nips, ks, s->frames);
	}
	free(rec);
	return 0;
nomem:
	free(rec);
	np_trace_stacks_free(out);
	return -ENOMEM;
}

void np_trace_stacks_free(struct np_trace_stacks *s)
{
	free(s->top);
	memset(s, 0, sizeof(*s));
}

void np_trace_stacks_json(struct np_json *j, const struct np_trace_stacks *s)
{
	if (!s || !s->on) {
		np_json_null(j);
		return;
	}
	np_json_obj_open(j);
	np_json_kv_u64(j, "depth", s->depth);
	np_json_kv_u64(j, "cap", s->cap);
	np_json_kv_u64(j, "total", s->total);
	np_json_kv_u64(j, "other", s->other);
	np_json_kv_u64(j, "unrecorded", s->unrecorded);
	np_json_kv_u64(j, "unkeyed", s->unkeyed);
	np_json_key(j, "top");
	np_json_arr_open(j);
	for (size_t i = 0; i < s->n; i++) {
		np_json_obj_open(j);
		np_json_kv_str(j, "reason", s->top[i].reason[0] ? s->top[i].reason : NULL);
		np_json_kv_u64(j, "count", s->top[i].count);
		np_json_key(j, "frames");
		np_json_arr_open(j);
		for (size_t k = 0; k < s->top[i].nframes; k++)
			np_json_str(j, s->top[i].frames[k]);
		np_json_arr_close(j);
		np_json_obj_close(j);
	}
	np_json_arr_close(j);
	np_json_obj_close(j);
}

void np_trace_stacks_text(FILE *out, const struct np_trace_stacks *s)
{
	char a[32], b[32];

	if (!s || !s->on)
		return;
	fprintf(out, "\nTop kernel stacks of drops (--stack; %s drops, innermost frame first):\n",
		np_fmt_count((double)s->total, a, sizeof(a)));
	if (!s->n)
		fputs("  no stack recorded during the window\n", out);
	for (size_t i = 0; i < s->n; i++) {
		fprintf(out, "  %s drops%s%s\n", np_fmt_count((double)s->top[i].count, a, sizeof(a)),
			s->top[i].reason[0] ? " " : "", s->top[i].reason);
		for (size_t k = 0; k < s->top[i].nframes; k++)
			fprintf(out, "      %s\n", s->top[i].frames[k]);
	}
	if (s->other)
		fprintf(out, "  %s drops with other stacks\n",
			np_fmt_count((double)s->other, a, sizeof(a)));
	if (s->unrecorded || s->unkeyed)
		fprintf(out, "  %s drops without a stack (the stack map of %zu stacks was full or "
			"two stacks collided), %s not counted (the counts map was full)\n",
			np_fmt_count((double)s->unrecorded, a, sizeof(a)), s->cap,
			np_fmt_count((double)s->unkeyed, b, sizeof(b)));
}

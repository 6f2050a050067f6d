// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz the recorder's counter names into a snapshot (np_snapcnt_apply): a recording is data
 * netpath did not write. The input is one name per line; each value is derived from the
 * line's number (NP_NA every seventh). Invariants: ids within their bounds, no repeated CPU or
 * queue, lists within NP_SOCK_TOP; and what apply built is a fixed point of encode then apply.
 */
#include "fuzz.h"
#include "snapshot_counters.h"

static void config(struct np_snapshot *s)
{
	static const unsigned irq[] = { 45, 46 };
	struct np_sysctl *e;

	np_snapshot_init(s);
	for (int i = 0; i < NP_SRC__COUNT; i++)
		np_srcp(s, i)->status = NP_SRC_OK;
	snprintf(s->ifname, sizeof(s->ifname), "eth0");
	snprintf(s->dev.name, sizeof(s->dev.name), "eth0");
	e = np_sysctl_add(&s->hs->sysctl, "net.netfilter.nf_conntrack_count");
	if (e)
		np_parse_sysctl_value("1", e);
	s->irqs.lines = calloc(2, sizeof(*s->irqs.lines));
	s->rtnl.qdiscs = calloc(2, sizeof(*s->rtnl.qdiscs));
	if (!s->irqs.lines || !s->rtnl.qdiscs)
		abort();
	s->irqs.n = s->rtnl.nqdisc = 2;
	for (int i = 0; i < 2; i++)
		s->irqs.lines[i].irq = irq[i];
	s->rtnl.qdiscs[0].handle = 0x10000;
	s->rtnl.qdiscs[0].parent = 0xffffffff;
	s->rtnl.qdiscs[1].parent = 0x10001;
	s->rtnl.has_stats64 = true;
}

/* The frame's names as C strings. */
static const char **names_of(const struct np_named_counters *c)
{
	const char **n = calloc(c->n + 1, sizeof(*n));
	const char *p = c->names;

	if (!n)
		abort();
	for (size_t i = 0; i < c->n; i++) {
		n[i] = p;
		p += strlen(p) + 1;
	}
	return n;
}

static void encode(const struct np_snapshot *s, struct np_named_counters *c)
{
	np_named_counters_init(c);
	FUZZ_CHECK(np_snapcnt_host(s, c) == 0 && np_snapcnt_dev(s, c) == 0);
}

static void check_shape(const struct np_snapshot *s)
{
	static unsigned char seen[NP_MAX_CPUS];

	FUZZ_CHECK(s->hs->softnet.n <= NP_MAX_CPUS && s->hs->softirqs.n <= NP_MAX_CPUS);
	memset(seen, 0, sizeof(seen));
	for (size_t i = 0; i < s->hs->softnet.n; i++) {
		int cpu = s->hs->softnet.rows[i].cpu;

		FUZZ_CHECK(cpu >= 0 && cpu < NP_MAX_CPUS && !seen[cpu]);
		seen[cpu] = 1;
	}
	FUZZ_CHECK(s->eth.nqstats <= NP_SNAPCNT_MAX_QUEUES);
	for (size_t i = 0; i < s->eth.nqstats; i++)
		FUZZ_CHECK(s->eth.qstats[i].queue >= 0 &&
			   s->eth.qstats[i].queue < NP_SNAPCNT_MAX_QUEUES);
	FUZZ_CHECK(s->irqs.ncols <= NP_MAX_CPUS);
	for (size_t c = 0; c < s->irqs.ncols; c++)
		FUZZ_CHECK(s->irqs.col_cpu[c] >= -1 && s->irqs.col_cpu[c] < NP_MAX_CPUS);
	FUZZ_CHECK(s->socks.udp.n <= NP_SOCK_TOP && s->socks.listen.n <= NP_SOCK_TOP);
	for (size_t i = 0; i < s->hs->mib.n; i++)
		FUZZ_CHECK(!strchr(s->hs->mib.e[i].name, '/'));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_copy(data, size), *p, *nl;
	const char **names = calloc(size + 1, sizeof(*names)), **n1;
	uint64_t *v = calloc(size + 1, sizeof(*v));
	struct np_named_counters e1, e2;
	struct np_snapshot a, b;
	size_t n = 0;

	if (!buf || !names || !v)
		abort();
	/* Lines into names (a NUL inside a line ends that name early: the reader's strings). */
	buf = realloc(buf, size + 1);
	if (!buf)
		abort();
	buf[size] = '\0';
	for (p = buf; p <= buf + size && *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		*nl = '\0';
		names[n] = p;
		v[n] = n % 7 == 6 ? NP_NA : (n + 1) * 0x9e3779b97f4a7c15ull >> (n % 40);
		n++;
		if (nl == buf + size)
			break;
	}
	config(&a);
	FUZZ_CHECK(np_snapcnt_apply(&a, names, v, n) == 0);
	check_shape(&a);

	/* encode(a) applied to a fresh configuration encodes the same again. */
	encode(&a, &e1);
	n1 = names_of(&e1);
	config(&b);
	FUZZ_CHECK(np_snapcnt_apply(&b, n1, e1.v, e1.n) == 0);
	encode(&b, &e2);
	FUZZ_CHECK(e1.n == e2.n && e1.names_len == e2.names_len);
	FUZZ_CHECK(!memcmp(e1.names, e2.names, e1.names_len));
	FUZZ_CHECK(!memcmp(e1.v, e2.v, e1.n * sizeof(*e1.v)));

	free(n1);
	np_named_counters_free(&e1);
	np_named_counters_free(&e2);
	np_snapshot_free(&a);
	np_snapshot_free(&b);
	free(names);
	free(v);
	free(buf);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Every text parser against every fixture cut at every length, with random bytes and with
 * single-byte mutations: only known errnos come back, errors leave outputs empty, and exact-size
 * buffers let AddressSanitizer catch any read past len.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <net/if.h>

#include "fixture.h"
#include "parse.h"

static const char *const fixtures[] = {
	"conntrack_new.txt", "conntrack_old.txt", "interrupts.real.txt",
	"interrupts_16cpu_i40e_mlx5.txt", "interrupts_arm64_offline.txt", "ipv6_route.real.txt",
	"ipv6_route_multi.txt", "meminfo.real.txt", "netstat.real.txt", "route.real.txt",
	"route_multi.txt", "snmp.real.txt", "snmp6.real.txt", "sockstat.real.txt",
	"softirqs.real.txt", "softnet_11col_offline.txt", "softnet_13col.txt",
	"softnet_15col.txt", "softnet_stat.real.txt", "stat_nf_conntrack.real.txt",
};

static bool known(int err)
{
	return err == 0 || err == -EINVAL || err == -EBADMSG || err == -ERANGE || err == -ENOENT;
}

/* Runs every parser over buf[0..len), which must be an exact-size allocation. */
static void run_all(const char *buf, size_t len)
{
	static const unsigned irqs[] = { 0, 24, 38, 121 };
	static const char *const names[] = { "eth", "virtio", "mlx5" };
	struct np_irq_filter f = { .irqs = irqs, .nirqs = 4, .names = names, .nnames = 3 };
	struct np_cpuset online;
	struct np_softnet sn;
	struct np_softirqs si;
	struct np_interrupts it;
	struct np_counters c = { 0 };
	struct np_sockstat ss;
	struct np_meminfo mi;
	struct np_sysctl sc;
	struct np_cpuset cs;
	char ifname[IF_NAMESIZE], *str;
	uint64_t mts;
	int err;

	np_cpuset_zero(&online);
	for (unsigned cpu = 0; cpu < 64; cpu += 2)
		np_cpuset_set(&online, cpu);

	err = np_parse_softnet(buf, len, &online, &sn);
	assert_true(known(err));
	if (err)
		assert_true(!sn.rows && !sn.n);
	for (size_t i = 0; i < sn.n; i++)
		assert_true(sn.rows[i].cpu >= 0 && sn.rows[i].cpu < NP_MAX_CPUS);
	free(sn.rows);

	err = np_parse_softirqs(buf, len, &si);
	assert_true(known(err));
	if (err)
		assert_true(!si.cpu && !si.net_rx && !si.net_tx && !si.n);
	free(si.cpu);
	free(si.net_rx);
	free(si.net_tx);

	err = np_parse_interrupts(buf, len, &f, &it);
	assert_true(known(err));
	if (err)
		assert_true(!it.lines && !it.col_cpu && !it.n);
	for (size_t i = 0; i < it.n; i++) {
		assert_true(strlen(it.lines[i].name) < sizeof(it.lines[i].name));
		free(it.lines[i].count);
	}
	free(it.lines);
	free(it.col_cpu);

	err = np_parse_mib(buf, len, &c);
	assert_true(known(err));
	if (err == -EINVAL)
		assert_true(!c.n);
	np_counters_free(&c);

	err = np_parse_conntrack_stat(buf, len, &c);
	assert_true(known(err));
	if (err == -EINVAL)
		assert_true(!c.n);
	np_counters_free(&c);

	assert_true(known(np_parse_sockstat(buf, len, &ss)));
	assert_true(known(np_parse_meminfo(buf, len, &mi)));
	assert_true(known(np_parse_route_default(buf, len, ifname, sizeof(ifname))));
	assert_true(strlen(ifname) < sizeof(ifname));
	assert_true(known(np_parse_ipv6_route_default(buf, len, ifname, sizeof(ifname))));
	assert_true(known(np_parse_pci_config((const uint8_t *)buf, len, &(struct np_pcie){ 0 })));

	/* The string parsers take C strings: give them one that ends exactly at len. */
	str = malloc(len + 1);
	assert_non_null(str);
	memcpy(str, buf, len);
	str[len] = '\0';
	assert_true(known(np_parse_sysctl_value(str, &sc)));
	assert_true(strlen(sc.raw) < sizeof(sc.raw));
	assert_true(known(np_parse_cpulist(str, &cs)));
	assert_true(known(np_parse_cpumask(str, &cs)));
	assert_true(known(np_parse_pcie_speed(str, &mts)));
	free(str);
}

static void test_truncations(void **state)
{
	(void)state;
	for (size_t k = 0; k < sizeof(fixtures) / sizeof(fixtures[0]); k++) {
		size_t len;
		char *buf = load_fixture(fixtures[k], &len);

		assert_non_null(buf);
		/* Every cut for small files; a stride for the big ones keeps this fast. */
		for (size_t cut = 0; cut <= len; cut += len > 2048 ? 7 : 1) {
			char *p = exact_copy(buf, cut);

			run_all(p, cut);
			free(p);
		}
		free(buf);
	}
}

/* xorshift: reproducible without depending on libc's rand(). */
static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void test_random_bytes(void **state)
{
	static const char alphabet[] = "0123456789abcdefCPU: -\n\t,.xGT/s kB";
	uint64_t s = 0x9e3779b97f4a7c15ull;

	(void)state;
	for (int iter = 0; iter < 3000; iter++) {
		size_t len = (size_t)(rnd(&s) % 300);
		char *p = malloc(len ? len : 1);
		bool raw = iter % 3 == 0;

		assert_non_null(p);
		for (size_t i = 0; i < len; i++)
			p[i] = raw ? (char)rnd(&s) : alphabet[rnd(&s) % (sizeof(alphabet) - 1)];
		run_all(p, len);
		free(p);
	}
}

static void test_mutations(void **state)
{
	uint64_t s = 12345;

	(void)state;
	for (size_t k = 0; k < sizeof(fixtures) / sizeof(fixtures[0]); k++) {
		size_t len;
		char *buf = load_fixture(fixtures[k], &len);

		assert_non_null(buf);
		for (int iter = 0; iter < 60 && len; iter++) {
			char *p = exact_copy(buf, len);
			static const char subst[] = { ' ', '\n', '\0', ':', '-', 'f', '9', 'x' };

			for (int m = 0; m < 4; m++)
				p[rnd(&s) % len] = subst[rnd(&s) % sizeof(subst)];
			run_all(p, len);
			free(p);
		}
		free(buf);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_truncations),
		cmocka_unit_test(test_random_bytes),
		cmocka_unit_test(test_mutations),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

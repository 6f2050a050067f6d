// SPDX-License-Identifier: GPL-2.0-only
/*
 * Recognising a sosreport and saying what it is: sos version, host, kernel, when, and which of
 * the files doctor reads it does not hold. File names follow sos's _mangle_command() (3.0 to
 * 4.x): "ethtool -g eth0" -> sos_commands/networking/ethtool_-g_eth0.
 */
#include "sos.h"
#include "collect.h"
#include "text_util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int np_sos_read(const struct np_ctx *ctx, const char *dir, const char *prefix, const char *ifname,
		char **buf, size_t *len, char *file, size_t fsize)
{
	char path[256], want[128];
	struct dirent *de;
	DIR *d;
	int r;

	*buf = NULL;
	*len = 0;
	snprintf(file, fsize, "%s%s", prefix, ifname);
	snprintf(path, sizeof(path), "sos_commands/%s/%s%s", dir, prefix, ifname);
	r = np_read_file(ctx, NP_TOP, path, buf, len);
	if (r != -ENOENT)
		return r;
	/* sos 3.2-3.6 named devices after `ip -o link`: "bond0.104@bond0" became
	 * "bond0.104_bond0" in the file name. */
	snprintf(want, sizeof(want), "%s%s_", prefix, ifname);
	snprintf(path, sizeof(path), "sos_commands/%s", dir);
	if (np_opendir(ctx, NP_TOP, path, &d) < 0)
		return -ENOENT;
	r = -ENOENT;
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, want, strlen(want)) != 0 || strchr(de->d_name + strlen(want), '_'))
			continue;
		snprintf(path, sizeof(path), "sos_commands/%s/%.128s", dir, de->d_name);
		r = np_read_file(ctx, NP_TOP, path, buf, len);
		if (r == 0)
			np_slice_copy(file, fsize, (struct np_slice){ de->d_name, strlen(de->d_name) });
		break;
	}
	closedir(d);
	return r;
}

int np_sos_read_first(const struct np_ctx *ctx, const char *const *names, char **buf, size_t *len,
		      const char **which)
{
	int r = -ENOENT;

	*which = names[0];
	for (size_t i = 0; names[i]; i++) {
		r = np_read_file(ctx, NP_TOP, names[i], buf, len);
		if (r != -ENOENT) {
			*which = names[i];
			return r;
		}
	}
	return r;
}

/* The first line of a small file, trimmed and defanged. */
static bool first_line(const struct np_ctx *ctx, const char *path, char *out, size_t size)
{
	char buf[256], *nl;

	if (np_read_str(ctx, NP_TOP, path, buf, sizeof(buf)) <= 0)
		return false;
	nl = strchr(buf, '\n');
	if (nl)
		*nl = '\0';
	np_slice_copy(out, size, np_trim((struct np_slice){ buf, strlen(buf) }));
	return out[0] != '\0';
}

/* "key": "value" in manifest.json (sos 4.x): the first occurrence, a flat string value. A
 * JSON parser would be more than this needs: the keys read are top-level ones written first. */
static bool manifest_str(const char *json, const char *key, char *out, size_t size)
{
	char pat[64];
	const char *p, *e;

	snprintf(pat, sizeof(pat), "\"%s\": \"", key);
	p = strstr(json, pat);
	if (!p)
		return false;
	p += strlen(pat);
	e = strchr(p, '"');
	if (!e || e - p > 64)
		return false;
	np_slice_copy(out, size, (struct np_slice){ p, (size_t)(e - p) });
	return out[0] != '\0';
}

static void lack(struct np_origin *o, const char *fmt, ...)
{
	size_t n = strlen(o->lacks);
	char item[128];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(item, sizeof(item), fmt, ap);
	va_end(ap);
	if (n + strlen(item) + 8 >= sizeof(o->lacks)) {
		if (n + 5 < sizeof(o->lacks) && !strstr(o->lacks, "; ..."))
			strcat(o->lacks, "; ...");
		return;
	}
	if (n)
		strcat(o->lacks, "; ");
	strcat(o->lacks, item);
}

static bool any_exists(const struct np_ctx *ctx, const char *const *paths)
{
	for (size_t i = 0; paths[i]; i++)
		if (np_exists(ctx, NP_TOP, paths[i]))
			return true;
	return false;
}

/* The ethtool outputs doctor reads, per interface, and what their absence costs. */
static const struct {
	const char *prefix;
	const char *what;
} ethtool_files[] = {
	{ "ethtool_-i_", "driver" },
	{ "ethtool_-g_", "rings" },
	{ "ethtool_-l_", "channels (sos < 3.7 did not run ethtool -l)" },
	{ "ethtool_-c_", "coalescing" },
	{ "ethtool_-k_", "features" },
	{ "ethtool_-S_", "driver counters" },
	{ "ethtool_", "link modes" },
};
#define N_ETHTOOL (sizeof(ethtool_files) / sizeof(ethtool_files[0]))

static void add_name(char (*names)[IF_NAMESIZE], size_t *n, const char *name)
{
	if (!np_ifname_ok(name) || !strcmp(name, "lo") || !strcmp(name, "bonding_masters"))
		return;
	for (size_t i = 0; i < *n; i++)
		if (!strcmp(names[i], name))
			return;
	snprintf(names[(*n)++], IF_NAMESIZE, "%.15s", name);
}

static void interface_lacks(const struct np_ctx *ctx, struct np_origin *o)
{
	char names[32][IF_NAMESIZE], file[128], *buf;
	size_t n = 0, len;
	struct dirent *de;
	DIR *d;

	/* The interfaces: sysfs's list where sos copied it (3.9+), and every interface sos ran
	 * ethtool -i on (all versions). */
	if (np_opendir(ctx, NP_SYS, "class/net", &d) == 0) {
		while ((de = readdir(d)) && n < 32)
			add_name(names, &n, de->d_name);
		closedir(d);
	}
	if (np_opendir(ctx, NP_TOP, "sos_commands/networking", &d) == 0) {
		while ((de = readdir(d)) && n < 32)
			if (strncmp(de->d_name, "ethtool_-i_", 11) == 0)
				add_name(names, &n, de->d_name + 11);
		closedir(d);
	}
	if (!n)
		return;	/* no interface list to check against: each source will say it */
	for (size_t f = 0; f < N_ETHTOOL; f++) {
		size_t missing = 0;
		char which[IF_NAMESIZE] = "";

		for (size_t i = 0; i < n; i++) {
			int r = np_sos_read(ctx, "networking", ethtool_files[f].prefix, names[i], &buf,
					    &len, file, sizeof(file));

			free(buf);
			if (r == -ENOENT) {
				missing++;
				snprintf(which, sizeof(which), "%s", names[i]);
			}
		}
		if (missing == n && n > 1)
			lack(o, "no %s output for any interface (%s)", ethtool_files[f].prefix,
			     ethtool_files[f].what);
		else if (missing == 1)
			lack(o, "no %s%s", ethtool_files[f].prefix, which);
		else if (missing)
			lack(o, "no %s output for %zu of %zu interfaces", ethtool_files[f].prefix,
			     missing, n);
	}
}

static void origin_lacks(const struct np_ctx *ctx, struct np_origin *o)
{
	static const char *const ip_link[] = {
		"sos_commands/networking/ip_-s_-d_link", "sos_commands/networking/ip_-s_-s_-d_link",
		"sos_commands/networking/ip_-s_link", "sos_commands/networking/ip_link", NULL };
	static const char *const lspci[] = {
		"sos_commands/pci/lspci_-nnvv", "sos_commands/pci/lspci_-nvv", NULL };
	static const char *const tc[] = { "sos_commands/networking/tc_-s_qdisc_show", NULL };
	static const char *const lscpu[] = { "sos_commands/processor/lscpu", NULL };
	static const char *const sysctl[] = { NP_SOS_SYSCTL_A, NULL };

	if (!np_exists(ctx, NP_PROC, "sys/net") && !any_exists(ctx, sysctl))
		lack(o, "no sysctl -a (kernel plugin): no sysctls");
	if (!any_exists(ctx, ip_link))
		lack(o, "no ip -s -d link (interface counters, MTU, kind)");
	if (!any_exists(ctx, tc))
		lack(o, "no tc -s qdisc show (qdiscs)");
	if (!np_exists(ctx, NP_SYS, "devices/system/cpu/online") && !any_exists(ctx, lscpu))
		lack(o, "no lscpu and no cpu/online (CPU count)");
	if (!any_exists(ctx, lspci))
		lack(o, "no lspci -nnvv (PCIe link)");
	if (!np_exists(ctx, NP_PROC, "interrupts"))
		lack(o, "no proc/interrupts (hardware plugin): IRQ spread");
	if (!np_exists(ctx, NP_PROC, "net/softnet_stat"))
		lack(o, "no proc/net/softnet_stat");
	interface_lacks(ctx, o);
	/* Never in any sosreport: what only the running kernel answers. */
	if (!np_exists(ctx, NP_TOP, "sos_commands/networking/ss_-peaonmi"))
		lack(o, "no ss -peaonmi (sockets)");
	lack(o, "no RSS table, standard ethtool statistics or netdev qstats (sos does not collect "
		"them)");
}

void np_sos_detect(struct np_ctx *ctx)
{
	struct np_origin *o = ctx->origin;
	char buf[256], *json;
	size_t len;

	if (!ctx->confined || ctx->top_fd < 0 || !np_exists(ctx, NP_TOP, "sos_commands"))
		return;
	if (!o) {
		o = ctx->origin = malloc(sizeof(*o));
		if (!o)
			return;	/* then it reads as a plain tree */
	}
	memset(o, 0, sizeof(*o));
	o->kind = NP_ORIGIN_SOSREPORT;

	/* version.txt: "sosreport: 4.0" (3.x and 4.x); manifest.json "version" (4.x). */
	if (first_line(ctx, "version.txt", buf, sizeof(buf))) {
		const char *v = strncmp(buf, "sosreport:", 10) == 0 ? buf + 10 : buf;

		while (*v == ' ')
			v++;
		snprintf(o->tool_version, sizeof(o->tool_version), "sos %.27s", v);
	}
	if (np_read_file(ctx, NP_TOP, "sos_reports/manifest.json", &json, &len) == 0) {
		char v[40], t[40];

		if (!o->tool_version[0] && manifest_str(json, "version", v, sizeof(v)))
			snprintf(o->tool_version, sizeof(o->tool_version), "sos %.27s", v);
		/* "2026-11-25 06:12:01.139130": the sos host's local time, no zone recorded. */
		if (manifest_str(json, "start_time", t, sizeof(t)))
			snprintf(o->taken, sizeof(o->taken), "%.19s local", t);
		free(json);
	}
	if (!o->taken[0] && !first_line(ctx, "sos_commands/date/date", o->taken, sizeof(o->taken)))
		first_line(ctx, "sos_commands/general/date", o->taken, sizeof(o->taken));

	if (!first_line(ctx, "hostname", o->hostname, sizeof(o->hostname)) &&
	    !first_line(ctx, "sos_commands/host/hostname", o->hostname, sizeof(o->hostname)))
		first_line(ctx, "sos_commands/general/hostname", o->hostname, sizeof(o->hostname));

	/* "Linux HOST 6.1.0-18-amd64 #1 SMP ...": the third word is the release. */
	if (first_line(ctx, "uname", buf, sizeof(buf)) ||
	    first_line(ctx, "sos_commands/kernel/uname_-a", buf, sizeof(buf))) {
		char rel[96];

		if (sscanf(buf, "%*s %*s %95s", rel) == 1)
			snprintf(o->kernel, sizeof(o->kernel), "%s", rel);
	}
	origin_lacks(ctx, o);
}

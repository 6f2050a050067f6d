// SPDX-License-Identifier: GPL-2.0-only
/* `netpath plan`'s files and summary: each setting with its comment (why, when it does not
 * matter, cost, the value now, the checks it answers). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "render_plan.h"
#include "text_wrap.h"

/* Comment lines are wrapped here: readable in a terminal and in a diff. The files written
 * (--write) keep this width; shown on a terminal, they take the terminal's when narrower. */
#define WRAP 92

/* "# LABELtext" wrapped at wrap columns, continuation lines indented by indent spaces. */
static void comment(FILE *out, int wrap, const char *label, const char *text, int indent)
{
	const char *p = text;
	bool first = true;
	int col;

	if (!text || !text[0])
		return;
	col = fprintf(out, "# %s", label);
	for (;;) {
		size_t w;

		while (*p == ' ')
			p++;
		w = strcspn(p, " ");
		if (!w)
			break;
		if (!first && col + 1 + (int)w > wrap) {
			fprintf(out, "\n#%*s", indent + 1, "");
			col = indent + 2;
		} else if (!first) {
			col += fprintf(out, " ");
		}
		col += fprintf(out, "%.*s", (int)w, p);
		p += w;
		first = false;
	}
	fputc('\n', out);
}

static void checks_text(const struct np_plan_line *l, char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < NP_PLAN_CHECKS && l->checks[i] && n < size; i++)
		n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? ", " : "", l->checks[i]);
}

/* The comment block above a setting. */
static void line_comment(FILE *out, int wrap, const struct np_plan_line *l)
{
	char ids[160];

	comment(out, wrap, "", l->why, 0);
	comment(out, wrap, "Does not matter: ", l->moot, 2);
	comment(out, wrap, "Cost: ", l->cost, 2);
	checks_text(l, ids, sizeof(ids));
	comment(out, wrap, "Answers: ", ids, 2);
	if (l->current[0])
		fprintf(out, "# Now: %s\n", l->current);
	else
		fprintf(out, "# Now: not known from this data\n");
}

static void path_line(FILE *out, const struct np_plan *p)
{
	char b1[32], b2[32];

	fprintf(out, "# Path: ");
	if (isnan(p->bw_bps))
		fprintf(out, "bandwidth unknown");
	else
		fprintf(out, "%s (%s)", np_fmt_bps(p->bw_bps, b1, sizeof(b1)), p->bw_source);
	fprintf(out, ", RTT %g ms (%s)", p->rtt_ms, p->rtt_source);
	if (!isnan(p->bdp))
		fprintf(out, ", BDP %s", np_fmt_bytes(p->bdp, b2, sizeof(b2)));
	fputc('\n', out);
}

static void header(FILE *out, const struct np_plan *p, const char *path, const char *what)
{
	fprintf(out, "# %s%s: %s\n", strchr(path, '/') ? "/" : "", path, what);
	fprintf(out, "# netpath %s plan, profile %s, for %s%s%s. For review: netpath never "
		"applies it.\n", NETPATH_VERSION, np_profile_name(p->profile), p->ifname,
		p->kernel[0] ? " on kernel " : "", p->kernel);
	path_line(out, p);
}

static void sysctl_file(FILE *out, int wrap, const struct np_plan *p)
{
	char path[96];

	header(out, p, np_plan_file_path(p, NP_PLAN_FILE_SYSCTL, 0, path, sizeof(path)),
	       "the kernel settings");
	fprintf(out, "# Load now: sysctl -p /%s\n", path);
	for (int host = 0; host < 2; host++) {
		bool any = false;

		for (size_t i = 0; i < p->n; i++) {
			const struct np_plan_line *l = &p->l[i];

			if (l->kind != NP_PLAN_SYSCTL || l->host_wide != (host == 1))
				continue;
			if (!any)
				fprintf(out, "\n# ---- %s ----\n", host ?
					"host-wide: the initial network namespace only" :
					"per network namespace: containers have their own copy");
			any = true;
			fputc('\n', out);
			line_comment(out, wrap, l);
			fprintf(out, "%s = %s\n", l->key, l->planned);
		}
	}
}

static void link_match(FILE *out, const struct np_plan_dev *d)
{
	fprintf(out, "[Match]\n");
	/* ID_PATH ends in pci-BDF; boards with a platform host bridge put more before it. */
	if (d->bus_id[0])
		fprintf(out, "Path=*pci-%s\n", d->bus_id);
	else
		fprintf(out, "# No PCI address known: matched by the kernel's name for it.\n"
			"OriginalName=%s\n", d->name);
}

static bool of_dev(const struct np_plan_line *l, const struct np_plan_dev *d)
{
	return !strcmp(l->dev, d->name);
}

static void link_file(FILE *out, int wrap, const struct np_plan *p, size_t dev)
{
	const struct np_plan_dev *d = &p->dev[dev];
	char path[96];

	header(out, p, np_plan_file_path(p, NP_PLAN_FILE_LINK, dev, path, sizeof(path)),
	       "the NIC settings, applied by systemd-udevd each time the device appears");
	comment(out, wrap, "", "Only the first .link file that matches a device applies, so this one "
		"replaces 99-default.link for it: its naming policies are repeated below. Apply "
		"now: udevadm trigger --action=add on the device, or reboot.", 0);
	fputc('\n', out);
	link_match(out, d);
	fprintf(out, "\n[Link]\nNamePolicy=keep kernel database onboard slot path\n"
		"AlternativeNamesPolicy=database onboard slot path\n"
		"MACAddressPolicy=persistent\n");
	for (size_t i = 0; i < p->n; i++) {
		const struct np_plan_line *l = &p->l[i];

		if (l->kind != NP_PLAN_LINK || !of_dev(l, d))
			continue;
		fputc('\n', out);
		line_comment(out, wrap, l);
		fprintf(out, "%s=%s\n", l->key, l->planned);
	}
}

static void udev_match(FILE *out, const struct np_plan_dev *d)
{
	if (d->bus_id[0])
		fprintf(out, "ACTION==\"add\", SUBSYSTEM==\"net\", KERNELS==\"%s\", ", d->bus_id);
	else
		fprintf(out, "ACTION==\"add\", SUBSYSTEM==\"net\", KERNEL==\"%s\", ", d->name);
}

static void udev_file(FILE *out, int wrap, const struct np_plan *p, size_t dev)
{
	const struct np_plan_dev *d = &p->dev[dev];
	char path[96];

	header(out, p, np_plan_file_path(p, NP_PLAN_FILE_UDEV, dev, path, sizeof(path)),
	       "the same NIC settings for hosts whose udev does not apply .link files");
	comment(out, wrap, "", "Install this or the .link file, not both. udev runs each command when "
		"the device appears ($name is its final name); the comments are the .link "
		"file's.", 0);
	for (size_t i = 0; i < p->n; i++) {
		const struct np_plan_line *l = &p->l[i];

		if (l->kind != NP_PLAN_LINK || !l->command[0] || !of_dev(l, d))
			continue;
		fprintf(out, "# %s=%s (now: %s)\n", l->key, l->planned,
			l->current[0] ? l->current : "not known");
		udev_match(out, d);
		fprintf(out, "RUN+=\"%s\"\n", l->command);
	}
}

static void modules_file(FILE *out, int wrap, const struct np_plan *p)
{
	char path[96];

	header(out, p, np_plan_file_path(p, NP_PLAN_FILE_MODULES, 0, path, sizeof(path)),
	       "modules loaded at boot, before systemd-sysctl applies the settings that need "
	       "them");
	for (size_t i = 0; i < p->n; i++) {
		const struct np_plan_line *l = &p->l[i];

		if (l->kind != NP_PLAN_MODULE)
			continue;
		fputc('\n', out);
		comment(out, wrap, "", l->why, 0);
		comment(out, wrap, "Cost: ", l->cost, 2);
		fprintf(out, "# Now: %s\n%s\n", l->current, l->key);
	}
}

/* A udev command with $name replaced by the interface, for running now. */
static void now_command(FILE *out, const char *cmd, const char *ifname)
{
	const char *at = strstr(cmd, "$name");

	if (at)
		fprintf(out, "run %.*s%s%s\n", (int)(at - cmd), cmd, ifname, at + 5);
	else
		fprintf(out, "run %s\n", cmd);
}

static void now_file(FILE *out, int wrap, const struct np_plan *p)
{
	char path[96];

	fprintf(out, "#!/bin/sh\n");
	header(out, p, np_plan_file_path(p, NP_PLAN_FILE_NOW, 0, path, sizeof(path)),
	       "what the files above do at boot, done now on the running system");
	comment(out, wrap, "", "Review it first; run it as root after installing the files. NIC "
		"commands may reset the link; replacing the qdisc drops the packets queued in it.",
		0);
	/* Every step is tried: a kernel without sch_fq must not leave the sysctls and the NIC
	 * settings undone (set -e stopped at its modprobe). Each failure is said; the exit
	 * status says whether any step failed. */
	fprintf(out, "fail=0\n");
	fprintf(out, "run() { \"$@\" || { echo \"netpath: failed: $*\" >&2; fail=1; }; }\n");
	for (size_t i = 0; i < p->n; i++)
		if (p->l[i].kind == NP_PLAN_MODULE)
			fprintf(out, "run %s\n", p->l[i].command);
	if (np_plan_count(p, NP_PLAN_SYSCTL))
		fprintf(out, "run sysctl -p /etc/sysctl.d/90-netpath.conf\n");
	for (size_t i = 0; i < p->n; i++)
		if (p->l[i].kind == NP_PLAN_LINK && p->l[i].command[0])
			now_command(out, p->l[i].command, p->l[i].dev);
	for (size_t i = 0; i < p->n; i++)
		if (p->l[i].kind == NP_PLAN_QDISC) {
			comment(out, wrap, "", p->l[i].why, 0);
			fprintf(out, "run %s\n", p->l[i].command);
		}
	fprintf(out, "exit $fail\n");
}

static size_t link_lines(const struct np_plan *p, size_t dev)
{
	size_t n = 0;

	for (size_t i = 0; dev < p->ndev && i < p->n; i++)
		n += p->l[i].kind == NP_PLAN_LINK && of_dev(&p->l[i], &p->dev[dev]);
	return n;
}

size_t np_plan_file_count(const struct np_plan *p, enum np_plan_file f)
{
	return f == NP_PLAN_FILE_LINK || f == NP_PLAN_FILE_UDEV ? p->ndev : 1;
}

const char *np_plan_file_path(const struct np_plan *p, enum np_plan_file f, size_t dev,
			      char *buf, size_t size)
{
	switch (f) {
	case NP_PLAN_FILE_SYSCTL:
		if (!np_plan_count(p, NP_PLAN_SYSCTL))
			return NULL;
		snprintf(buf, size, "etc/sysctl.d/90-netpath.conf");
		return buf;
	case NP_PLAN_FILE_LINK:
		if (!link_lines(p, dev))
			return NULL;
		snprintf(buf, size, "etc/systemd/network/10-netpath-%s.link", p->dev[dev].name);
		return buf;
	case NP_PLAN_FILE_UDEV:
		if (!link_lines(p, dev))
			return NULL;
		snprintf(buf, size, "etc/udev/rules.d/70-netpath-%s.rules", p->dev[dev].name);
		return buf;
	case NP_PLAN_FILE_MODULES:
		if (!np_plan_count(p, NP_PLAN_MODULE))
			return NULL;
		snprintf(buf, size, "etc/modules-load.d/netpath.conf");
		return buf;
	case NP_PLAN_FILE_NOW:
		if (!np_plan_count(p, NP_PLAN_SYSCTL) && !np_plan_count(p, NP_PLAN_LINK) &&
		    !np_plan_count(p, NP_PLAN_MODULE) && !np_plan_count(p, NP_PLAN_QDISC))
			return NULL;
		snprintf(buf, size, "netpath-apply-now.sh");
		return buf;
	case NP_PLAN_FILE__COUNT:
		break;
	}
	return NULL;
}

static void plan_file(FILE *out, int wrap, const struct np_plan *p, enum np_plan_file f,
		      size_t dev)
{
	switch (f) {
	case NP_PLAN_FILE_SYSCTL:
		sysctl_file(out, wrap, p);
		break;
	case NP_PLAN_FILE_LINK:
		link_file(out, wrap, p, dev);
		break;
	case NP_PLAN_FILE_UDEV:
		udev_file(out, wrap, p, dev);
		break;
	case NP_PLAN_FILE_MODULES:
		modules_file(out, wrap, p);
		break;
	case NP_PLAN_FILE_NOW:
		now_file(out, wrap, p);
		break;
	case NP_PLAN_FILE__COUNT:
		break;
	}
}

void np_render_plan_file(FILE *out, const struct np_plan *p, enum np_plan_file f, size_t dev)
{
	plan_file(out, WRAP, p, f, dev);
}

static void id_list(FILE *out, const char *label, const char *const *ids, size_t n)
{
	if (!n)
		return;
	fprintf(out, "%s", label);
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s%s", i ? ", " : " ", ids[i]);
	fputc('\n', out);
}

static bool unread_any(const struct np_plan *p)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->l[i].kind == NP_PLAN_NOTE && !strcmp(p->l[i].key, NP_PLAN_UNREAD))
			return true;
	return false;
}

void np_render_plan_summary(FILE *out, const struct np_plan *p)
{
	bool any_note = false;

	fprintf(out, "Plan for %s", p->ifname);
	for (size_t d = 1; d < p->ndev; d++)
		fprintf(out, "%s%s", d == 1 ? " (and " : ", ", p->dev[d].name);
	fprintf(out, "%s, profile %s:\n", p->ndev > 1 ? ")" : "", np_profile_name(p->profile));
	for (int st = 0; st < NP_STAGE__COUNT; st++)
		for (size_t i = 0; i < p->n; i++) {
			const struct np_plan_line *l = &p->l[i];

			if ((int)l->stage != st || l->kind == NP_PLAN_NOTE)
				continue;
			fprintf(out, "  %-11s %-7s %s%s%s: %s -> %s\n", np_stage_name(l->stage),
				np_plan_kind_name(l->kind),
				p->ndev > 1 && l->kind == NP_PLAN_LINK ? l->dev : "",
				p->ndev > 1 && l->kind == NP_PLAN_LINK ? " " : "", l->key,
				l->current[0] ? l->current : "?", l->planned);
		}
	if (!np_plan_count(p, NP_PLAN_SYSCTL) && !np_plan_count(p, NP_PLAN_LINK) &&
	    !np_plan_count(p, NP_PLAN_MODULE) && !np_plan_count(p, NP_PLAN_QDISC))
		fprintf(out, "  nothing to change for this profile and path%s\n",
			unread_any(p) ? ", among the settings this data holds (see below)" : "");
	id_list(out, "Resolves (doctor judged this data again with the plan applied):",
		p->resolved, p->nresolved);
	id_list(out, "Answered, but still reported on this data with the plan applied (counters "
		"that moved before the change, or a part kept below: confirm with doctor after "
		"applying):", p->remaining, p->nremaining);
	for (size_t i = 0; i < p->n; i++) {
		const struct np_plan_line *l = &p->l[i];

		if (l->kind != NP_PLAN_NOTE)
			continue;
		if (!any_note)
			fprintf(out, "Not changed, and why:\n");
		any_note = true;
		fprintf(out, "  %s: %s\n", l->key, l->why);
	}
}

/* The files, their comments wrapped at the terminal's width (their settings never: a broken
 * line would mean something else), then the summary, wrapped. */
void np_render_plan_text(FILE *out, const struct np_plan *p, int width)
{
	int wrap = width > 0 && width < WRAP ? width : WRAP;
	struct np_wrap_stream w;
	char path[96];

	for (int f = 0; f < NP_PLAN_FILE__COUNT; f++)
		for (size_t d = 0; d < np_plan_file_count(p, (enum np_plan_file)f); d++) {
			char *buf = NULL;
			size_t len = 0;
			FILE *m;

			if (!np_plan_file_path(p, (enum np_plan_file)f, d, path, sizeof(path)))
				continue;
			fprintf(out, "==> %s%s <==\n", strchr(path, '/') ? "/" : "", path);
			m = open_memstream(&buf, &len);
			if (!m) {
				plan_file(out, wrap, p, (enum np_plan_file)f, d);
			} else {
				plan_file(m, wrap, p, (enum np_plan_file)f, d);
				if (fclose(m) == 0 && buf)
					np_wrap_comments(out, buf, width);
				free(buf);
			}
			fputc('\n', out);
		}
	np_render_plan_summary(np_wrap_open(&w, out, width), p);
	np_wrap_close(&w);
}

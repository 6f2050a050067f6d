// SPDX-License-Identifier: GPL-2.0-only
/* Why evidence is missing: a source's status, a sysctl this kernel or netns lacks, the kernel
 * version that explains it. */
#include "check_util.h"
#include "strjoin.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

const char *np_src_why(const struct np_snapshot *s, enum np_source id, char *buf, size_t size)
{
	const struct np_src *src = np_srcp(s, id);
	const char *st = src->status == NP_SRC_MALFORMED ? "refused" :
			 np_src_status_name(src->status);

	if (src->detail[0] && src->status == NP_SRC_ABSENT)
		np_strjoin(buf, size, src->detail);
	else if (src->detail[0])
		np_strjoin(buf, size, st, ": ", src->detail);
	else
		np_strjoin(buf, size, st);
	return buf;
}

bool np_kernel_version(const struct np_snapshot *s, unsigned *major, unsigned *minor)
{
	return s->hs->host.kernel[0] && sscanf(s->hs->host.kernel, "%u.%u", major, minor) == 2;
}

bool np_kernel_before(const struct np_snapshot *s, unsigned major, unsigned minor)
{
	unsigned ma, mi;

	return np_kernel_version(s, &ma, &mi) && (ma < major || (ma == major && mi < minor));
}

/*
 * A live run inside a child network namespace (a container) has no files for the host-wide
 * sysctls; netdev_max_backlog exists on every kernel, so its absence tells.
 */
bool np_in_child_netns(const struct np_snapshot *s)
{
	const struct np_sysctl *e = np_sysctl_find(s, NP_SYSCTL_NETDEV_MAX_BACKLOG);

	return !s->captured && e && e->err == ENOENT;
}

const char *np_sysctl_absence(const struct np_snapshot *s, enum np_sysctl_id id, char *buf,
			      size_t size)
{
	const struct np_sysctl *e = np_sysctl_find(s, id);
	const char *key = np_sysctl_def(id)->key;

	if (s->captured)
		snprintf(buf, size, "%s is not in this capture", key);
	else if (e && e->host_wide && np_in_child_netns(s))
		snprintf(buf, size, "%s is host-wide: no file inside a network namespace (run on "
			 "the host, or doctor --netns from there)", key);
	else if (s->hs->host.kernel[0])
		snprintf(buf, size, "%s is not present on this kernel (%s)", key,
			 s->hs->host.kernel);
	else
		snprintf(buf, size, "%s is not present on this kernel", key);
	return buf;
}

const char *np_sysctl_absence_short(const struct np_snapshot *s, enum np_sysctl_id id)
{
	const struct np_sysctl *e = np_sysctl_find(s, id);

	if (s->captured)
		return "not in this capture";
	if (e && e->host_wide && np_in_child_netns(s))
		return "host-wide, not visible in this network namespace";
	if (e && e->err == ENOENT)
		return "not on this kernel";
	return "not readable";
}

void np_skip_sysctl(const struct np_analysis *a, struct np_report *r, enum np_sysctl_id id)
{
	const struct np_sysctl *e = np_sysctl_find(a->cur, id);
	const char *key = np_sysctl_def(id)->key;
	char why[224];

	if (!e)
		np_skip(r, "%s not readable", key);
	else if (e->err == ENOENT)
		np_skip(r, "%s", np_sysctl_absence(a->cur, id, why, sizeof(why)));
	else if (e->err == EACCES || e->err == EPERM)
		np_skip(r, "%s not readable (permission denied)", key);
	else if (e->err)
		np_skip(r, "%s not readable: %s", key, strerror(e->err));
	else
		np_skip(r, "%s holds an unexpected value '%.40s'", key, e->raw);
}

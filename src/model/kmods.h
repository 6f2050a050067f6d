/* SPDX-License-Identifier: GPL-2.0-only */
/* What the kernel ships of the modules a tuning plan may need (tcp_bbr, sch_fq). */
#ifndef NP_KMODS_H
#define NP_KMODS_H

enum np_kmod_state {
	NP_KMOD_UNKNOWN,	/* lib/modules/RELEASE could not be read (a capture without it) */
	NP_KMOD_BUILTIN,	/* in modules.builtin: always there */
	NP_KMOD_MODULE,		/* a loadable module of this release (modules.dep or the file) */
	NP_KMOD_ABSENT,		/* depmod's lists were read and do not have it */
};

struct np_kmods {
	char release[64];	/* the kernel release looked under ("" unknown) */
	enum np_kmod_state tcp_bbr, sch_fq;
	char from[192];		/* what was read, or why nothing could be */
};

/* The state as plan's text and JSON print it. Here, not in the collector: plan and render name
 * states and may not include collect/. */
static inline const char *np_kmod_state_name(enum np_kmod_state st)
{
	switch (st) {
	case NP_KMOD_BUILTIN:
		return "built-in";
	case NP_KMOD_MODULE:
		return "module";
	case NP_KMOD_ABSENT:
		return "absent";
	case NP_KMOD_UNKNOWN:
		break;
	}
	return "unknown";
}

#endif

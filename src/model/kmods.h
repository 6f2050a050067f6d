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

const char *np_kmod_state_name(enum np_kmod_state st);

#endif

// SPDX-License-Identifier: GPL-2.0-only
/* Who the running machine is, for a capture's META: what uname(2), gethostname(2) and
 * sysconf(3) say of the live system. */
#include "collect.h"

#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

void np_collect_identity(struct np_identity *id)
{
	struct utsname u;
	long ps = sysconf(_SC_PAGESIZE);

	memset(id, 0, sizeof(*id));
	if (uname(&u) == 0) {
		snprintf(id->release, sizeof(id->release), "%s", u.release);
		snprintf(id->machine, sizeof(id->machine), "%s", u.machine);
	}
	if (gethostname(id->hostname, sizeof(id->hostname) - 1) < 0)
		id->hostname[0] = '\0';
	id->page_size = ps > 0 ? ps : 0;
}

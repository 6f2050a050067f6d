// SPDX-License-Identifier: GPL-2.0-only
/* Placeholder until the driver counter table lands. */
#include "driver_counters.h"

#include <string.h>

bool np_drv_classify(const char *driver, const char *name, struct np_drv_class *out)
{
	(void)driver;
	(void)name;
	memset(out, 0, sizeof(*out));
	out->queue = -1;
	return false;
}

const char *np_drv_meaning_name(enum np_drv_meaning m)
{
	(void)m;
	return "none";
}

bool np_drv_known(const char *driver)
{
	(void)driver;
	return false;
}

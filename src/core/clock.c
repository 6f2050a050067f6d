// SPDX-License-Identifier: GPL-2.0-only
#include "clock.h"

#include <time.h>

double np_mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

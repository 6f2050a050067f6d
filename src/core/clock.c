// SPDX-License-Identifier: GPL-2.0-only
#include "clock.h"

#include <errno.h>
#include <math.h>
#include <time.h>

double np_mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void np_sleep_until(double deadline, const volatile sig_atomic_t *stop)
{
	struct timespec ts = { (time_t)deadline, (long)((deadline - floor(deadline)) * 1e9) };

	while (!(stop && *stop) &&
	       clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

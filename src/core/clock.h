/* SPDX-License-Identifier: GPL-2.0-only */
/* The one clock netpath measures intervals and deadlines with. */
#ifndef NP_CLOCK_H
#define NP_CLOCK_H

/* CLOCK_MONOTONIC in seconds: immune to wall-clock steps (NTP, date -s) during a sample. */
double np_mono_now(void);

#include <signal.h>

/* Sleep until the monotonic deadline (seconds, as np_mono_now). A signal that sets *stop (may
 * be NULL) cuts it short; other interruptions resume the sleep. */
void np_sleep_until(double deadline, const volatile sig_atomic_t *stop);

#endif

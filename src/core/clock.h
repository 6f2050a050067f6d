/* SPDX-License-Identifier: GPL-2.0-only */
/* The one clock netpath measures intervals and deadlines with. */
#ifndef NP_CLOCK_H
#define NP_CLOCK_H

/* CLOCK_MONOTONIC in seconds: immune to wall-clock steps (NTP, date -s) during a sample. */
double np_mono_now(void);

#endif

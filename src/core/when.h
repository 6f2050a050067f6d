/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Moments and spans as admins write them (doctor --at, history --since/--until, record --keep
 * and --max-size): pure parsing, the current time and the time zone passed in or read from TZ
 * by the C library, never from the network or a file of ours.
 */
#ifndef NP_WHEN_H
#define NP_WHEN_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

/*
 * A moment into *out (seconds since the epoch, with fractions), relative to 'now':
 *   "2026-11-28 03:12", "2026-11-28 03:12:40"   local time (TZ), as date(1) prints it
 *   "2026-11-28"                                 local midnight
 *   "03:12", "03:12:40"                          today, local time
 *   "2026-11-28T03:12:40Z", "2026-11-28T03:12:40.5+01:00"  ISO 8601, with or without an
 *                                                offset (without one: local time)
 *   "@1795850083", "@1795850083.25"              seconds since the epoch
 *   "-10min", "-2h", "-1d", "-90s", "-1h30min"   before now ("10min ago" too)
 *   "now", "today", "yesterday"                  the last two at local midnight
 * Returns 0, or -EINVAL with a one-line reason in err (what was expected).
 * A local time that a DST change skipped or repeated is taken as mktime() takes it.
 */
int np_parse_when(const char *s, double now, double *out, char *err, size_t errlen);

/* A span: "90", "90s", "10min", "2h", "7d", "1w", "1h30min" into seconds (> 0). */
int np_parse_span(const char *s, double *out, char *err, size_t errlen);

/* A size: "500M", "2G", "20MB", "1GiB", "4096" (bytes; K/M/G/T are powers of 1024, as du and
 * journald's SystemMaxUse= read them). */
int np_parse_size(const char *s, uint64_t *out, char *err, size_t errlen);

/* "2026-11-28 03:12:40" in local time (what the text output prints for a moment). */
void np_when_format(double t, char *buf, size_t size);

#endif

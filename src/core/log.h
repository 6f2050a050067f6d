/* SPDX-License-Identifier: GPL-2.0-only */
/* Leveled logging to stderr; the only place diagnostics are printed outside renderers. */
#ifndef NP_LOG_H
#define NP_LOG_H

#include <stddef.h>

enum np_log_level { NP_LOG_ERR, NP_LOG_WARN, NP_LOG_INFO, NP_LOG_DEBUG };

void np_log_set_level(enum np_log_level lvl);
/* From the count of -v options: none keeps warnings, -v adds info, -vv debug. */
void np_log_set_verbosity(int verbose);
enum np_log_level np_log_get_level(void);
void np_log(enum np_log_level lvl, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * Text from outside the program (a config file's line, a name in a capture or archive, a
 * sosreport field, an argument) made safe to print on a terminal, into out (size n, always
 * terminated, never cut inside an escape): every C0 control byte (newline and tab included:
 * a message is one line), DEL, a C1 control (raw, or UTF-8 encoded) and any byte that is not
 * part of valid UTF-8 is written as \xNN. Valid UTF-8 text passes unchanged. Returns out.
 */
char *np_sanitize(const char *s, char *out, size_t n);
/* The room np_sanitize() needs at most for len bytes, with the terminator. */
#define NP_SANITIZED_SIZE(len) (4 * (len) + 1)

/*
 * A command's own line on stderr (the newline added), passed through np_sanitize() as a whole:
 * for notes and reasons that quote such text ("netpath doctor: ... (%s)"), where np_log's
 * "netpath: " prefix and levels do not fit.
 */
void np_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#define np_err(...)   np_log(NP_LOG_ERR, __VA_ARGS__)
#define np_warn(...)  np_log(NP_LOG_WARN, __VA_ARGS__)
#define np_info(...)  np_log(NP_LOG_INFO, __VA_ARGS__)
#define np_dbg(...)   np_log(NP_LOG_DEBUG, __VA_ARGS__)

#endif

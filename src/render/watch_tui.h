/* SPDX-License-Identifier: GPL-2.0-only */
/* The `netpath watch` screen (ncurses, the terminal's own terminfo): draw frames, wait for keys. */
#ifndef NP_WATCH_TUI_H
#define NP_WATCH_TUI_H

#include <signal.h>
#include <stdbool.h>

#include "render_watch.h"

struct np_watch_tui;

/* Takes over the terminal on stdin/stdout. NULL when it cannot (unknown TERM, no tty): the
 * caller prints plain frames instead. color: use colours when the terminal has them. */
struct np_watch_tui *np_watch_tui_open(const char *ifname, double interval, bool color);
/* Draw a frame (kept by pointer to redraw after a resize: valid until the next draw or close).
 * NULL draws the "sampling" screen shown before the first interval ends. */
void np_watch_tui_draw(struct np_watch_tui *t, const struct np_watch_frame *f);
/* Sleep in getch() until CLOCK_MONOTONIC reaches deadline, redrawing on resize. Returns true
 * when the user asked to quit (q, Q, Esc) or *stop was set by a signal handler. */
bool np_watch_tui_wait(struct np_watch_tui *t, double deadline, const volatile sig_atomic_t *stop);
/* Gives the terminal back as it was (endwin): call on every exit path. */
void np_watch_tui_close(struct np_watch_tui *t);

#endif

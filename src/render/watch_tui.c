// SPDX-License-Identifier: GPL-2.0-only
/*
 * The watch screen. All terminal control goes through ncurses and the terminfo entry of $TERM
 * (no escape codes of our own), so it behaves on a console, over ssh and inside tmux/screen.
 * The frame's tagged lines (render_watch.c) decide the words; this file only budgets screen rows
 * and picks attributes.
 */
#include "watch_tui.h"
#include "textenc.h"
#include "clock.h"

#include <curses.h>
#include <locale.h>
#include <term.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { PAIR_CRIT = 1, PAIR_WARN, PAIR_INFO, PAIR_HOT };

struct np_watch_tui {
	SCREEN *scr;
	char ifname[IF_NAMESIZE];
	double interval;
	bool color;
	const struct np_watch_frame *last;
	int row;			/* next screen row while drawing */
	int rows;			/* rows for the frame (the last is the key help) */
};

/* Probe $TERM before newterm(): a failed newterm() leaks ncurses' prescreen, setupterm() does
 * not. A terminal that cannot address the cursor (dumb, hardcopy) cannot hold a screen. */
static bool terminal_usable(void)
{
	int err = 0;
	bool ok;

	if (setupterm(NULL, STDOUT_FILENO, &err) != OK)
		return false;
	ok = tigetstr("cup") && tigetstr("cup") != (char *)-1;
	del_curterm(cur_term);
	return ok;
}

struct np_watch_tui *np_watch_tui_open(const char *ifname, double interval, bool color)
{
	struct np_watch_tui *t;

	/* ncursesw draws UTF-8 (summaries have "≈", "×") only in the user's character set. */
	setlocale(LC_CTYPE, "");
	if (!terminal_usable())
		return NULL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	/* newterm, not initscr: an error we can fall back from, not exit(). */
	t->scr = newterm(NULL, stdout, stdin);
	if (!t->scr) {
		free(t);
		return NULL;
	}
	snprintf(t->ifname, sizeof(t->ifname), "%s", ifname);
	t->interval = interval;
	cbreak();		/* keys without Enter; ^C still raises SIGINT (our flag) */
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	set_escdelay(50);	/* a lone Esc quits without the default 1 s wait */
	curs_set(0);
	if (color && has_colors() && start_color() == OK) {
		use_default_colors();
		init_pair(PAIR_CRIT, COLOR_RED, -1);
		init_pair(PAIR_WARN, COLOR_YELLOW, -1);
		init_pair(PAIR_INFO, COLOR_CYAN, -1);
		init_pair(PAIR_HOT, COLOR_RED, -1);
		t->color = true;
	}
	return t;
}

static attr_t sev_attr(const struct np_watch_tui *t, enum np_severity s)
{
	switch (s) {
	case NP_SEV_CRITICAL:
		return A_BOLD | (t->color ? COLOR_PAIR(PAIR_CRIT) : A_STANDOUT);
	case NP_SEV_WARNING:
		return t->color ? COLOR_PAIR(PAIR_WARN) | A_BOLD : A_BOLD;
	case NP_SEV_INFO:
		return t->color ? COLOR_PAIR(PAIR_INFO) : A_NORMAL;
	default:
		return A_NORMAL;
	}
}

static void put(struct np_watch_tui *t, attr_t attr, const char *text)
{
	size_t n, max = COLS > 0 ? (size_t)COLS : 0;
	char ascii[1024];

	if (t->row >= t->rows)
		return;
	/* Outside UTF-8, ncurses would show the glyphs' bytes as "M-b": their ASCII forms. */
	if (!np_text_locale()->utf8)
		text = np_text_ascii(text, ascii, sizeof(ascii));
	n = strlen(text);
	/* Clip to the width, not into the next line; never inside a UTF-8 sequence ("≈" in a
	 * summary). A multibyte character is narrower than its bytes, so this always fits. */
	if (n > max) {
		n = max;
		while (n > 0 && ((unsigned char)text[n] & 0xc0) == 0x80)
			n--;
	}
	attrset(attr);
	mvaddnstr(t->row++, 0, text, (int)n);
	attrset(A_NORMAL);
}

static void tui_line(void *arg, const struct np_watch_line *l)
{
	struct np_watch_tui *t = arg;

	switch (l->kind) {
	case NP_WL_TITLE:
		put(t, A_BOLD, l->text);
		break;
	case NP_WL_HEAD:
		put(t, A_BOLD | A_UNDERLINE, l->text);
		break;
	case NP_WL_NOTE:
		put(t, A_DIM, l->text);
		break;
	case NP_WL_ROW:
		put(t, l->hot ? (t->color ? COLOR_PAIR(PAIR_HOT) | A_BOLD : A_BOLD) : A_NORMAL,
		    l->text);
		break;
	case NP_WL_FINDING:
		/* Findings that turned on during the session stand out: the NEW marker in reverse
		 * video, the whole line bold. */
		if (t->row < t->rows && l->is_new) {
			put(t, sev_attr(t, l->severity) | A_BOLD, l->text);
			mvchgat(t->row - 1, 0, 3, A_REVERSE | A_BOLD, 0, NULL);
		} else {
			put(t, sev_attr(t, l->severity), l->text);
		}
		break;
	}
}

static void footer(struct np_watch_tui *t, const char *what)
{
	char buf[160];

	snprintf(buf, sizeof(buf), " q: quit   %s   every %.2g s", what, t->interval);
	attrset(A_REVERSE);
	mvaddnstr(LINES - 1, 0, buf, COLS);
	for (int x = (int)strlen(buf); x < COLS; x++)
		addch(' ');
	attrset(A_NORMAL);
}

void np_watch_tui_draw(struct np_watch_tui *t, const struct np_watch_frame *f)
{
	struct np_watch_layout lay;
	char buf[160];

	t->last = f;
	t->row = 0;
	t->rows = LINES > 1 ? LINES - 1 : LINES;
	erase();
	if (!f) {
		snprintf(buf, sizeof(buf), "netpath watch %s: sampling for %.2g s ...", t->ifname,
			 t->interval);
		put(t, A_BOLD, buf);
		footer(t, "waiting for the first interval");
	} else {
		np_watch_layout_fit(f, t->rows > 0 ? (size_t)t->rows : 0, &lay);
		np_watch_lines(f, &lay, tui_line, t);
		snprintf(buf, sizeof(buf), "rates per second; NEW = turned on since frame 1");
		footer(t, buf);
	}
	refresh();
}

bool np_watch_tui_wait(struct np_watch_tui *t, double deadline, const volatile sig_atomic_t *stop)
{
	for (;;) {
		double left = deadline - np_mono_now();
		int ch;

		if (*stop)
			return true;
		if (left <= 0)
			return false;
		/* Blocks in poll() until a key, a signal or the deadline: no busy waiting. */
		timeout(left > 0.001 ? (int)(left * 1000 + 0.5) : 1);
		ch = getch();
		switch (ch) {
		case 'q':
		case 'Q':
		case 27:	/* Esc */
			return true;
		case KEY_RESIZE:	/* ncurses caught SIGWINCH and updated LINES/COLS */
		case 12:		/* ^L: repaint a garbled screen */
			clearok(curscr, TRUE);
			np_watch_tui_draw(t, t->last);
			break;
		default:
			break;
		}
	}
}

void np_watch_tui_close(struct np_watch_tui *t)
{
	if (!t)
		return;
	curs_set(1);
	endwin();
	delscreen(t->scr);
	free(t);
}

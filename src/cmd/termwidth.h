/* SPDX-License-Identifier: GPL-2.0-only */
/* How wide the text output may be: the only place that asks the terminal (renderers are given
 * the width, render/text_wrap.h). */
#ifndef NP_TERMWIDTH_H
#define NP_TERMWIDTH_H

#include <stdio.h>

/* The window's columns when 'out' is a terminal (TIOCGWINSZ), else $COLUMNS, else 80 (pipes,
 * files); clamped to [NP_WIDTH_MIN, NP_WIDTH_MAX]. */
int np_term_width(FILE *out);

#endif

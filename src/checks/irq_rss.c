// SPDX-License-Identifier: GPL-2.0-only
/* Placeholder until its checks land. */
#include "check.h"

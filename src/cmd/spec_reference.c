// SPDX-License-Identifier: GPL-2.0-only
/* `netpath checks` and `netpath explain`: the reference commands' one option. */
#include "cmd_args.h"
#include "commands.h"
#include "specs.h"
#pragma weak np_cmd_checks	/* specs.h: NULL where the commands are not linked */
#pragma weak np_cmd_explain	/* specs.h: NULL where the commands are not linked */

static const struct np_opt reference_opts[] = {
	NP_OPT('j', "json", NULL, "JSON output",
	  NP_TO(NP_DEST_TRUE, struct reference_args, json)),
	NP_OPT('V', "version", NULL, "print netpath's version and exit"),
	NP_OPT('h', "help", NULL, "this text"),
	{ 0 },
};

const struct np_cmd_spec np_checks_spec = {
	.name = "checks",
	.run = np_cmd_checks,
	.summary = "list every check (the catalogue)",
	.synopsis = "Usage: netpath checks [--json]\nList every check, in receive-path order.\n\n",
	.list_options = true,
	.opts = reference_opts,
};

const struct np_cmd_spec np_explain_spec = {
	.name = "explain",
	.run = np_cmd_explain,
	.summary = "the reference text of one check",
	.synopsis = "Usage: netpath explain [--json] CHECK-ID\nThe reference text of one check.\n\n",
	.list_options = true,
	.operands = { { "CHECK-ID", NP_COMPLETE_CHECK } },
	.opts = reference_opts,
};

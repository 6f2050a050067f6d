// SPDX-License-Identifier: GPL-2.0-only
/* Every drop reason of the running kernel's BTF maps to a stage by an explicit table entry
 * (exact name or a family prefix), not by the default: a new kernel reason fails here first.
 * Skips (77) on a kernel without /sys/kernel/btf/vmlinux. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>
#include <cmocka.h>

#include "trace_names.h"
#include "trace_stage.h"

static void test_kernel_enum(void **state)
{
	struct np_reason_names n;
	size_t unmapped = 0;
	int64_t v;

	(void)state;
	assert_int_equal(np_reason_names_load_vmlinux(&n), 0);
	assert_true(n.n > 10);
	for (size_t i = 0; i < n.n; i++) {
		const char *name = n.e[i].name;

		if (np_reason_is_sentinel(name))
			continue;
		if (np_reason_info(name).match == NP_MATCH_DEFAULT) {
			print_error("reason %s (%u) has no stage in trace_stage.c\n", name,
				    n.e[i].value);
			unmapped++;
		}
	}
	assert_int_equal(unmapped, 0);
	/* The names the integration tests expect exist on this kernel. */
	v = np_reason_value(&n, "SOCKET_RCVBUFF");
	assert_true(v > 0);
	v = np_reason_value(&n, "CPU_BACKLOG");
	assert_true(v > 0);
	v = np_reason_value(&n, "NETFILTER_DROP");
	assert_true(v > 0);
	np_reason_names_free(&n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kernel_enum),
	};

	if (access("/sys/kernel/btf/vmlinux", R_OK) != 0) {
		printf("SKIP: no /sys/kernel/btf/vmlinux\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0-only
/* Fuzz /proc/interrupts with IRQ-number and name filters, and the IRQ name classifier. */
#include "fuzz.h"
#include "parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned irqs[] = { 0, 1, 24, 38, 121, 4095 };
	static const char *const names[] = { "eth", "virtio", "mlx5", "i40e", "-" };
	struct np_irq_filter f = { .irqs = irqs, .nirqs = 6, .names = names, .nnames = 5 };
	char *buf = fuzz_copy(data, size), *str;
	struct np_interrupts it;
	int err = np_parse_interrupts(buf, size, &f, &it);

	FUZZ_CHECK(fuzz_known(err));
	if (err)
		FUZZ_CHECK(!it.lines && !it.col_cpu && !it.n);
	for (size_t i = 0; i < it.ncols; i++)
		FUZZ_CHECK(it.col_cpu[i] >= 0 && it.col_cpu[i] < NP_MAX_CPUS);
	for (size_t i = 0; i < it.n; i++) {
		uint64_t sum = 0;

		FUZZ_CHECK(strnlen(it.lines[i].name, sizeof(it.lines[i].name)) <
			   sizeof(it.lines[i].name));
		np_irq_role_from_name(it.lines[i].name);
		/* The stored counts (32-bit, dense or sparse) add up to the parsed total in the
		 * low 32 bits; sparse columns are ascending and inside the table. */
		FUZZ_CHECK(it.lines[i].ncount <= it.ncols);
		for (size_t k = 0; it.lines[i].cols && k < it.lines[i].ncount; k++)
			FUZZ_CHECK(it.lines[i].cols[k] < it.ncols &&
				   (!k || it.lines[i].cols[k - 1] < it.lines[i].cols[k]));
		for (size_t c = 0; c < it.ncols; c++)
			sum += np_irq_count(&it.lines[i], c);
		FUZZ_CHECK((uint32_t)sum == (uint32_t)it.lines[i].total);
		free(it.lines[i].count);
	}
	free(it.lines);
	free(it.col_cpu);
	free(buf);

	str = fuzz_str(data, size);
	FUZZ_CHECK(np_irq_role_from_name(str) <= NP_IRQ_TXRX);
	free(str);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0-only
/* Fuzz a capture's small text files: META, the errors list a replay fails reads by, and the
 * host_sysctls of a --netns capture (through the same loader np_root_ctx_open uses). */
#include "collect.h"
#include "fsrec.h"
#include "fuzz.h"
#include "overlay.h"
#include "root.h"
#include "sysctl_registry.h"

/* "sys/net/core/rmem_max" is the file of a registry row whose owner is the host. */
static bool host_owned_path(const char *path)
{
	for (int id = 0; id < NP_SYSCTL__COUNT; id++) {
		const struct np_sysctl_def *d = np_sysctl_def((enum np_sysctl_id)id);
		size_t i = 0;

		if (d->owner != NP_SYSCTL_OWNER_HOST || strncmp(path, "sys/", 4))
			continue;
		while (d->key[i] && (path[4 + i] == d->key[i] ||
				     (d->key[i] == '.' && path[4 + i] == '/')))
			i++;
		if (!d->key[i] && !path[4 + i])
			return true;
	}
	return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_copy(data, size);
	struct np_root r;
	struct np_fsrec *rec = np_fsrec_new();
	int err;

	memset(&r, 0, sizeof(r));
	err = np_capture_meta_parse(text, size, &r);
	FUZZ_CHECK(err == 0 || err == -EINVAL);
	FUZZ_CHECK(memchr(r.origin.hostname, 0, sizeof(r.origin.hostname)));
	FUZZ_CHECK(memchr(r.interfaces, 0, sizeof(r.interfaces)));
	for (size_t i = 0; r.origin.hostname[i]; i++)
		FUZZ_CHECK((unsigned char)r.origin.hostname[i] >= 0x20);
	FUZZ_CHECK(r.interval >= 0 && r.interval < 1e6);
	FUZZ_CHECK(!r.page_size || !(r.page_size & (r.page_size - 1)));
	if (rec) {
		FUZZ_CHECK(np_fsrec_load_errors(rec, text, size) == 0);
		FUZZ_CHECK(np_fsrec_error_of(rec, NP_SYS, "class/net/eth0/speed") <= 0);
		np_fsrec_free(rec);
	}
	{
		struct np_overlay o = { 0 };

		FUZZ_CHECK(np_host_sysctls_load(&o, text, size) == 0);
		/* Only the registry's host-owned keys are lent (net.core.*, vm.min_free_kbytes). */
		for (size_t i = 0; i < o.n; i++)
			FUZZ_CHECK(host_owned_path(o.f[i].path));
		np_overlay_free(&o);
	}
	free(text);
	return 0;
}

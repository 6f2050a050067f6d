// SPDX-License-Identifier: GPL-2.0-only
/* The file recorder: files at their real place, links kept, listings, errors; and the replay of
 * what it recorded through a confined root context. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "ctx.h"
#include "fsrec.h"
#include "scratch.h"

static char top[PATH_MAX];

static void mk(const char *rel, const char *text)
{
	char path[3 * PATH_MAX], *slash;
	FILE *f;

	assert_true(snprintf(path, sizeof(path), "%s/%s", top, rel) < (int)sizeof(path));
	for (slash = strchr(path + strlen(top) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(path, 0700);
		*slash = '/';
	}
	if (!text) {
		mkdir(path, 0700);
		return;
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void ln(const char *target, const char *rel)
{
	char path[3 * PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", top, rel);
	assert_int_equal(symlink(target, path), 0);
}

/* A small sysfs: class/net/eth0 -> the device's net/eth0, device -> the PCI function. */
static void live_like_tree(void)
{
	assert_int_equal(np_scratch_dir(top, sizeof(top)), 0);
	mk("sys/devices/pci0000:00/0000:00:03.0/net/eth0/mtu", "1500\n");
	mk("sys/devices/pci0000:00/0000:00:03.0/net/eth0/queues/rx-0/rps_cpus", "0\n");
	mk("sys/devices/pci0000:00/0000:00:03.0/numa_node", "-1\n");
	mk("sys/devices/pci0000:00/0000:00:03.0/config", "\x86\x80");
	mk("sys/bus/pci/drivers/e1000e", NULL);
	mk("sys/class/net", NULL);
	ln("../../devices/pci0000:00/0000:00:03.0/net/eth0", "sys/class/net/eth0");
	ln("../../../0000:00:03.0", "sys/devices/pci0000:00/0000:00:03.0/net/eth0/device");
	ln("../../../bus/pci/drivers/e1000e", "sys/devices/pci0000:00/0000:00:03.0/driver");
	mk("proc/4242/net/snmp", "Ip: 1\n");
	ln("4242", "proc/self");
	ln("self/net", "proc/net");
}

/* The live context's reads, pointed at the tree: the hooks record only on a live context. */
static void open_live(struct np_ctx *ctx, struct np_fsrec *rec)
{
	assert_int_equal(np_ctx_open(ctx, top), 0);
	ctx->live = true;
	ctx->confined = false;
	ctx->rec = rec;
}

struct member {
	char type;
	char path[3 * PATH_MAX];
	char data[256];
};

struct members {
	struct member m[64];
	size_t n;
};

static int collect(void *arg, char type, const char *path, const void *data, size_t len)
{
	struct members *ms = arg;
	struct member *m = &ms->m[ms->n++];

	assert_true(ms->n <= 64);
	m->type = type;
	snprintf(m->path, sizeof(m->path), "%s", path);
	snprintf(m->data, sizeof(m->data), "%.*s", (int)len, (const char *)data);
	return 0;
}

static const struct member *find(const struct members *ms, const char *path)
{
	for (size_t i = 0; i < ms->n; i++)
		if (strcmp(ms->m[i].path, path) == 0)
			return &ms->m[i];
	return NULL;
}

static void record(struct members *ms)
{
	struct np_fsrec *rec = np_fsrec_new();
	struct np_ctx ctx;
	char buf[64];
	char *text;
	size_t len;
	DIR *d;

	live_like_tree();
	open_live(&ctx, rec);
	assert_true(np_read_str(&ctx, NP_SYS, "class/net/eth0/mtu", buf, sizeof(buf)) > 0);
	assert_int_equal(np_read_link_base(&ctx, NP_SYS, "class/net/eth0/device/driver", buf,
					   sizeof(buf)), 0);
	assert_string_equal(buf, "e1000e");
	assert_int_equal(np_read_file(&ctx, NP_PROC, "net/snmp", &text, &len), 0);
	free(text);
	assert_int_equal(np_opendir(&ctx, NP_SYS, "class/net", &d), 0);
	closedir(d);
	/* A read that fails other than by absence keeps its error. */
	assert_int_equal(np_read_str(&ctx, NP_SYS, "class/net/eth0/queues", buf, sizeof(buf)),
			 -EISDIR);
	assert_true(np_read_str(&ctx, NP_SYS, "class/net/eth0/nonexistent", buf, sizeof(buf)) < 0);
	np_ctx_close(&ctx);
	memset(ms, 0, sizeof(*ms));
	assert_int_equal(np_fsrec_emit(rec, collect, ms), 0);
	np_fsrec_free(rec);
}

static void files_at_their_real_place(void **state)
{
	struct members ms;
	const struct member *m;

	(void)state;
	record(&ms);
	m = find(&ms, "sys/devices/pci0000:00/0000:00:03.0/net/eth0/mtu");
	assert_non_null(m);
	assert_int_equal(m->type, 'f');
	assert_string_equal(m->data, "1500\n");
	m = find(&ms, "sys/class/net/eth0");
	assert_non_null(m);
	assert_int_equal(m->type, 'l');
	assert_string_equal(m->data, "../../devices/pci0000:00/0000:00:03.0/net/eth0");
	/* device is both walked through and read as a link. */
	m = find(&ms, "sys/devices/pci0000:00/0000:00:03.0/driver");
	assert_non_null(m);
	assert_int_equal(m->type, 'l');
	assert_non_null(find(&ms, "sys/devices/pci0000:00/0000:00:03.0/net/eth0/device"));
	/* /proc/net through self: the reading process's directory. */
	assert_non_null(find(&ms, "proc/4242/net/snmp"));
	assert_int_equal(find(&ms, "proc/net")->type, 'l');
	assert_int_equal(find(&ms, "proc/self")->type, 'l');
	/* Nothing read, nothing recorded: numa_node was not asked. */
	assert_null(find(&ms, "sys/devices/pci0000:00/0000:00:03.0/numa_node"));
	/* Sorted: a directory before what it holds. */
	for (size_t i = 1; i < ms.n; i++)
		if (strcmp(ms.m[i].path, "errors") != 0)
			assert_true(strcmp(ms.m[i - 1].path, ms.m[i].path) < 0);
	m = find(&ms, "errors");
	assert_non_null(m);
	assert_non_null(strstr(m->data, "sys\tclass/net/eth0/queues\t21\n"));	/* EISDIR */
	assert_null(strstr(m->data, "nonexistent"));	/* absence replays by itself */
	np_scratch_remove(top);
}

/* Write what was recorded as a tree and read it back, confined, as doctor --root does. */
static void replays_the_same(void **state)
{
	struct members ms;
	struct np_fsrec *errs = np_fsrec_new();
	struct np_ctx ctx;
	char buf[64], *text;
	size_t len;

	(void)state;
	record(&ms);
	assert_int_equal(np_scratch_dir(top, sizeof(top)), 0);
	for (size_t i = 0; i < ms.n; i++) {
		if (ms.m[i].type == 'l') {
			char parent[3 * PATH_MAX];

			snprintf(parent, sizeof(parent), "%s/x", ms.m[i].path);
			mk(parent, NULL);	/* its directory (x removed below) */
			snprintf(parent, sizeof(parent), "%s/%s/x", top, ms.m[i].path);
			rmdir(parent);
			snprintf(parent, sizeof(parent), "%s/%s", top, ms.m[i].path);
			rmdir(parent);
			ln(ms.m[i].data, ms.m[i].path);
		} else if (ms.m[i].type == 'f' && strcmp(ms.m[i].path, "errors") != 0) {
			mk(ms.m[i].path, ms.m[i].data);
		} else if (ms.m[i].type == 'd') {
			mk(ms.m[i].path, NULL);
		} else {
			assert_int_equal(np_fsrec_load_errors(errs, ms.m[i].data,
							      strlen(ms.m[i].data)), 0);
		}
	}
	assert_int_equal(np_ctx_open(&ctx, top), 0);
	ctx.rec = errs;
	assert_true(np_read_str(&ctx, NP_SYS, "class/net/eth0/mtu", buf, sizeof(buf)) > 0);
	assert_string_equal(buf, "1500");
	assert_int_equal(np_read_link_base(&ctx, NP_SYS, "class/net/eth0/device/driver", buf,
					   sizeof(buf)), 0);
	assert_string_equal(buf, "e1000e");
	assert_int_equal(np_read_file(&ctx, NP_PROC, "net/snmp", &text, &len), 0);
	assert_string_equal(text, "Ip: 1\n");
	free(text);
	/* The recorded error, not the tree's answer. */
	assert_int_equal(np_read_str(&ctx, NP_SYS, "class/net/eth0/queues", buf, sizeof(buf)),
			 -EISDIR);
	np_ctx_close(&ctx);
	np_fsrec_free(errs);
	np_scratch_remove(top);
}

static void errors_file_is_untrusted(void **state)
{
	struct np_fsrec *r = np_fsrec_new();
	static const char text[] = "sys\ta/b\t13\nproc\tx\t-5\nsys\ty\t99999\ntop\tz\t13\n"
				   "garbage\nsys\t\t13\nproc\tnet/snmp\t5";

	(void)state;
	assert_int_equal(np_fsrec_load_errors(r, text, sizeof(text) - 1), 0);
	assert_int_equal(np_fsrec_error_of(r, NP_SYS, "a/b"), -EACCES);
	assert_int_equal(np_fsrec_error_of(r, NP_PROC, "x"), 0);	/* not an errno */
	assert_int_equal(np_fsrec_error_of(r, NP_SYS, "y"), 0);
	assert_int_equal(np_fsrec_error_of(r, NP_TOP, "z"), 0);
	assert_int_equal(np_fsrec_error_of(r, NP_PROC, "net/snmp"), -EIO);	/* no newline */
	np_fsrec_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(files_at_their_real_place),
		cmocka_unit_test(replays_the_same),
		cmocka_unit_test(errors_file_is_untrusted),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

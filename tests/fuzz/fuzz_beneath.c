// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz the pre-5.6 --root resolver (np_beneath_open) with hostile paths and symlink targets.
 * Input: lines; the first is the path to open, the next four the targets of symlinks planted at
 * tree/l0, tree/a/l1, tree/a/b/l2 and tree/a/b/l3 (an empty or missing line: no link). The tree
 * (files, directories, a FIFO, links that leave it) and a directory beside it are made once.
 * Invariants: only known errnos; an open file or directory is one of the tree's own; and where
 * the kernel has openat2(RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS), the same answer as it, but
 * for two answers of the kernel's that depend on the moment, not on the path (kernel_says()).
 */
#include "fuzz.h"
#include "beneath.h"

#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static const char *const inside[] = { ".", "f", "a", "a/f", "a/b", "a/b/f" };
#define NINSIDE (sizeof(inside) / sizeof(inside[0]))
static const char *const link_at[] = { "l0", "a/l1", "a/b/l2", "a/b/l3" };

static char base[64];
static int top = -1;
static bool have_openat2;
static struct stat inside_st[NINSIDE];

static void cleanup(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
	if (system(cmd) != 0)
		fprintf(stderr, "fuzz_beneath: could not remove %s\n", base);
}

static void put(const char *rel, bool dir)
{
	char path[160];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", base, rel);
	if (dir) {
		FUZZ_CHECK(mkdir(path, 0755) == 0);
		return;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	FUZZ_CHECK(fd >= 0);
	FUZZ_CHECK(write(fd, "x\n", 2) == 2);
	close(fd);
}

static void setup_tree(void)
{
	struct open_how how = { .flags = O_PATH | O_CLOEXEC };
	char path[160];
	int fd;

	snprintf(base, sizeof(base), "/tmp/np-fuzz-beneath.XXXXXX");
	FUZZ_CHECK(mkdtemp(base) != NULL);
	atexit(cleanup);
	put("out", true);
	put("out/secret", false);
	put("tree", true);
	put("tree/f", false);
	put("tree/a", true);
	put("tree/a/f", false);
	put("tree/a/b", true);
	put("tree/a/b/f", false);
	snprintf(path, sizeof(path), "%s/tree/fifo", base);
	FUZZ_CHECK(mkfifo(path, 0644) == 0);
	snprintf(path, sizeof(path), "%s/tree/a/out", base);
	FUZZ_CHECK(symlink("../../out", path) == 0);
	snprintf(path, sizeof(path), "%s/tree/a/abs", base);
	FUZZ_CHECK(symlink(base, path) == 0);
	snprintf(path, sizeof(path), "%s/tree/a/b/up", base);
	FUZZ_CHECK(symlink("../..", path) == 0);
	snprintf(path, sizeof(path), "%s/tree", base);
	top = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	FUZZ_CHECK(top >= 0);
	for (size_t i = 0; i < NINSIDE; i++)
		FUZZ_CHECK(fstatat(top, inside[i], &inside_st[i], 0) == 0);
	fd = (int)syscall(SYS_openat2, top, ".", &how, sizeof(how));
	have_openat2 = fd >= 0;
	if (fd >= 0)
		close(fd);
}

/* Line n of data (without its '\n') into out; false when there is no such line. */
static bool line(const uint8_t *data, size_t size, int n, char *out, size_t outsize)
{
	size_t pos = 0, len;

	for (; n > 0; n--) {
		const uint8_t *nl = memchr(data + pos, '\n', size - pos);

		if (!nl)
			return false;
		pos = (size_t)(nl - data) + 1;
	}
	len = size - pos;
	if (memchr(data + pos, '\n', len))
		len = (size_t)((const uint8_t *)memchr(data + pos, '\n', len) - (data + pos));
	if (len >= outsize)
		len = outsize - 1;
	memcpy(out, data + pos, len);
	out[len] = '\0';	/* a NUL inside cuts the string, as for the syscalls */
	return true;
}

static bool same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

static bool known(int err)
{
	return err == -ENOENT || err == -ENOTDIR || err == -EXDEV || err == -ELOOP ||
	       err == -ENAMETOOLONG || err == -EINVAL;
}

/* No answer of the kernel's to compare. */
#define NO_ANSWER INT_MIN

/*
 * openat2()'s answer, or NO_ANSWER. RESOLVE_BENEATH says EAGAIN when a
 * rename or mount anywhere on the host raced a walk through "..": a busy host's answer (CI runs
 * the fuzzers beside other jobs), asked again a few times, then left uncompared.
 */
static int kernel_says(const char *path, const struct open_how *how)
{
	for (int i = 0; i < 8; i++) {
		int fd = (int)syscall(SYS_openat2, top, path, how, sizeof(*how));

		if (fd >= 0 || errno != EAGAIN)
			return fd < 0 ? -errno : fd;
	}
	return NO_ANSWER;
}

/*
 * The kernel says ELOOP after MAXSYMLINKS / 2 links where the answer depends on its RCU walk:
 * when that lockless walk gives up (-ECHILD: RESOLVE_BENEATH's ".." at the top always does, so
 * the refusal comes from the locked walk; a mount anywhere on the host can too), the kernel
 * walks the path again without resetting its count of links followed (do_filp_open() keeps
 * the nameidata; seen on 6.18), and 21 links counted twice exceed 40. So "a/b/l3" x 21
 * then "..", l3 -> "../..", is -ELOOP from openat2() and -EXDEV here
 * (regressions/beneath/rcu-retry-doubles-links). Both refuse; ours says why.
 */
static bool kernel_loop_artifact(int kfd, int links)
{
	return kfd == -ELOOP && links > NP_BENEATH_MAX_LINKS / 2;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[PATH_MAX + 8], target[PATH_MAX + 8];
	struct open_how how = {
		.flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS,
	};
	struct stat st, kst;
	bool inside_tree = false;
	int fd, kfd, links;

	if (top < 0)
		setup_tree();
	for (int i = 0; i < 4; i++) {
		unlinkat(top, link_at[i], 0);
		if (line(data, size, i + 1, target, sizeof(target)) && target[0])
			(void)symlinkat(target, top, link_at[i]);	/* too long: no link */
	}
	line(data, size, 0, path, sizeof(path));

	fd = np_beneath_open_counted(top, path, (int)how.flags, &links);
	FUZZ_CHECK(fd >= 0 || known(fd));
	if (fd >= 0) {
		FUZZ_CHECK(fstat(fd, &st) == 0);
		for (size_t i = 0; i < NINSIDE; i++)
			inside_tree |= same_file(&st, &inside_st[i]);
		FUZZ_CHECK(inside_tree);
	}
	kfd = have_openat2 ? kernel_says(path, &how) : NO_ANSWER;
	if (kfd != NO_ANSWER && !kernel_loop_artifact(kfd, links)) {
		if (kfd >= 0) {
			FUZZ_CHECK(fstat(kfd, &kst) == 0);
			if (S_ISFIFO(kst.st_mode))
				FUZZ_CHECK(fd == -EINVAL);	/* refused before opening */
			else if (fd != -ENAMETOOLONG)	/* a long expansion: our buffer's bound */
				FUZZ_CHECK(fd >= 0 && same_file(&st, &kst));
			close(kfd);
		} else if (fd != -ENAMETOOLONG) {
			FUZZ_CHECK(fd == kfd);
		}
	}
	if (fd >= 0)
		close(fd);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz the tar stream parser block by block (tar_parse.c), then extract the same bytes into a
 * scratch directory (decompression, path rules, caps), checking that only files, directories
 * and symlinks appear there, with the modes extraction promises, and every error says why.
 */
#include "fuzz.h"
#include "cleanup.h"
#include "tar.h"
#include "tar_parse.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static void check_clean(const char *clean)
{
	const char *s = clean;

	FUZZ_CHECK(clean[0] && clean[0] != '/');
	FUZZ_CHECK(!strstr(clean, "//"));
	FUZZ_CHECK(clean[strlen(clean) - 1] != '/');
	while (*s) {
		size_t n = strcspn(s, "/");

		FUZZ_CHECK(!(n == 2 && s[0] == '.' && s[1] == '.'));
		FUZZ_CHECK(!(n == 1 && s[0] == '.'));
		s += n + (s[n] == '/');
	}
}

static void parse_only(const uint8_t *data, size_t size)
{
	struct np_tar_parser p;
	size_t pos = 0;
	char err[256];
	int r;

	np_tar_parser_init(&p);
	for (;;) {
		err[0] = '\0';
		if (size - pos < NP_TAR_BLOCK) {
			r = np_tar_parse_eof(&p, size - pos, err, sizeof(err));
			FUZZ_CHECK(r == 0 || (r == -EBADMSG && err[0]));
			break;
		}
		r = np_tar_parse_block(&p, data + pos, err, sizeof(err));
		pos += NP_TAR_BLOCK;
		if (r < 0) {
			FUZZ_CHECK(r == -EBADMSG || r == -EFBIG || r == -ENOMEM);
			FUZZ_CHECK(err[0]);
			break;
		}
		FUZZ_CHECK(p.offset == pos);
		if (r == NP_TAR_END)
			break;
		if (r == NP_TAR_MEMBER) {
			const struct np_tar_member *m = &p.m;
			char clean[4096];
			uint64_t padded = np_tar_padded(m->data);

			FUZZ_CHECK(m->path && m->linkpath);
			FUZZ_CHECK(m->offset < pos);
			if (np_tar_clean_path(m->path, clean, sizeof(clean)) == 0)
				check_clean(clean);
			if (padded > size - pos) {
				/* The data runs past the input: the end says "truncated". */
				r = np_tar_parse_eof(&p, 0, err, sizeof(err));
				FUZZ_CHECK(r == -EBADMSG && strstr(err, "truncated"));
				break;
			}
			pos += (size_t)padded;
			np_tar_parse_skip(&p, padded);
		}
	}
	np_tar_parser_free(&p);
}

/* Only regular files (0600), directories (0700) and symlinks below dirfd. */
static void check_tree(int dirfd, int depth)
{
	DIR *d;
	struct dirent *e;
	int fd = dup(dirfd);

	FUZZ_CHECK(fd >= 0 && depth <= NP_TAR_MAX_DEPTH + 1);
	d = fdopendir(fd);
	FUZZ_CHECK(d);
	while ((e = readdir(d))) {
		struct stat st;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		FUZZ_CHECK(fstatat(dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0);
		if (S_ISDIR(st.st_mode)) {
			int sub = openat(dirfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);

			FUZZ_CHECK((st.st_mode & 07777) == 0700);
			FUZZ_CHECK(sub >= 0);
			check_tree(sub, depth + 1);
			close(sub);
		} else {
			FUZZ_CHECK(S_ISLNK(st.st_mode) ||
				   (S_ISREG(st.st_mode) && (st.st_mode & 07777) == 0600));
		}
	}
	closedir(d);
}

static char dir[64];

static void remove_dir(void)
{
	np_rmtree(dir);
}

static void extract(const uint8_t *data, size_t size)
{
	struct np_tar_limits lim = {
		.max_total = 1 << 20, .max_member = 1 << 18, .max_members = 512,
		.max_dirs = 256, .max_inflated = 8 << 20, .skip_over = 1 << 16,
	};
	struct np_tar_stats st;
	char err[256];
	int fd, dirfd, r;

	if (!dir[0]) {
		/* One directory for the whole run, emptied after each input; on tmpfs when there
		 * is one, as directory operations on a disk cost the fuzzer most of its speed. */
		struct stat sb;

		snprintf(dir, sizeof(dir), "%s/np-fuzz-tar.XXXXXX",
			 stat("/dev/shm", &sb) == 0 && S_ISDIR(sb.st_mode) ? "/dev/shm" : "/tmp");
		FUZZ_CHECK(mkdtemp(dir));
		atexit(remove_dir);
	}
	fd = memfd_create("fuzz-tar", MFD_CLOEXEC);
	FUZZ_CHECK(fd >= 0);
	FUZZ_CHECK(!size || write(fd, data, size) == (ssize_t)size);
	FUZZ_CHECK(lseek(fd, 0, SEEK_SET) == 0);
	dirfd = open(dir, O_RDONLY | O_DIRECTORY);
	FUZZ_CHECK(dirfd >= 0);
	err[0] = 'x';
	r = np_tar_extract(fd, dirfd, &lim, NULL, NULL, &st, err, sizeof(err));
	FUZZ_CHECK(r == 0 || r == -EBADMSG || r == -EFBIG || r == -ENOTSUP || r == -ENOMEM);
	FUZZ_CHECK(r == 0 ? err[0] == '\0' : err[0] != '\0');
	FUZZ_CHECK(st.bytes <= st.disk && st.disk <= lim.max_total);
	FUZZ_CHECK(st.members <= lim.max_members + 1);
	FUZZ_CHECK(st.files + st.symlinks <= lim.max_members);
	FUZZ_CHECK(st.dirs <= lim.max_dirs);
	FUZZ_CHECK(st.inflated <= lim.max_inflated);
	FUZZ_CHECK(r != -EFBIG || strstr(err, " cap (") || strstr(err, "xz") || strstr(err, "pax"));
	check_tree(dirfd, 0);
	close(dirfd);
	close(fd);
	FUZZ_CHECK(np_rmtree(dir) == 0);
	FUZZ_CHECK(mkdir(dir, 0700) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	parse_only(data, size);
	extract(data, size);
	return 0;
}

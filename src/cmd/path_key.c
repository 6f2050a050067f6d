// SPDX-License-Identifier: GPL-2.0-only
/*
 * The key file of netpath serve and path. As ssh with an identity file, a key that others can
 * read is refused outright rather than used with a warning: whoever can read it can run tests
 * against the server (or impersonate it), so it is as good as published.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "path_key.h"

int np_path_key_load(const char *path, struct np_path_key *k, char *err, size_t errlen)
{
	struct stat sb;
	ssize_t n;
	int fd;

	memset(k, 0, sizeof(*k));
	/* O_NOFOLLOW: the mode checked is the file's own, not a link's target chosen later;
	 * O_NONBLOCK: a FIFO named as the key does not hang the open. */
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		snprintf(err, errlen, "cannot read key file %s: %s", path,
			 errno == ELOOP ? "it is a symbolic link (name the file itself)" :
			 strerror(errno));
		return -1;
	}
	if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode)) {
		snprintf(err, errlen, "key file %s is not a regular file", path);
		goto fail;
	}
	if (sb.st_uid != geteuid()) {
		snprintf(err, errlen, "key file %s is owned by uid %u, not by this user (uid %u)",
			 path, (unsigned)sb.st_uid, (unsigned)geteuid());
		goto fail;
	}
	if (sb.st_mode & (S_IRGRP | S_IROTH)) {
		snprintf(err, errlen, "key file %s is readable by others (mode %04o): chmod 600 %s",
			 path, (unsigned)(sb.st_mode & 07777), path);
		goto fail;
	}
	if (sb.st_mode & (S_IWGRP | S_IWOTH | S_IXGRP | S_IXOTH)) {
		snprintf(err, errlen, "key file %s is writable by others (mode %04o): chmod 600 %s",
			 path, (unsigned)(sb.st_mode & 07777), path);
		goto fail;
	}
	if (sb.st_size < NP_PATH_KEY_MIN || sb.st_size > NP_PATH_KEY_MAX) {
		snprintf(err, errlen, "key file %s holds %lld bytes: a key is %d to %d bytes (e.g. "
			 "head -c 32 /dev/urandom > %s)", path, (long long)sb.st_size,
			 NP_PATH_KEY_MIN, NP_PATH_KEY_MAX, path);
		goto fail;
	}
	while (k->len < (size_t)sb.st_size) {
		n = read(fd, k->b + k->len, (size_t)sb.st_size - k->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			snprintf(err, errlen, "cannot read key file %s: %s", path,
				 n < 0 ? strerror(errno) : "it shrank while read");
			goto fail;
		}
		k->len += (size_t)n;
	}
	close(fd);
	return 0;
fail:
	close(fd);
	np_path_key_wipe(k);
	return -1;
}

void np_path_key_wipe(struct np_path_key *k)
{
	volatile uint8_t *p = k->b;

	for (size_t i = 0; i < sizeof(k->b); i++)
		p[i] = 0;
	k->len = 0;
}

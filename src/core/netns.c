// SPDX-License-Identifier: GPL-2.0-only
/* --netns: setns() into the target namespace and give this process its own /sys view. */
#include "netns.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

static int resolve(const char *spec, char *path, size_t size)
{
	size_t i;

	if (!spec[0])
		return -EINVAL;
	for (i = 0; spec[i] >= '0' && spec[i] <= '9'; i++)
		;
	if (!spec[i])
		snprintf(path, size, "/proc/%s/ns/net", spec);
	else if (strchr(spec, '/'))
		snprintf(path, size, "%s", spec);
	else if (strcmp(spec, ".") == 0 || strcmp(spec, "..") == 0)
		return -EINVAL;
	else
		snprintf(path, size, "/run/netns/%s", spec);
	return 0;
}

int np_netns_enter(const char *spec, char *path, size_t pathsize, char *err, size_t errlen)
{
	int fd, r;

	if (resolve(spec, path, pathsize) < 0) {
		snprintf(err, errlen, "invalid --netns '%s' (a name, a path or a PID)", spec);
		return -EINVAL;
	}
	/* O_NONBLOCK: a FIFO planted where a namespace file should be must not hang us. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		r = -errno;
		snprintf(err, errlen, "cannot open network namespace %s: %s", path, strerror(-r));
		return r;
	}
	if (setns(fd, CLONE_NEWNET) < 0) {
		r = -errno;
		close(fd);
		snprintf(err, errlen, "cannot enter network namespace %s: %s%s", path, strerror(-r),
			 r == -EPERM ? " (needs root)" : r == -EINVAL ? " (not a network namespace)" : "");
		return r;
	}
	close(fd);
	/* sysfs shows the devices of the namespace that mounted it: mount a fresh one, in a
	 * mount namespace private to this process so nothing outside changes. */
	if (unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_REC | MS_SLAVE, NULL) < 0) {
		r = -errno;
		snprintf(err, errlen, "cannot create a private mount namespace: %s", strerror(-r));
		return r;
	}
	if (umount2("/sys", MNT_DETACH) < 0 && errno != EINVAL && errno != ENOENT) {
		r = -errno;
		snprintf(err, errlen, "cannot detach /sys in the private mount namespace: %s",
			 strerror(-r));
		return r;
	}
	if (mount("sysfs", "/sys", "sysfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0) {
		r = -errno;
		snprintf(err, errlen, "cannot mount sysfs for the namespace: %s", strerror(-r));
		return r;
	}
	return 0;
}

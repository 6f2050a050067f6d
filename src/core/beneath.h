/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Opening a path beneath a directory without openat2(): the --root confinement on kernels
 * before 5.6 (RHEL 8, Ubuntu 20.04), where openat2(RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS)
 * is missing.
 *
 * The path is walked one component at a time from the directory fd with
 * openat(O_PATH | O_NOFOLLOW), so the kernel never follows a symlink on our behalf. A symlink
 * is read (readlinkat) and its target walked the same way from the link's directory. ".." goes
 * back to the directory fd the walk came from, never to the kernel's idea of the parent, and
 * never above the starting directory: a path or target that would leave it is refused with
 * -EXDEV, as openat2(RESOLVE_BENEATH) refuses it. Absolute paths and targets: -EXDEV. A magic
 * link (/proc/PID/fd/N, .../root, .../exe) is only ever read as text, so it cannot jump.
 *
 * What this proves: every fd the walk holds was reached from the starting directory by single
 * names that were not symlinks (O_NOFOLLOW) and not "..". A directory renamed out of the tree
 * while being walked takes our fd with it (its contents were the mover's anyway), but the walk
 * never climbs out through it.
 */
#ifndef NP_BENEATH_H
#define NP_BENEATH_H

/* The kernel's own bound (ELOOP after 40 links in one lookup). */
#define NP_BENEATH_MAX_LINKS 40
/* Directories held open at once; deeper than any sysfs path (openat2 has no such limit). */
#define NP_BENEATH_MAX_DEPTH 256

/*
 * Open path (relative, "" is -ENOENT) beneath the directory dfd with flags (O_NOFOLLOW is
 * added to the last component's open, after resolving it if it is a symlink). Without O_PATH
 * only a regular file or a directory is opened: anything else (FIFO, socket, device) is
 * -EINVAL before any open, since a device's open can act and a FIFO's can block. O_CREAT is
 * not supported. Returns the fd, or -errno: -EXDEV (leaves dfd), -ELOOP (more than
 * NP_BENEATH_MAX_LINKS symlinks), -ENAMETOOLONG (a name, the path or an expanded target too
 * long; deeper than NP_BENEATH_MAX_DEPTH), -ENOTDIR, -ENOENT, or the kernel's error.
 */
int np_beneath_open(int dfd, const char *path, int flags);
/* The same, saying in *links how many symlinks the walk followed (the fuzzer's comparison with
 * openat2(), tests/fuzz/fuzz_beneath.c). */
int np_beneath_open_counted(int dfd, const char *path, int flags, int *links);

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
/* netpath serve/path: the pre-shared key file, refused unless only its owner can read it. */
#ifndef NP_PATH_KEY_H
#define NP_PATH_KEY_H

#include <stddef.h>
#include <stdint.h>

#define NP_PATH_KEY_MIN 16
#define NP_PATH_KEY_MAX 4096

struct np_path_key {
	uint8_t b[NP_PATH_KEY_MAX];
	size_t len;
};

/*
 * Read the key file: a regular file (a symlink is not followed), owned by this user, with no
 * permission for group or others (0600 or 0400), 16..4096 bytes of anything. 0, or -1 with a
 * one-line reason in err ("key file F is readable by others (mode 0644): chmod 600 F").
 */
int np_path_key_load(const char *path, struct np_path_key *k, char *err, size_t errlen);
/* Forget it (the bytes are overwritten). */
void np_path_key_wipe(struct np_path_key *k);

#endif

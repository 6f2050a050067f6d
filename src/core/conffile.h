/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * /etc/netpath.conf, its drop-ins /etc/netpath.conf.d/NAME.conf, then the same in meson's
 * $sysconfdir when that is another directory (or only --config FILE): the settings of doctor,
 * watch and trace, one per line. (Not "config.h": that name is meson's generated header with NETPATH_VERSION and
 * NETPATH_CONFIG_PATH.)
 *
 *   # comment (a '#' anywhere starts one); blank lines are ignored
 *   threshold softnet.backlog-drops warn=10 crit=1000   # either level may be left out
 *   check softnet,socket.*      # run only these: ids, globs, stage names; commas or blanks
 *   skip congestion.keepalive   # never run these
 *   interval 2                  # = --interval 2
 *   rtt 30                      # = --rtt 30
 *   bandwidth 10G               # = --bandwidth 10G
 *
 * Repeated `threshold`, `check` and `skip` lines add up; for the other settings the last line
 * wins. The command line overrides the file: --threshold per check and level, --check and
 * --skip each replace the file's list, --interval/--rtt/--bandwidth their line.
 *
 * This file reads the syntax only, into plain data: core knows no checks. What the `threshold`,
 * `check` and `skip` lines mean is decided by the check selection (checks/selection.h), to
 * which doctor hands them (cmd/doctor_config.h).
 */
#ifndef NP_CONFFILE_H
#define NP_CONFFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "config.h"

/*
 * Where the settings are looked for without --config: /etc always (where an admin puts them,
 * whatever prefix netpath was built with), then meson's sysconfdir when it is another directory
 * (/usr/local/etc for a source build with the default prefix), so that the build's own file
 * refines /etc's. In each: netpath.conf, then netpath.conf.d/ *.conf.
 */
#define NP_CONFIG_ETC_DIR "/etc"
#define NP_CONFIG_PATH NP_CONFIG_ETC_DIR "/netpath.conf"
#define NP_CONFIG_SYSCONFDIR NETPATH_SYSCONFDIR
#define NP_CONFIG_MAX_BYTES (1 << 20)
/* Drop-in files read from one netpath.conf.d directory, at most (more is an error). */
#define NP_CONFIG_MAX_DROPINS 64
#define NP_CONFIG_MAX_LINE 1024

/*
 * A doctor option set by the file. Its value is checked by the command with the same function
 * that checks the command-line option (so both accept the same syntax); the line is for the
 * error message ("FILE:LINE: invalid bandwidth 'x'").
 */
struct np_config_value {
	char text[64];
	unsigned line;			/* 0: not in the file */
	unsigned file;			/* which file read it (np_config's count, from 1) */
};

enum np_conffile_kind {
	NP_CONFFILE_THRESHOLD,		/* `threshold ID LEVELS` or `threshold ID:LEVELS` */
	NP_CONFFILE_CHECK,		/* `check LIST` */
	NP_CONFFILE_SKIP,		/* `skip LIST` */
};

/* One `threshold`, `check` or `skip` line, its words as written. */
struct np_conffile_rule {
	enum np_conffile_kind kind;
	unsigned line;
	/* threshold: the check id, or NULL for the command-line form (all of it in arg) */
	const char *id;
	/* threshold: the levels, blank-separated ("warn=10 crit=1000"), or "ID:warn=N,crit=N";
	 * check/skip: the comma-separated list, blanks between words made commas */
	const char *arg;
	char *mem;			/* id and arg live here */
};

struct np_conffile {
	char path[1024];		/* the file read; "" when there was none */
	const char *name;		/* the name for messages (path, or parse's name) */
	struct np_conffile_rule *rules;	/* in file order */
	size_t nrules;
	struct np_config_value interval, rtt, bandwidth;
};

/*
 * Parse a config text (len bytes, need not be NUL-terminated) into *c, which it initialises;
 * name (kept, not copied) names the file in messages. 0, or -EINVAL with "NAME:LINE: what is
 * wrong" in err for the first line that is not the syntax above (unknown setting, missing or
 * extra value, overlong line, NUL byte), or -ENOMEM. Even on failure *c holds the rules read
 * before the bad line (a meaning error on an earlier line comes first) and must be freed with
 * np_conffile_free().
 */
int np_conffile_parse(struct np_conffile *c, const char *name, const char *text, size_t len,
		      char *err, size_t errlen);

/*
 * Who may have written the file. Its skip and threshold lines can hide findings, so a file
 * someone else could change is not used: not group- or world-writable (with an ACL, the group
 * bits are its mask, so a named user's write access counts too), owned by root (running as
 * root) or by root or the invoking user (otherwise). The same holds for every directory looked
 * into to find it, from / down, wherever a symbolic link leads (as sudo and sshd judge their
 * files): each owned by root or the invoking user and not group- or world-writable, unless it
 * has the sticky bit (/tmp: others cannot rename or remove what they do not own; a symbolic
 * link in such a directory must be owned by root or the invoking user too). Pure functions of
 * stat fields and the effective uid, so the rules are testable without root.
 */
enum np_config_trust {
	NP_TRUST_OK,
	NP_TRUST_WORLD_WRITABLE,
	NP_TRUST_GROUP_WRITABLE,
	NP_TRUST_NOT_ROOT_OWNED,	/* running as root, owned by another user */
	NP_TRUST_FOREIGN_OWNER,		/* not root, owned by neither root nor the invoking user */
	NP_TRUST_DIR_WORLD_WRITABLE,	/* a directory on the way, without the sticky bit */
	NP_TRUST_DIR_GROUP_WRITABLE,	/* a directory on the way, without the sticky bit */
	NP_TRUST_DIR_FOREIGN_OWNER,	/* a directory on the way, owned by neither */
};
enum np_config_trust np_config_file_trust(uid_t owner, mode_t mode, uid_t euid);
enum np_config_trust np_config_dir_trust(uid_t owner, mode_t mode, uid_t euid);

/*
 * Resolve path as the kernel does, one component at a time (symbolic links followed, at most
 * 40), judging with np_config_dir_trust() every directory a lookup happens in: for a relative
 * path the working directory's ancestors too. euid is the invoking user (geteuid() for
 * np_conffile_load(); a parameter so that tests can judge as another user). 0 with the file's
 * lstat in *st and its real path in real (size realsize), or -errno / -EPERM with a one-line
 * reason in err naming path (as given) and the directory at fault.
 */
int np_config_path_trust(const char *path, uid_t euid, struct stat *st, char *real,
			 size_t realsize, char *err, size_t errlen);

/*
 * Read and parse path. A missing file is an empty config when !required (the default
 * NP_CONFIG_PATH), an error when required (--config FILE); any other read error is an error
 * either way: monitoring must not silently run with default thresholds because the file it was
 * given cannot be read. A file the trust rules above refuse is -EPERM, the default path too
 * (/dev/null, the usual "no configuration", is exempt: nobody can put lines in it). 0 or
 * -errno/-EINVAL with a one-line reason in err; c->path is set only on success. As with
 * np_conffile_parse(), *c is to be freed with np_conffile_free() whatever the result.
 */
int np_conffile_load(const char *path, bool required, struct np_conffile *c, char *err,
		     size_t errlen);
/*
 * The drop-in files of dir (a netpath.conf.d directory): the names ending in ".conf" that do
 * not start with '.' (so no editor backup "x.conf~", swap file ".x.conf.swp", dpkg leftover
 * "x.conf.dpkg-old" or hidden file), as dir/NAME in strcmp (C locale) order: *paths is an
 * array of *n strings in one allocation, to free(). A directory that does not exist has none.
 * dir is judged as a config file's directories are (np_config_path_trust() as euid, then the
 * directory itself with np_config_dir_trust()); each file is then judged when loaded. More
 * than NP_CONFIG_MAX_DROPINS names is an error. 0, or -errno/-EPERM/-E2BIG with a one-line
 * reason naming dir in err.
 */
int np_conffile_dropins(const char *dir, uid_t euid, char ***paths, size_t *n, char *err,
			size_t errlen);
/* Is name a drop-in's (above)? */
bool np_conffile_dropin_name(const char *name);

/* Frees the rules and resets *c to an empty config. */
void np_conffile_free(struct np_conffile *c);

#endif

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Clean-room check of README.md's quick start: run its two commands, exactly as README.md says
# them, on a stock Debian 12 (bookworm) root made by debootstrap from the distribution's packages.
#
# Usage: tools/cleanroom.sh [OPTIONS]            (as root; Debian/Ubuntu host with apt)
#   --target bookworm|noble  the root to build (default bookworm). noble (Ubuntu 24.04) needs an
#                      Ubuntu archive keyring, which Debian 12 does not package
#                      (--ubuntu-keyring FILE), and an Ubuntu mirror reachable from here
#                      (--ubuntu-mirror URL); without either it stops with a one-line reason.
#   --cache DIR        where the debootstrapped root, the downloaded .debs and the last run live
#                      (env NETPATH_CLEANROOM_CACHE, default /var/tmp/netpath-cleanroom)
#   --fresh            debootstrap the root again instead of reusing the cached one
#   --worktree         copy the work tree (tracked and untracked files, not ignored ones, so no
#                      build directories) instead of `git archive HEAD` (the default)
#   --rev REV          `git archive REV` (a branch, commit or tree) instead of HEAD
#   --mirror URL       Debian mirror (env NETPATH_CLEANROOM_MIRROR, default
#                      http://deb.debian.org/debian; security updates from URL-security)
#   --only N           run only the README's command N (1 or 2)
#   --timeout MIN      stop the commands after MIN minutes (default: no limit)
#   --check            only say whether a clean room can be built here (root, unshare,
#                      debootstrap installed or installable, mirror reachable); exit 0 or 3
#
# What it does: debootstraps the root once (cached in DIR/TARGET/base; the default variant, i.e.
# what a minimal stock install has: no sudo, no compiler), then for every run lays a fresh
# overlay over it (DIR/TARGET/run, kept until the next run for inspection), puts the checkout at
# /src/netpath, and in a private mount and PID namespace mounts /proc, /sys (with bpffs at
# /sys/fs/bpf and tracefs), /dev, a tmpfs /run (so `ip netns add` makes its own shared
# /run/netns there) and DIR/apt-archives at /var/cache/apt/archives (so reruns do not download
# the .debs again; apt-get still installs them from scratch). Inside, as root with a clean login
# environment (Debian's PATH, so `python3` is Debian's /usr/bin/python3), it runs the indented
# command lines under "## Quick start" in README.md, with `sudo ` dropped where it starts a
# command (a stock Debian root has no sudo), each in /src/netpath. A line joined with `&&` runs
# step by step with the same stop-at-first-failure rule, so each step gets its exit code and
# time. A `netpath doctor` step passes with exit 0, 1 or 2 (its verdicts), not 3 (could not
# diagnose). The network namespace is the host's: doctor diagnoses the host's default-route
# interface (read-only); the integration tests make their own namespaces, as on a host.
#
# Everything it mounts lives only in that private mount namespace, and every process it starts
# in that PID namespace: both end when it ends, even on Ctrl-C or SIGTERM (the processes get
# SIGTERM first, so the tests' own traps restore the sysctls they changed, then SIGKILL).
# Namespaces that a test leaves in /run/netns are reported and deleted. The commands run at
# nice 10 and the lowest best-effort I/O priority.
#
# Exit: 0 both commands passed, 1 one failed, 2 usage, 3 the clean room could not be built
# (not root, debootstrap missing and not installable, mirror unreachable...): .ci/run then
# runs the suite on the host instead.
set -euo pipefail

ME=$(readlink -f "$0")
SRC=$(cd "$(dirname "$ME")/.." && pwd)
PATH_ROOT=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin

say() { printf 'cleanroom: %s\n' "$*"; }
die() { printf 'cleanroom: %s\n' "$*" >&2; exit "${2:-3}"; }
now() { date +%s; }
# The steps of one README command: split at `&&` unless the line has other shell syntax.
steps_of() {
	if printf '%s' "$1" | grep -q '[|;`$"'"'"'()<>]'; then
		printf '%s\n' "$1"
	else
		printf '%s\n' "$1" | sed 's/[[:space:]]*&&[[:space:]]*/\n/g'
	fi
}
usage() { sed -n '/^# Usage:/,/^# What it does/p' "$ME" | sed '$d; s/^# \{0,1\}//'; }

# ---------------------------------------------------------------------------------------------
# Inside: pid 1 of a new PID namespace, in a private mount namespace. $1 is the run directory.
# ---------------------------------------------------------------------------------------------
inner() {
	local run=$1 root
	# shellcheck source=/dev/null
	. "$run/config"
	root=$run/root
	mkdir -p "$root"
	if ! mount -t overlay overlay -o "lowerdir=$BASE,upperdir=$run/upper,workdir=$run/work" \
		"$root" 2>/dev/null; then
		echo "cleanroom: no overlayfs here: copying the base root instead"
		cp -a "$BASE/." "$run/upper/"
		mount --bind "$run/upper" "$root"
	fi
	mount -t proc -o nosuid,nodev,noexec proc "$root/proc"
	mount --rbind /sys "$root/sys"
	mountpoint -q "$root/sys/fs/bpf" || mount -t bpf bpf "$root/sys/fs/bpf" 2>/dev/null ||
		echo "cleanroom: cannot mount bpffs at /sys/fs/bpf"
	if [ -d "$root/sys/kernel/tracing" ] && ! mountpoint -q "$root/sys/kernel/tracing"; then
		mount -t tracefs tracefs "$root/sys/kernel/tracing" 2>/dev/null ||
			echo "cleanroom: cannot mount tracefs at /sys/kernel/tracing"
	fi
	mount --rbind /dev "$root/dev"
	mount -t tmpfs -o mode=755,nosuid,nodev tmpfs "$root/run"
	mkdir -p "$root/run/lock" "$root/var/cache/apt/archives"
	mount --bind "$APT_ARCHIVES" "$root/var/cache/apt/archives"

	local stop=0 cur=""
	terminate() {
		# Every process of this PID namespace but this one, by id: TERM, a grace period, KILL.
		local p pids=""
		for p in "$root"/proc/[0-9]*; do
			p=${p##*/}
			[ "$p" = 1 ] || pids="$pids $p"
		done
		[ -n "$pids" ] || return 0
		# shellcheck disable=SC2086
		kill -TERM $pids 2>/dev/null || true
		for _ in $(seq 1 "${1:-30}"); do
			sleep 1
			set -- "$root"/proc/[0-9]*
			[ "$#" -gt 1 ] || return 0
		done
		for p in "$root"/proc/[0-9]*; do
			p=${p##*/}
			[ "$p" = 1 ] || kill -KILL "$p" 2>/dev/null || true
		done
	}
	trap 'stop=1; echo "cleanroom: interrupted: stopping the commands"; terminate 30' INT TERM HUP

	# NETPATH_CLEANROOM=1: a throwaway root, where tools/build-deb.sh may install its package.
	local envv=(/usr/bin/env -i HOME=/root USER=root LOGNAME=root SHELL=/bin/bash "PATH=$PATH_ROOT"
		    NETPATH_CLEANROOM=1)
	[ -z "${TERM_OUT:-}" ] || envv+=("TERM=$TERM_OUT")

	local n=0 line
	: > "$run/results"
	while IFS= read -r line; do
		n=$((n + 1))
		[ -z "$ONLY" ] || [ "$ONLY" = "$n" ] || continue
		[ "$stop" = 0 ] || break
		echo
		echo "==== cleanroom: README command $n: $line"
		local steps=() m=0 rc=0 t0 t1 step ok
		mapfile -t steps < <(steps_of "$line")
		for step in "${steps[@]}"; do
			m=$((m + 1))
			[ "$stop" = 0 ] || break
			echo "---- cleanroom: command $n step $m/${#steps[@]}: $step"
			t0=$(now)
			local left=$((DEADLINE - t0))
			if [ "$DEADLINE" -gt 0 ] && [ "$left" -le 0 ]; then
				rc=124
			else
				local tmo=()
				[ "$DEADLINE" -eq 0 ] || tmo=(timeout -k 30 "$left")
				rc=0
				env --default-signal=INT,QUIT "${tmo[@]}" chroot "$root" "${envv[@]}" \
					/bin/bash -c "umask 022; cd /src/netpath && $step" </dev/null &
				cur=$!
				wait "$cur" || rc=$?
				# A trap ran during wait: wait for the step itself to end.
				while kill -0 "$cur" 2>/dev/null; do wait "$cur" || rc=$?; done
				cur=""
			fi
			t1=$(now)
			ok=$([ "$rc" -eq 0 ] && echo pass || echo FAIL)
			case $step in *"netpath doctor"*) [ "$rc" -gt 2 ] || ok=pass ;; esac
			[ "$rc" -ne 124 ] || ok="FAIL (timed out)"
			[ "$stop" = 0 ] || ok="FAIL (interrupted)"
			printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$n" "$m" "$rc" "$((t1 - t0))" "$ok" "$step" \
				>> "$run/results"
			echo "---- cleanroom: command $n step $m: exit $rc, $((t1 - t0)) s: $ok"
			case $ok in pass) ;; *) break ;; esac
		done
	done < "$run/commands"

	# Anything the commands left behind: network namespaces, processes.
	trap - INT TERM HUP
	local left_ns
	left_ns=$(chroot "$root" /usr/bin/env -i "PATH=$PATH_ROOT" sh -c \
		'command -v ip >/dev/null && ip netns list 2>/dev/null | cut -d" " -f1' | tr '\n' ' ' || true)
	left_ns=${left_ns% }
	if [ -n "$left_ns" ]; then
		echo "cleanroom: network namespaces left behind by the commands (deleting): $left_ns"
		printf 'leftover-netns\t%s\n' "$left_ns" >> "$run/results"
		for line in $left_ns; do
			chroot "$root" /usr/bin/env -i "PATH=$PATH_ROOT" ip netns del "$line" || true
		done
	fi
	local procs
	procs=$(for p in "$root"/proc/[0-9]*; do
		p=${p##*/}
		# Not pid 1 (this shell), not this subshell.
		[ "$p" = 1 ] || [ "$p" = "$BASHPID" ] || printf '%s [%s] ' "$p" \
			"$(tr '\0' ' ' < "$root/proc/$p/cmdline" 2>/dev/null | cut -c1-200)"
	done)
	if [ -n "$procs" ]; then
		echo "cleanroom: processes left behind by the commands (ending them): $procs"
		printf 'leftover-procs\t%s\n' "$procs" >> "$run/results"
		terminate 10
	fi
	umount -R "$root" 2>/dev/null || umount -R -l "$root"
}

if [ "${1:-}" = "--inner" ]; then
	inner "$2"
	exit 0
fi

# ---------------------------------------------------------------------------------------------
# Outside.
# ---------------------------------------------------------------------------------------------
TARGET=bookworm
CACHE=${NETPATH_CLEANROOM_CACHE:-/var/tmp/netpath-cleanroom}
MIRROR=${NETPATH_CLEANROOM_MIRROR:-http://deb.debian.org/debian}
UMIRROR=${NETPATH_CLEANROOM_UBUNTU_MIRROR:-http://archive.ubuntu.com/ubuntu}
UKEYRING=${NETPATH_CLEANROOM_UBUNTU_KEYRING:-}
FRESH=0 FROM=head REV=HEAD ONLY="" CHECK=0 TIMEOUT=0
while [ $# -gt 0 ]; do
	case $1 in
	--target) TARGET=${2:?}; shift ;;
	--cache) CACHE=${2:?}; shift ;;
	--mirror) MIRROR=${2:?}; shift ;;
	--ubuntu-mirror) UMIRROR=${2:?}; shift ;;
	--ubuntu-keyring) UKEYRING=${2:?}; shift ;;
	--fresh) FRESH=1 ;;
	--worktree) FROM=worktree ;;
	--rev) REV=${2:?}; shift ;;
	--only) ONLY=${2:?}; shift ;;
	--timeout) TIMEOUT=${2:?}; shift ;;
	--check) CHECK=1 ;;
	-h|--help) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
	shift
done
case $TARGET in bookworm|noble) ;; *) die "--target: bookworm or noble, not '$TARGET'" 2 ;; esac
case $ONLY in ''|1|2) ;; *) die "--only: 1 or 2, not '$ONLY'" 2 ;; esac
case $TIMEOUT in *[!0-9]*|'') die "--timeout: minutes, a whole number" 2 ;; esac
case $CACHE in /*) ;; *) CACHE=$(pwd)/$CACHE ;; esac

T_START=$(now)
[ "$(id -u)" -eq 0 ] || die "needs root (debootstrap, mount, chroot)"
for t in unshare chroot mount umount timeout flock; do
	command -v "$t" >/dev/null || die "no $t on this host"
done

if [ "$TARGET" = noble ]; then
	MIRROR_USED=$UMIRROR
	[ -n "$UKEYRING" ] || die "--target noble: Debian 12 packages no Ubuntu archive keyring; give one with --ubuntu-keyring FILE (or NETPATH_CLEANROOM_UBUNTU_KEYRING)"
	[ -r "$UKEYRING" ] || die "--ubuntu-keyring: cannot read $UKEYRING"
else
	MIRROR_USED=$MIRROR
fi

# debootstrap (and wget, which it uses) from the distribution, if missing.
if ! command -v debootstrap >/dev/null || ! command -v wget >/dev/null ||
	{ [ "$TARGET" = noble ] && ! command -v zstd >/dev/null; }; then
	say "installing debootstrap with apt-get"
	pk="debootstrap wget"
	[ "$TARGET" = bookworm ] || pk="$pk zstd"
	# shellcheck disable=SC2086
	{ DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $pk; } \
		>/dev/null 2>&1 || die "debootstrap is not installed and apt-get cannot install it"
fi
[ -e "/usr/share/debootstrap/scripts/$TARGET" ] ||
	die "this debootstrap has no script for $TARGET (too old)"
wget -q -T 20 -t 2 -O /dev/null "$MIRROR_USED/dists/$TARGET/Release" ||
	die "the mirror $MIRROR_USED does not serve $TARGET from here"
if [ "$CHECK" = 1 ]; then
	say "a $TARGET clean room can be built here (mirror $MIRROR_USED)"
	exit 0
fi

DIR=$CACHE/$TARGET
BASE=$DIR/base
RUN=$DIR/run
APT_ARCHIVES=$CACHE/apt-archives/$TARGET
mkdir -p "$DIR" "$APT_ARCHIVES/partial"
# One run at a time per cache directory (the run directory and the base are shared).
exec 9> "$DIR/lock"
flock -n 9 || die "another clean-room run holds $DIR/lock"

UNSHARE_PID=""
INNER_PID=""
cleanup() {
	local rc=$? p lost=""
	trap - EXIT INT TERM HUP
	if [ -n "$UNSHARE_PID" ] && kill -0 "$UNSHARE_PID" 2>/dev/null; then
		# pid 1 of the namespace handles TERM: it stops the commands, then everything ends.
		[ -z "$INNER_PID" ] || kill -TERM "$INNER_PID" 2>/dev/null || true
		for _ in $(seq 1 45); do kill -0 "$UNSHARE_PID" 2>/dev/null || break; sleep 1; done
		[ -z "$INNER_PID" ] || kill -KILL "$INNER_PID" 2>/dev/null || true
		wait "$UNSHARE_PID" 2>/dev/null || true
	fi
	# Proof that nothing stayed: no mount under the cache, no process rooted in the run.
	if grep -q " $CACHE/" /proc/self/mountinfo; then
		say "mounts left on the host under $CACHE: unmounting"
		grep " $CACHE/" /proc/self/mountinfo | cut -d' ' -f5 | sort -r | while read -r m; do
			umount -l "$m" || true
		done
	fi
	for p in /proc/[0-9]*; do
		case $(readlink "$p/root" 2>/dev/null) in "$RUN"/*|"$BASE"*) lost="$lost ${p##*/}" ;; esac
	done
	[ -z "$lost" ] || say "processes still inside the clean room:$lost"
	exit "$rc"
}
trap cleanup EXIT
trap 'say "interrupted"; exit 130' INT TERM HUP

# 1. The base root, debootstrapped once.
phase_t=$(now)
if [ "$FRESH" = 1 ] || [ ! -e "$DIR/base.ok" ]; then
	rm -rf "$BASE" "$DIR/base.ok" "$RUN"
	say "debootstrap $TARGET from $MIRROR_USED into $BASE"
	opts=()
	# shellcheck disable=SC2054 # --components takes a comma-separated list
	[ "$TARGET" = bookworm ] || opts=(--keyring="$UKEYRING" --components=main,universe)
	# Its own mount namespace: whatever debootstrap mounts inside the target goes with it.
	unshare --mount --propagation private \
		debootstrap "${opts[@]}" "$TARGET" "$BASE" "$MIRROR_USED" > "$DIR/debootstrap.log" 2>&1 9>&- ||
		{ tail -n 20 "$DIR/debootstrap.log" >&2; die "debootstrap failed (log: $DIR/debootstrap.log)"; }
	# The sources a stock install has: release, updates, security.
	if [ "$TARGET" = bookworm ]; then
		cat > "$BASE/etc/apt/sources.list" <<-EOF
		deb $MIRROR bookworm main
		deb $MIRROR bookworm-updates main
		deb $MIRROR-security bookworm-security main
		EOF
	else
		cat > "$BASE/etc/apt/sources.list" <<-EOF
		deb $UMIRROR noble main restricted universe multiverse
		deb $UMIRROR noble-updates main restricted universe multiverse
		deb $UMIRROR noble-security main restricted universe multiverse
		EOF
	fi
	# No daemon starts in a chroot (nothing the README installs is one; this is the usual guard).
	printf '#!/bin/sh\nexit 101\n' > "$BASE/usr/sbin/policy-rc.d"
	chmod 755 "$BASE/usr/sbin/policy-rc.d"
	rm -rf "$BASE/var/cache/apt/archives/"*.deb
	touch "$DIR/base.ok"
	say "phase debootstrap: $(($(now) - phase_t)) s"
else
	say "reusing the $TARGET root in $BASE (made $(date -r "$DIR/base.ok" '+%F %R'); --fresh to remake it)"
fi

# 2. A fresh run directory: an overlay's upper layer with the checkout at /src/netpath.
phase_t=$(now)
rm -rf "$RUN"
mkdir -p "$RUN/upper/src/netpath" "$RUN/work" "$RUN/upper/etc"
dest=$RUN/upper/src/netpath
if git -C "$SRC" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	if [ "$FROM" = head ]; then
		git -C "$SRC" rev-parse -q --verify "$REV^{tree}" >/dev/null || die "--rev: no such revision: $REV" 2
		git -C "$SRC" archive --format=tar "$REV" | tar -x -C "$dest"
		what="git archive of $REV ($(git -C "$SRC" rev-parse --short "$REV"))"
	else
		(cd "$SRC" && git ls-files -z -c -o --exclude-standard --deduplicate |
			tar --null --ignore-failed-read -T - -c 2>/dev/null) | tar -x -C "$dest"
		what="the work tree of $SRC (tracked and untracked files)"
	fi
else
	(cd "$SRC" && tar --exclude='./build*' --exclude=./.git -c .) | tar -x -C "$dest"
	what="a copy of $SRC without build directories"
fi
cat /etc/resolv.conf > "$RUN/upper/etc/resolv.conf"
say "checkout: $what at /src/netpath"

# The README's commands, from README.md itself: the indented lines under "## Quick start".
awk '/^## /{q = ($0 ~ /^## Quick start/)} q && /^    [^ ]/ {sub(/^    /, ""); print}' \
	"$dest/README.md" | sed -E 's/(^|&&|\|\||;)[[:space:]]*sudo[[:space:]]+/\1 /g; s/^ //' \
	> "$RUN/commands"
ncmd=$(wc -l < "$RUN/commands")
[ "$ncmd" -eq 2 ] || { cat "$RUN/commands" >&2
	die "README.md's Quick start has $ncmd indented command lines, not 2: update this script" 1; }
DEADLINE=0
[ "$TIMEOUT" -eq 0 ] || DEADLINE=$(($(now) + TIMEOUT * 60))
cat > "$RUN/config" <<EOF
BASE='$BASE'
APT_ARCHIVES='$APT_ARCHIVES'
ONLY='$ONLY'
DEADLINE=$DEADLINE
TERM_OUT='${TERM:-}'
PATH_ROOT='$PATH_ROOT'
EOF
say "phase prepare: $(($(now) - phase_t)) s"

# 3. The commands, in a private mount namespace and a new PID namespace.
phase_t=$(now)
env --default-signal=INT,QUIT nice -n 10 ionice -c 2 -n 7 \
	unshare --mount --pid --fork --kill-child --propagation private \
	bash "$ME" --inner "$RUN" 9>&- &
UNSHARE_PID=$!
for _ in 1 2 3 4 5 6 7 8 9 10; do
	INNER_PID=$(cat "/proc/$UNSHARE_PID/task/$UNSHARE_PID/children" 2>/dev/null || true)
	INNER_PID=${INNER_PID%% *}
	[ -z "$INNER_PID" ] || break
	sleep 0.2
done
rc=0
wait "$UNSHARE_PID" || rc=$?
# A trap that interrupted wait: keep waiting for the namespace to end.
while kill -0 "$UNSHARE_PID" 2>/dev/null; do wait "$UNSHARE_PID" || rc=$?; done
UNSHARE_PID=""
say "phase commands: $(($(now) - phase_t)) s"
# Exit 3 (the room could not be built) only when no command ran; after that it is a failure.
[ "$rc" -eq 0 ] || die "the clean room's namespace ended with exit $rc" "$([ -s "$RUN/results" ] && echo 1 || echo 3)"

# 4. The report.
echo
echo "==== cleanroom: $TARGET, $what"
passed=0 failed=0
for n in $(seq 1 "$ncmd"); do
	[ -z "$ONLY" ] || [ "$ONLY" = "$n" ] || continue
	line=$(sed -n "${n}p" "$RUN/commands")
	res=$(awk -F'\t' -v n="$n" '$1 == n' "$RUN/results")
	nsteps=$(steps_of "$line" | wc -l)
	secs=$(printf '%s\n' "$res" | awk -F'\t' '{s += $4} END {print s + 0}')
	if [ -n "$res" ] && ! printf '%s\n' "$res" | cut -f5 | grep -qv '^pass$' &&
		[ "$(printf '%s\n' "$res" | wc -l)" -eq "$nsteps" ]; then
		verdict=PASS; passed=$((passed + 1))
	else
		verdict=FAIL; failed=$((failed + 1))
	fi
	echo "$verdict  README command $n ($secs s): $line"
	printf '%s\n' "$res" | awk -F'\t' 'NF >= 6 {printf "        step %s: exit %s, %s s, %s: %s\n", $2, $3, $4, $5, $6}'
done
grep '^leftover-' "$RUN/results" | sed 's/^/        /' || true
echo "total: $(($(now) - T_START)) s (run directory, with the build and its logs: $RUN/upper/src/netpath)"
echo "cleanroom: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The install split (README's two commands): tools/install-deps.sh installs what building and
# running needs and nothing of the test suite's; tools/install-test-deps.sh installs that plus
# the suite's tools; debian/control's Build-Depends are covered (all but debhelper by the first);
# tests/run-all.sh runs the second itself, unless NETPATH_NO_INSTALL=1. The scripts' logic runs
# against a fake dpkg-query and apt-get (no root, no network): only what is missing is
# installed, nothing at all when nothing is, and a dry run installs nothing.
set -u
: "${NP_SRCDIR:?}"
cd "$NP_SRCDIR" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
tmp=$(mktemp -d /tmp/np-deps.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

for f in tools/apt-ensure.sh tools/install-deps.sh tools/install-test-deps.sh tests/run-all.sh; do
	sh -n "$f" || fail "$f: sh -n"
done
# Fakes first on PATH, before any script runs (no test may install anything for real): dpkg-query says which packages are installed (the file
# $tmp/installed), apt-get and apt-cache record their calls; as root, or sudo is faked too.
mkdir "$tmp/bin"
cat > "$tmp/bin/dpkg-query" <<'F'
#!/bin/sh
# dpkg-query -W -f=FORMAT PKG...: the installed ones, as dpkg prints them
shift 2
for p; do grep -qx "$p" "$NP_FAKE/installed" && echo "$p install ok installed"; done
exit 0
F
cat > "$tmp/bin/apt-get" <<'F'
#!/bin/sh
echo "apt-get $*" >> "$NP_FAKE/calls"
F
cat > "$tmp/bin/apt-cache" <<'F'
#!/bin/sh
echo "apt-cache $*" >> "$NP_FAKE/calls"
echo "  Candidate: 1.0"
F
printf '#!/bin/sh\n"$@"\n' > "$tmp/bin/sudo"
chmod 755 "$tmp/bin/"*
export NP_FAKE=$tmp PATH="$tmp/bin:$PATH"
build=$(sh tools/install-deps.sh --list) || fail "install-deps.sh --list"
all=$(sh tools/install-test-deps.sh --list | tr -d '?') || fail "install-test-deps.sh --list"
[ "$(wc -l <<< "$build")" -ge 10 ] || fail "install-deps.sh lists too few packages: $build"
# Command 1 installs nothing only the tests use.
for p in prometheus lintian valgrind strace tmux debhelper mandoc python3-jsonschema \
	python3-prometheus-client udev libclang-rt-dev; do
	grep -qx "$p" <<< "$build" && fail "install-deps.sh installs $p, a test dependency"
done
# The test dependencies include the build's.
for p in $build; do
	grep -qx "$p" <<< "$all" || fail "install-test-deps.sh does not install the build's $p"
done
# debian/control's Build-Depends: the package build (a test) has them all, README's build all
# but debhelper (the package tool itself).
bdeps=$(sed -n '/^Build-Depends:/,/^[A-Z][a-zA-Z-]*:/p' debian/control | sed '$d' |
	sed 's/^Build-Depends://; s/([^)]*)//g; s/<[^>]*>//g' | tr ',' '\n' | tr -d ' \t' | grep -v '^$' |
	sed 's/^debhelper-compat$/debhelper/')
[ "$(wc -l <<< "$bdeps")" -ge 10 ] || fail "cannot read Build-Depends: $bdeps"
for p in $bdeps; do
	grep -qx "$p" <<< "$all" || fail "Build-Depends $p is installed by neither script"
	[ "$p" = debhelper ] || grep -qx "$p" <<< "$build" ||
		fail "Build-Depends $p is not installed by install-deps.sh (README's build)"
done

# The logic.
run() {	# run SCRIPT: with the fakes; its output in $tmp/out, calls in $tmp/calls
	: > "$tmp/calls"
	sh "tools/$1" > "$tmp/out" 2>&1 || fail "$1 failed: $(cat "$tmp/out")"
}
# Everything installed: no apt-get, no apt-cache, quick.
printf '%s\n' $all > "$tmp/installed"
run install-test-deps.sh
[ -s "$tmp/calls" ] && fail "all installed, yet: $(cat "$tmp/calls")"
run install-deps.sh
[ -s "$tmp/calls" ] && fail "install-deps.sh, all installed, yet: $(cat "$tmp/calls")"
# Two missing (one of them a build package), the optional one too: update once, the two, then
# the optional one where apt has it.
grep -vx -e tmux -e meson -e libclang-rt-dev <<< "$all" > "$tmp/installed"
run install-test-deps.sh
[ "$(grep -c 'apt-get update' "$tmp/calls")" -eq 1 ] || fail "not one update: $(cat "$tmp/calls")"
grep -q "apt-get install -y -qq --no-install-recommends meson tmux *$" "$tmp/calls" ||
	fail "not only the missing two installed: $(cat "$tmp/calls")"
grep -q "apt-get install .* libclang-rt-dev$" "$tmp/calls" || fail "optional not installed: $(cat "$tmp/calls")"
# install-deps.sh: only the build's missing one.
run install-deps.sh
grep -q "apt-get install -y -qq --no-install-recommends meson *$" "$tmp/calls" ||
	fail "install-deps.sh: $(cat "$tmp/calls")"
# Dry run: says, installs nothing.
NETPATH_DEPS_DRY_RUN=1 run install-test-deps.sh
[ -s "$tmp/calls" ] && fail "dry run called: $(cat "$tmp/calls")"
grep -q "^would install: meson tmux (if available: libclang-rt-dev" "$tmp/out" ||
	fail "dry run says: $(cat "$tmp/out")"

# tests/run-all.sh (README's second command) installs them itself, with an opt-out.
grep -q '^	sh tools/install-test-deps.sh' tests/run-all.sh || fail "run-all.sh does not run install-test-deps.sh"
grep -q 'NETPATH_NO_INSTALL' tests/run-all.sh || fail "run-all.sh has no opt-out"
echo "PASS: install-deps.sh builds and runs ($(wc -l <<< "$build") packages), install-test-deps.sh adds the suite's"

#!/usr/bin/env bash
# Builds the packages of a build tree (default build/): a .deb (installs in
# /usr, stripped) and a .tar.gz, into
# BUILD_DIR/packages. Then checks the .deb as a user meets it, in a throwaway
# root (dpkg --root): `cudaleak` on PATH runs a sample under the simulated GPU,
# `man cudaleak` shows the page, bash completion completes, find_package(cudaleak)
# finds it with no hint, the binaries carry no debug info, and removing the
# package leaves nothing behind. Usage: scripts/package.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build="$(realpath "${1:-build}")"
cmake --build "$build"
rm -f "$build"/packages/cudaleak*.deb "$build"/packages/cudaleak*.ddeb
(cd "$build" && cpack -B "$build/packages" >/dev/null)
deb=$(ls "$build"/packages/cudaleak_*_amd64.deb)
tgz=$(ls "$build"/packages/cudaleak-*-Linux-x86_64.tar.gz)
fail() { echo "package check: $*" >&2; exit 1; }

# A root of its own: dpkg's database and nothing else.
root="$build/packages/scratch-root"
rm -rf "$root" && mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates" "$root/var/lib/dpkg/triggers"
touch "$root/var/lib/dpkg/status" "$root/var/lib/dpkg/available"
dpkg=(dpkg --root="$root" --force-script-chrootless --force-depends --log=/dev/null)
# The root has no libc6 package (the host's glibc serves): --force-depends, its notice kept out.
installed=$("${dpkg[@]}" -i "$deb" 2>&1) || fail "dpkg -i: $installed"

# On PATH, as `which cudaleak` would find it.
cudaleak=$(PATH="$root/usr/bin" command -v cudaleak) || fail "no cudaleak in /usr/bin"
"$cudaleak" --version | grep -q "cudaleak 0\." || fail "cudaleak --version: $("$cudaleak" --version 2>&1)"
out=$("$cudaleak" run --simulated-gpu -o "$build/packages/check.%p.json" -- \
      "$build/samples/sample_pinned_leak_shared" 2>&1 >/dev/null)
grep -q "2.1 MiB leaked in 2 resources" <<<"$out" || fail "the packaged cudaleak did not report the leak: $out"

# The licences: cudaleak's own, Debian's copyright file and the bundled libraries' notices.
for f in LICENSE copyright changelog.Debian.gz THIRD-PARTY-NOTICES.md third-party/libunwind8.copyright; do
  [ -f "$root/usr/share/doc/cudaleak/$f" ] || fail "no /usr/share/doc/cudaleak/$f"
done
grep -q "^License: Apache-2.0" "$root/usr/share/doc/cudaleak/copyright" || fail "the copyright file names no Apache-2.0"

# man cudaleak: the page, found by man through the root's MANPATH (man-db).
[ -f "$root/usr/share/man/man1/cudaleak.1" ] || fail "no /usr/share/man/man1/cudaleak.1"
if command -v man >/dev/null; then
  page=$(MANPATH="$root/usr/share/man" MANPAGER=cat MANWIDTH=100 man cudaleak 2>&1) || fail "man cudaleak: $page"
  grep -q -- "--error-exitcode" <<<"$page" && grep -q "cudaleak symbolize" <<<"$page" || fail "man cudaleak lacks options or commands"
fi

# Bash completion where bash-completion loads it on demand.
completion="$root/usr/share/bash-completion/completions/cudaleak"
got=$(PATH="$root/usr/bin:$PATH" bash -c "source '$completion'; COMP_WORDS=(cudaleak run --out); COMP_CWORD=2; _cudaleak; echo \"\${COMPREPLY[*]}\"")
[ "$got" = "--output" ] || fail "bash completion of 'cudaleak run --out' gave '$got'"

# find_package(cudaleak) with no hint: CMake derives the prefix from PATH's /usr/bin.
project="$build/packages/find-package"
rm -rf "$project" && mkdir -p "$project"
cat >"$project/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.24)
project(uses_cudaleak LANGUAGES NONE)
find_package(cudaleak REQUIRED)
message(STATUS "cudaleak executable: ${CUDALEAK_EXECUTABLE}")
CMAKE
found=$(PATH="$root/usr/bin:$PATH" cmake -S "$project" -B "$project/build" 2>&1) || fail "find_package(cudaleak): $found"
grep -q "cudaleak executable: $root/usr/bin/cudaleak" <<<"$found" || fail "find_package found another cudaleak: $found"

# Stripped: no debug info in what is installed.
for f in "$root/usr/bin/cudaleak" "$root/usr/lib/libcudaleak.so" "$root"/usr/lib/cudaleak/simcuda/*.so.*; do
  [ -L "$f" ] && continue
  ! readelf -S "$f" | grep -q "\.debug_info" || fail "$f has debug info"
done

# Removed, nothing is left: not even the byte code Python wrote beside the hooks.
python3 -m compileall -q "$root/usr/lib/cudaleak/python" >/dev/null
removed=$("${dpkg[@]}" -r cudaleak 2>&1) || fail "dpkg -r: $removed"
left=$(cd "$root" && find . -mindepth 1 -not -path "./var" -not -path "./var/lib" -not -path "./var/lib/dpkg*")
[ -z "$left" ] || fail "dpkg -r left: $left"
echo "packages: $deb ($(du -h "$deb" | cut -f1)), $tgz ($(du -h "$tgz" | cut -f1)); installed in a scratch root," \
     "cudaleak on PATH runs, licences, man page, completion and find_package work, removal leaves nothing"

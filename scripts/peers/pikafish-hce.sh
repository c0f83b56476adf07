#!/usr/bin/env bash
# Builds Pikafish-HCE, the sparring partner of scripts/strength.sh (Pikafish's search with a
# hand-written evaluation: https://github.com/skystarspython/Pikafish-HCE), from a checkout of its
# source that you cloned yourself. Its code is never copied into this repository: the build happens
# in a temporary copy, and only the binary lands at OUT.
#
#   scripts/peers/pikafish-hce.sh SRC [OUT]
#
# SRC is the checkout (the folder holding src/Makefile); OUT the binary to write (default
# peers/pikafish-hce beside this repository's root, a folder git ignores). The architecture is
# x86-64-avx2 where the CPU has AVX2, else x86-64-modern; ARCH= overrides it, JOBS= the make jobs
# (default 2). The script ends by asking the binary for a move (UCI, depth 6) and fails unless it
# gets a legal-looking ICCS move back, so a broken build never reaches a match.
set -euo pipefail

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: $0 SRC [OUT]" >&2
    exit 2
fi
src=$(realpath "$1")
if [ ! -f "$src/src/Makefile" ]; then
    echo "error: $1 holds no src/Makefile: not a Pikafish-HCE checkout" >&2
    exit 2
fi
root="$(cd "$(dirname "$0")/../.." && pwd)"
out=${2:-$root/peers/pikafish-hce}
mkdir -p "$(dirname "$out")"
out=$(realpath -m "$out")

if [ -z "${ARCH:-}" ]; then
    if grep -qw avx2 /proc/cpuinfo 2>/dev/null; then ARCH=x86-64-avx2; else ARCH=x86-64-modern; fi
fi
command -v make >/dev/null && command -v g++ >/dev/null || {
    echo "error: building Pikafish-HCE needs make and g++ (apt-get install build-essential)" >&2
    exit 2
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$src/src" "$work/src"
echo "building Pikafish-HCE ($ARCH) from $src" >&2
make -C "$work/src" -j"${JOBS:-2}" build ARCH="$ARCH" > "$work/build.log" 2>&1 || {
    tail -n 30 "$work/build.log" >&2
    echo "error: the build failed (the log's end is above)" >&2
    exit 1
}

# A move from the start position, or the build is refused.
answer=$(printf 'uci\nisready\nposition startpos\ngo depth 6\n' |
    timeout 30 "$work/src/pikafish" 2>/dev/null | grep -m 1 '^bestmove' || true)
if ! [[ $answer =~ ^bestmove\ [a-i][0-9][a-i][0-9] ]]; then
    echo "error: the new binary did not answer a move at depth 6 (got: '${answer:-nothing}')" >&2
    exit 1
fi
# Written whole: a copy beside OUT, then a rename.
cp "$work/src/pikafish" "$out.tmp.$$"
mv "$out.tmp.$$" "$out"
echo "$out ($answer from the start position)"

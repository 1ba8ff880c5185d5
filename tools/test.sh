#!/usr/bin/env bash
# Builds and runs every test: the default (non-slow) ctest labels in a RelWithDebInfo build.
# `--sanitize` adds a second pass under AddressSanitizer + UndefinedBehaviorSanitizer in
# build-asan/. It is opt-in because on the CI machine (2 cores) the default build takes about
# 8 minutes and the sanitizer build about 17 more, which would push CI past 15 minutes.
# Usage: tools/test.sh [--sanitize] [extra ctest args]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/tools/setup.sh"

sanitize=0
if [ "${1:-}" = "--sanitize" ]; then sanitize=1; shift; fi
jobs="$(nproc)"

build_and_test() {
  local dir="$1"; shift
  local options=("$@")
  cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "${options[@]}" >/dev/null
  cmake --build "$dir" -j "$jobs"
  (cd "$dir" && ctest --output-on-failure -j "$jobs" -LE slow)
}

echo "== tests (RelWithDebInfo) =="
build_and_test "$root/build" -DREPARTSIM_SANITIZE=OFF
if [ "$sanitize" -eq 1 ]; then
  echo "== tests (AddressSanitizer + UndefinedBehaviorSanitizer) =="
  build_and_test "$root/build-asan" -DREPARTSIM_SANITIZE=ON -DREPARTSIM_BENCHMARKS=OFF
fi

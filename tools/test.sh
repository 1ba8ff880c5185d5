#!/usr/bin/env bash
# Builds and runs every test: the default (non-slow) ctest labels in a RelWithDebInfo build,
# then the same tests again under AddressSanitizer + UndefinedBehaviorSanitizer.
# Usage: tools/test.sh [--no-sanitize] [extra ctest args]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/tools/setup.sh"

sanitize=1
if [ "${1:-}" = "--no-sanitize" ]; then sanitize=0; shift; fi
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

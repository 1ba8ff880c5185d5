#!/usr/bin/env bash
# Builds and runs every test: the default (non-slow) ctest labels in a RelWithDebInfo build in
# build/. This is the README's test command; from a fresh clone on a 2-core machine the build
# takes most of its time (docs/building.md has the measured figures).
# `--sanitize` adds a second pass under AddressSanitizer + UndefinedBehaviorSanitizer in
# build-asan/: with clang++ (when installed) that build also has the libFuzzer targets
# (-DREPARTSIM_FUZZ=ON) that tools/fuzz.sh runs; without clang it uses g++ and has no fuzz
# targets. `--sanitize-only` runs just that pass. .ci/run runs both passes, then the fuzz
# budget and the cross-build check (docs/testing.md).
# Usage: tools/test.sh [--sanitize | --sanitize-only]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/tools/setup.sh"

default=1
sanitize=0
case "${1:-}" in
  --sanitize) sanitize=1; shift ;;
  --sanitize-only) sanitize=1; default=0; shift ;;
esac
jobs="$(nproc)"

# Each step's output goes to <dir>/test.log; the terminal gets a progress line (elapsed time,
# time left) and a summary (tools/progress_filter.py), and the log's tail when a step fails.
logged() {
  local label="$1" log="$2"; shift 2
  local status_file
  status_file="$(mktemp)"
  { "$@" && echo 0 >"$status_file" || echo $? >"$status_file"; } 2>&1 |
    python3 "$root/tools/progress_filter.py" --label "$label" --log "$log" --status-file "$status_file"
  local status
  status="$(cat "$status_file")"
  rm -f "$status_file"
  return "$status"
}

build_and_test() {
  local dir="$1"; shift
  local options=("$@")
  mkdir -p "$dir"
  local log="$dir/test.log"
  : >"$log"
  logged configure "$log" cmake -S "$root" -B "$dir" -G Ninja "${options[@]}"
  logged build "$log" cmake --build "$dir" -j "$jobs"
  logged tests "$log" ctest --test-dir "$dir" --output-on-failure -j "$jobs" -LE slow
}

if [ "$default" -eq 1 ]; then
  echo "== tests (RelWithDebInfo) =="
  build_and_test "$root/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DREPARTSIM_SANITIZE=OFF
fi
if [ "$sanitize" -eq 1 ]; then
  asan_options=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DREPARTSIM_SANITIZE=ON -DREPARTSIM_BENCHMARKS=OFF)
  clang="$(command -v clang++ || command -v clang++-14 || true)"
  if [ -n "$clang" ]; then
    asan_options+=(-DCMAKE_CXX_COMPILER="$clang" -DREPARTSIM_FUZZ=ON)
    echo "== tests (AddressSanitizer + UndefinedBehaviorSanitizer, clang++, fuzz targets) =="
  else
    echo "== tests (AddressSanitizer + UndefinedBehaviorSanitizer, g++) =="
  fi
  build_and_test "$root/build-asan" "${asan_options[@]}"
fi

#!/usr/bin/env bash
# Builds the benchmark executables (tools/bench; not part of the default build) in a
# RelWithDebInfo build in build/ and runs them, each from the build directory (where
# explore_bench and sweep_bench find the repository). Extra arguments go to every benchmark,
# e.g. --benchmark_filter=Split or --benchmark_min_time=0.01 (a smoke run).
# Usage: tools/bench.sh [--build DIR] [NAME...] [-- BENCHMARK_ARGS...]
#   NAME: run cluster datanode engine explore oracle partition sweep (default: all)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$root/build"
names=()
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build="$2"; shift 2 ;;
    --) shift; extra=("$@"); break ;;
    *) names+=("$1"); shift ;;
  esac
done
if [ ${#names[@]} -eq 0 ]; then
  mapfile -t names < <(cd "$root/tools/bench" && ls ./*_bench.cc | sed 's|^\./||; s|_bench\.cc$||')
fi
bash "$root/tools/setup.sh"
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
cmake --build "$build" -j "$(nproc)" --target "${names[@]/%/_bench}"
status=0
for name in "${names[@]}"; do
  echo "== ${name}_bench =="
  (cd "$build" && "bench/${name}_bench" "${extra[@]}") || status=$?
done
exit "$status"

#!/usr/bin/env bash
# Runs the libFuzzer targets of tests/fuzz for a fixed time each, starting from the committed
# corpus (tests/fuzz/corpus/<target>, read-only: new inputs go to a scratch directory) with
# the target's dictionary. Needs a build configured with -DREPARTSIM_FUZZ=ON (clang++), e.g.
#   cmake -S . -B build-asan -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DREPARTSIM_FUZZ=ON
# (it builds the fuzz executables it runs; they are not part of the default build).
# A crash, leak, sanitizer report or timeout fails the script (exit 1) and leaves the input in
# the scratch directory (printed); copy it to tests/fuzz/regressions/<target>/ with the fix.
# Prints per target: executions, libFuzzer's coverage figures (cov: edges, ft: features) and
# the corpus size. The CI budget is 60 s per target (.ci/run); the campaign of the `slow`
# label 1200 s (tests/fuzz/CMakeLists.txt).
# Usage: tools/fuzz.sh [--build DIR] [--seconds N] [TARGET...]
#   TARGET: sql console scenario choices merge run paths (default: all)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$root/build-asan"
seconds=60
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build="$2"; shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done
if [ ${#targets[@]} -eq 0 ]; then targets=(sql console scenario choices merge run paths); fi

dictionary_of() {
  case "$1" in
    sql|console) echo "$root/tests/fuzz/sql.dict" ;;
    scenario|run) echo "$root/tests/fuzz/yaml.dict" ;;
    merge) echo "$root/tests/fuzz/json.dict" ;;
    *) echo "" ;;
  esac
}

if ! grep -q '^REPARTSIM_FUZZ:BOOL=ON' "$build/CMakeCache.txt" 2>/dev/null; then
  echo "fuzz: $build is not configured with -DREPARTSIM_FUZZ=ON (clang++)" >&2
  exit 64
fi
# The fuzz executables are not part of `all`: build the ones asked for.
cmake --build "$build" -j "$(nproc)" --target "${targets[@]/#/fuzz_}"

status=0
for target in "${targets[@]}"; do
  binary="$build/fuzz/fuzz_$target"
  if [ ! -x "$binary" ]; then
    echo "fuzz: $binary not built (configure with -DREPARTSIM_FUZZ=ON)" >&2
    exit 64
  fi
  scratch="$(mktemp -d "${TMPDIR:-/tmp}/repartsim-fuzz-$target.XXXXXX")"
  options=(-max_total_time="$seconds" -max_len=65536 -timeout=20 -rss_limit_mb=2048
           -close_fd_mask=3 -print_final_stats=1 -artifact_prefix="$scratch/")
  dict="$(dictionary_of "$target")"
  if [ -n "$dict" ]; then options+=(-dict="$dict"); fi
  log="$scratch/log"
  echo "== fuzz_$target: ${seconds}s from tests/fuzz/corpus/$target =="
  if ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
     "$binary" "${options[@]}" "$scratch" "$root/tests/fuzz/corpus/$target" >"$log" 2>&1; then
    # "#123456 DONE cov: 1234 ft: 5678 corp: 90/12Kb ..." and the final stats.
    grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -n 1 || tail -n 3 "$log"
    grep -E '^stat::number_of_executed_units' "$log" || true
    rm -rf "$scratch"
  else
    status=1
    echo "fuzz_$target FAILED; input and log in $scratch" >&2
    grep -E 'ERROR|SUMMARY|Test unit written' "$log" | head -n 20 >&2 || tail -n 40 "$log" >&2
  fi
done
exit "$status"

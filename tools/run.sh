#!/usr/bin/env bash
# Builds repartsim and runs the main job: the bundled scenario library (every scenarios/**.yaml)
# as a sweep over each scenario's seed range, once per protocol profile, printing a summary
# table per profile, then merges the two reports (which checks both are there, from one
# binary) into build/sweep-all.{json,xml}, and prints how long each part took. Per-profile
# reports: build/sweep-<profile>.{json,xml}. Exits with the worst verdict (README "Exit
# codes"): non-zero if any scenario missed its expectation or showed an unexpected invariant.
# The sweeps run from the repository root with relative paths, so their repro lines read
# `build/repartsim run scenarios/... --seed N --profile P`: paste them at the root of any clone
# with build/repartsim built (docs/ci.md "Repro lines").
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
t0=$SECONDS
bash "$root/tools/setup.sh"
cmake -S "$root" -B "$root/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$root/build" -j "$(nproc)" --target repartsim
build_s=$((SECONDS - t0))
cd "$root"
echo "repro lines below run from the root of a repartsim clone with build/repartsim built" \
  "(here: $root)"
status=0
declare -A took
for profile in reference greptime; do
  echo "== bundled scenarios, profile $profile =="
  t=$SECONDS
  rc=0
  build/repartsim sweep scenarios --profile "$profile" --jobs "$(nproc)" \
    --json "build/sweep-$profile.json" --junit "build/sweep-$profile.xml" || rc=$?
  took[$profile]=$((SECONDS - t))
  if [ "$rc" -ne 0 ] && [ "$status" -eq 0 ]; then status=$rc; fi
done
echo "== both profiles =="
rc=0
build/repartsim merge build/sweep-reference.json build/sweep-greptime.json \
  --json build/sweep-all.json --junit build/sweep-all.xml --quiet || rc=$?
if [ "$rc" -ne 0 ] && [ "$status" -eq 0 ]; then status=$rc; fi
echo "main job: build ${build_s} s, sweep reference ${took[reference]} s, sweep greptime" \
  "${took[greptime]} s, total $((SECONDS - t0)) s; exit $status"
exit "$status"

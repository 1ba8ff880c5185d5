#!/usr/bin/env bash
# Builds repartsim and runs the main job: the bundled scenario library (scenarios/**.yaml) as
# a sweep over each scenario's seed range, once per protocol profile, printing a summary table
# per profile and writing JSON and JUnit reports to build/. Exits non-zero if any scenario
# misses its stated expectation for a profile.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/tools/setup.sh"
cmake -S "$root" -B "$root/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$root/build" -j "$(nproc)" --target repartsim
cd "$root"
mapfile -t scenarios < <(find scenarios -name '*.yaml' | sort)
status=0
for profile in reference greptime; do
  echo "== bundled scenarios, profile $profile =="
  "$root/build/repartsim" sweep "${scenarios[@]}" --profile "$profile" --jobs "$(nproc)" \
    --json "build/sweep-$profile.json" --junit "build/sweep-$profile.xml" || status=$?
done
exit "$status"

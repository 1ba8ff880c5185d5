#!/usr/bin/env bash
# Prints one line per (bundled scenario, profile, seed): `<path> <profile> <seed> <trace_hash>`.
# Pure refactors must leave this output byte-identical; record it before a change and diff it
# after: tools/trace_hashes.sh build/repartsim > before.txt; ...; diff before.txt after.txt
# Usage: tools/trace_hashes.sh REPARTSIM [SEEDS_PER_SCENARIO (default 3)]
set -euo pipefail
bin="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"  # absolute: the runs start in a temp dir
seeds="${2:-3}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mapfile -t scenarios < <(find scenarios -name '*.yaml' | sort)
for scenario in "${scenarios[@]}"; do
  for profile in reference greptime; do
    for ((seed = 0; seed < seeds; seed++)); do
      line="$(cd "$tmp" && "$bin" run "$root/$scenario" --profile "$profile" --seed "$seed" \
                --choices "$tmp/c" 2>/dev/null | grep -o 'trace_hash=0x[0-9a-f]*' | head -n 1 || true)"
      echo "$scenario $profile $seed ${line#trace_hash=}"
    done
  done
done

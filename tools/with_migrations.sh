#!/usr/bin/env bash
# Writes a copy of each random scenario with the metasrv's region rebalancer switched on
# (faults.migrate), so the migration beside every random workload can be swept:
#
#   tools/with_migrations.sh [RATIO] [OUTDIR]
#       RATIO (default 1/6): the chance of a migration at each datanode heartbeat tick;
#       OUTDIR (default build/with_migrations): where the copies go, named as the originals.
#   build/repartsim sweep build/with_migrations --profile reference --seeds 0..4999 --jobs 2
#
# Scenarios with `shape:` (drawn per seed) are skipped. A copy differs from its original in
# two lines: `name:` gains the suffix `-with-migrations`
# and `faults:` gains `migrate: "RATIO"` (a scenario that already sets migrate is copied as it
# is, renamed). Repro lines of the sweep name the copies, which the script leaves in OUTDIR.
# Run from the repository root (paths are relative to the directory it is started in).
set -euo pipefail
ratio="${1:-1/6}"
out="${2:-build/with_migrations}"
mkdir -p "$out"
for src in scenarios/random/*.yaml; do
  dst="$out/$(basename "$src")"
  # A scenario that draws its shape per seed draws its own faults: not copied.
  if grep -q '^shape:' "$src"; then
    echo "with_migrations: $src draws its shape (and faults) per seed: skipped" >&2
    continue
  fi
  if grep -q '^  migrate:' "$src"; then
    sed -e 's/^name: \(.*\)$/name: \1-with-migrations/' "$src" >"$dst"
  else
    sed -e 's/^name: \(.*\)$/name: \1-with-migrations/' \
        -e "s|^faults:\(.*\)\$|faults:\1\n  migrate: \"$ratio\"|" "$src" >"$dst"
  fi
  grep -q '^  migrate:' "$dst" || { echo "with_migrations: $src has no faults: mapping" >&2; exit 1; }
done
echo "with_migrations: $(ls "$out"/*.yaml | wc -l) scenarios in $out (migrate: $ratio)"

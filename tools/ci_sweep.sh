#!/usr/bin/env bash
# The sharded sweep of the bundled scenario library, as CI matrix jobs and Kubernetes Indexed
# Job pods run it (docs/ci.md). Two commands:
#
#   tools/ci_sweep.sh shard I N OUTDIR [SWEEP-FLAG...]
#       shard I of N, once per profile: OUTDIR/sweep-<profile>-<I>-of-<N>.json (and .xml).
#       I may be "env": the index comes from JOB_COMPLETION_INDEX (a Kubernetes Indexed Job).
#       Exits with the worst sweep exit code (0 when this shard met every expectation).
#   tools/ci_sweep.sh merge OUTDIR
#       merges every OUTDIR/sweep-*.json into OUTDIR/all.json and OUTDIR/all.xml; merge
#       refuses a missing or repeated shard, mixed binaries or a malformed report (exit 64),
#       and otherwise exits with the verdict over all shards (README "Exit codes").
#
# REPARTSIM (default build/repartsim) names the binary, SCENARIOS (default scenarios) the
# library; they and OUTDIR are taken relative to the directory the script is started in. Extra
# SWEEP-FLAGs (e.g. --seeds 0..3, --tag smoke, --jobs 2) go to every sweep.
#
# Repro lines: the sweeps and the merge run from the repository root, with every path inside
# the checkout made relative to it, so the reports' repro lines read `build/repartsim run
# scenarios/... --seed N --profile P` and run at the root of any clone with build/repartsim
# built; a path outside the checkout (a binary or library elsewhere) stays absolute (docs/ci.md
# "Repro lines").
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# `path` relative to the repository root when it lies inside it, else absolute.
from_root() { realpath -m -s --relative-base="$root" "$1"; }
bin="$(from_root "${REPARTSIM:-$root/build/repartsim}")"
scenarios="$(from_root "${SCENARIOS:-$root/scenarios}")"

usage() {
  echo "usage: tools/ci_sweep.sh shard I|env N OUTDIR [SWEEP-FLAG...] | merge OUTDIR" >&2
  exit 64
}

case "${1:-}" in
  shard)
    [ $# -ge 4 ] || usage
    index="$2" count="$3" out="$4"
    shift 4
    if [ "$index" = env ]; then
      index="${JOB_COMPLETION_INDEX:?JOB_COMPLETION_INDEX is not set}"
    fi
    out="$(from_root "$out")"
    cd "$root" || exit 73
    mkdir -p "$out" || exit 73
    echo "repro lines below run from the root of a repartsim clone with $bin built" \
      "(here: $root)"
    status=0
    for profile in reference greptime; do
      name="$out/sweep-$profile-$index-of-$count"
      "$bin" sweep "$scenarios" --profile "$profile" --shard "$index/$count" -q \
        --json "$name.json" --junit "$name.xml" "$@"
      rc=$?
      if [ "$rc" -ne 0 ] && [ "$status" -eq 0 ]; then status=$rc; fi
    done
    exit "$status"
    ;;
  merge)
    [ $# -eq 2 ] || usage
    out="$(from_root "$2")"
    cd "$root" || exit 73
    shopt -s nullglob
    reports=("$out"/sweep-*.json)
    if [ ${#reports[@]} -eq 0 ]; then
      echo "tools/ci_sweep.sh: error: no sweep-*.json report in $out" >&2
      exit 64
    fi
    exec "$bin" merge "${reports[@]}" --json "$out/all.json" --junit "$out/all.xml"
    ;;
  *) usage ;;
esac

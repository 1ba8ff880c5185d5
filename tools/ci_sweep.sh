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
# library. Extra SWEEP-FLAGs (e.g. --seeds 0..3, --tag smoke, --jobs 2) go to every sweep.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="${REPARTSIM:-$root/build/repartsim}"
scenarios="${SCENARIOS:-$root/scenarios}"

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
    mkdir -p "$out" || exit 73
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
    out="$2"
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

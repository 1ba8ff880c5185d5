#!/usr/bin/env bash
# Cross-build determinism: the same scenario, profile and seed must give the same trace hash
# whatever the compiler or build type (Debug, Release, RelWithDebInfo, MinSizeRel; g++ or
# clang++; with or without sanitizers). Runs tools/trace_hashes.sh with every given binary
# (every bundled scenario x both profiles x SEEDS seeds) and compares each list with the
# first. Exits 0 when all match, 3 (nondeterminism) with the differing lines otherwise.
# Usage: tools/cross_build_hashes.sh [--seeds N (default 1)] REPARTSIM REPARTSIM...
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seeds=1
if [ "${1:-}" = "--seeds" ]; then seeds="$2"; shift 2; fi
if [ $# -lt 2 ]; then
  echo "usage: tools/cross_build_hashes.sh [--seeds N] REPARTSIM REPARTSIM..." >&2
  exit 64
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
index=0
for bin in "$@"; do
  bin="$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")"
  bash "$root/tools/trace_hashes.sh" "$bin" "$seeds" > "$tmp/$index"
  if grep -q ' $' "$tmp/$index"; then
    echo "cross-build: $bin gave no trace hash for:" >&2
    grep ' $' "$tmp/$index" >&2
    exit 70
  fi
  index=$((index + 1))
done
status=0
lines="$(wc -l < "$tmp/0")"
for ((i = 1; i < index; i++)); do
  bin_i="${*:$((i + 1)):1}"
  if ! diff "$tmp/0" "$tmp/$i" > "$tmp/diff"; then
    echo "cross-build: trace hashes of $bin_i differ from those of $1:" >&2
    cat "$tmp/diff" >&2
    status=3
  fi
done
if [ "$status" -eq 0 ]; then
  echo "cross-build: $lines trace hashes identical across $index builds"
fi
exit "$status"

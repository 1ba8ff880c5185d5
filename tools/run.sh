#!/usr/bin/env bash
# Builds repartsim and runs the main job: for now a short demo sweep of the engine's toy
# system (it becomes the bundled scenario suite once scenarios exist).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/tools/setup.sh"
cmake -S "$root" -B "$root/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$root/build" -j "$(nproc)" --target repartsim
"$root/build/repartsim" demo "$@"

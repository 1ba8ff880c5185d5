#!/usr/bin/env bash
# Installs the Debian packages repartsim needs, only when some are missing.
# Runs `apt-get update` once, then one `apt-get install`; prints nothing when all are present.
set -euo pipefail

# clang-14 and libclang-rt-14-dev (libFuzzer, the sanitizer runtimes) build the sanitizer and
# fuzz pass of tools/test.sh --sanitize; clang-format-14 runs the format lint (lint_format).
# ccache (a compile cache outside the checkout) and mold (a fast linker) only speed up builds:
# CMake uses them when they are installed.
packages=(g++ cmake ninja-build python3 libcli11-dev libyaml-cpp-dev libsqlite3-dev
          libgtest-dev libgmock-dev libbenchmark-dev nlohmann-json3-dev git
          clang-14 libclang-rt-14-dev clang-format-14 chromium ccache mold)
missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "setup: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null

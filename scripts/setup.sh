#!/usr/bin/env bash
# Installs the Debian packages firstrace needs (only the missing ones), then configures and
# builds with the default CMake preset. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(build-essential cmake ninja-build pkg-config
          libboost-graph-dev libboost-program-options-dev
          libsqlite3-dev sqlite3 libgtest-dev libgmock-dev
          libdw-dev libelf-dev libzstd-dev
          qt6-base-dev libgl-dev clang libclang-rt-dev libomp-dev xvfb time
          libglib2.0-dev)  # samples/glib: GLib's threading API (tests/e2e)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
fi

cmake --preset default >/dev/null
cmake --build --preset default

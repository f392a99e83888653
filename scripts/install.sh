#!/usr/bin/env bash
# Installs everything macpilot needs on Debian 12: the desktop packages the tests drive, then the npm
# dependencies (which also builds dist/). Run from the repository root; uses sudo when not root.
set -euo pipefail
cd "$(dirname "$0")/.."

mapfile -t packages < <(awk '!/^#/ && NF { print $1 }' scripts/debian-packages.txt)

sudo=()
[ "$(id -u)" -eq 0 ] || sudo=(sudo)
if [ "${#packages[@]}" -gt 0 ] && ! dpkg -s "${packages[@]}" >/dev/null 2>&1; then
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${packages[@]}"
fi

npm ci --no-audit --no-fund

#!/usr/bin/env bash
# A Swift toolchain for this Debian 12 machine: Debian 13 (trixie) packages one (swiftlang), which runs in a
# trixie chroot made with debootstrap from Debian's own packages. Made once in a cache folder outside the
# repository, then reused; prints the chroot's path. Needs root (debootstrap and chroot do).
#
#   scripts/swift-toolchain.sh            make the chroot if needed, print its path
#   MACPILOT_SWIFT_CHROOT=DIR             where it lives (default ~/.cache/macpilot/swift-trixie)
set -euo pipefail

root=${MACPILOT_SWIFT_CHROOT:-${HOME:-/root}/.cache/macpilot/swift-trixie}
# What the chroot holds; a chroot made from another recipe is made again.
recipe='trixie minbase; swiftlang libc6-dev libstdc++-14-dev'
packages=(swiftlang libc6-dev libstdc++-14-dev)

fail() {
  printf 'swift-toolchain: %s\n' "$1" >&2
  exit 1
}

[ "$(id -u)" -eq 0 ] || fail "must run as root (debootstrap and chroot need it): sudo $0"
command -v debootstrap >/dev/null || fail 'debootstrap is missing: apt-get install -y debootstrap'
command -v unshare >/dev/null || fail 'unshare is missing: apt-get install -y util-linux'
# Run in a private mount namespace: whatever this script mounts goes away with it, however it ends.
[ -n "${MACPILOT_PRIVATE_MOUNTS:-}" ] ||
  exec env MACPILOT_PRIVATE_MOUNTS=1 unshare --mount --propagation private -- "$0" "$@"

mkdir -p "$(dirname "$root")"
exec 9>"$root.lock"
flock 9

if [ -f "$root/.macpilot-recipe" ] && [ "$(cat "$root/.macpilot-recipe")" = "$recipe" ]; then
  printf '%s\n' "$root"
  exit 0
fi

work="$root.partial"
rm -rf "$work" "$root"
echo "swift-toolchain: making a trixie chroot with Swift in $root (once; about 2 minutes)" >&2
debootstrap --variant=minbase trixie "$work" http://deb.debian.org/debian >"$work.log" 2>&1 ||
  fail "debootstrap failed; its log: $work.log"
cp /etc/resolv.conf "$work/etc/resolv.conf"
mount -t proc proc "$work/proc"
trap 'umount "$work/proc" 2>/dev/null || true' EXIT
{
  chroot "$work" apt-get update -qq &&
    DEBIAN_FRONTEND=noninteractive chroot "$work" apt-get install -y -qq --no-install-recommends "${packages[@]}" &&
    chroot "$work" apt-get clean &&
    chroot "$work" swift --version
} >>"$work.log" 2>&1 || fail "installing ${packages[*]} or running swift failed; its log: $work.log"
umount "$work/proc"
printf '%s\n' "$recipe" >"$work/.macpilot-recipe"
mv "$work" "$root"
rm -f "$work.log"
printf '%s\n' "$root"

#!/usr/bin/env bash
# `npm run test:swift`: builds the Swift package and runs its tests with a real Swift compiler, in the trixie
# chroot of scripts/swift-toolchain.sh, with this checkout bind-mounted read-only. HelperCore is also built in
# the Swift 6 language mode (complete concurrency checking), warnings as errors. Needs root, as the chroot does.
set -euo pipefail
cd "$(dirname "$0")/.."

# Run in a private mount namespace: whatever this script mounts goes away with it, however it ends.
[ -n "${MACPILOT_PRIVATE_MOUNTS:-}" ] ||
  exec env MACPILOT_PRIVATE_MOUNTS=1 unshare --mount --propagation private -- "$0" "$@"

chroot_dir=$(scripts/swift-toolchain.sh)
checkout=$(pwd)

mounted=()
unmount_all() {
  local i
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount "${mounted[i]}" || true; done
}
trap unmount_all EXIT
mount_at() {
  mount "$@"
  mounted+=("${*: -1}")
}
mount_at -t proc proc "$chroot_dir/proc"
mount_at --bind /dev "$chroot_dir/dev"
mkdir -p "$chroot_dir/macpilot"
mount_at --bind "$checkout" "$chroot_dir/macpilot"
mount -o remount,bind,ro "$chroot_dir/macpilot"

# Builds live in the chroot, so the checkout stays untouched and later runs are incremental.
in_chroot() { chroot "$chroot_dir" env -C /macpilot HOME=/root "$@"; }
echo "swift: $(in_chroot swift --version 2>&1 | head -n 1)"
echo "swift: HelperCore in the Swift 6 language mode, warnings as errors"
in_chroot swift build --scratch-path /var/cache/macpilot/swift6 --target HelperCore \
  -Xswiftc -swift-version -Xswiftc 6 -Xswiftc -warnings-as-errors
echo "swift: the package"
in_chroot swift build --scratch-path /var/cache/macpilot/build --build-tests
results=$(mktemp)
trap 'unmount_all; rm -f "$results"' EXIT
status=0
replay_out=/tmp/macpilot-replay.jsonl
rm -f "$chroot_dir$replay_out"
in_chroot env MACPILOT_REPLAY_OUT="$replay_out" \
  swift test --scratch-path /var/cache/macpilot/build --skip-build --disable-swift-testing >"$results" 2>&1 ||
  status=$?
cat "$results"
# One closing line with the counts, after everything else the run printed.
awk '/^Test Case .* passed/ { p++ } /^Test Case .* failed/ { f++ }
  END { printf "swift: %d passed, %d failed\n", p, f }' "$results"
failed=0
if [ "$status" -ne 0 ] || ! grep -q '^Test Case .* passed' "$results"; then failed=1; fi

echo "swift: HelperCore's dispatcher against the TypeScript helper client, and the replay's re-encodings"
MACPILOT_SWIFT_PROBE="chroot $chroot_dir /var/cache/macpilot/build/debug/dispatcher-probe" \
  MACPILOT_SWIFT_REPLAY="$chroot_dir$replay_out" npx vitest run --project swift || failed=1
exit "$failed"

#!/usr/bin/env bash
# Makes the macOS helper's release files from a fresh build (scripts/build-macos-helper.sh):
#   build/macos/macpilot-helper-<version>-darwin-universal.zip and .zip.sha256 (GitHub release assets, tag v<version>)
#   release-checksums.json            (shipped in the main npm package; the download fallback checks against it)
#   packages/macpilot-darwin/         (the app copied in, version set: ready for `npm publish`)
# Runs on macOS, from any directory. Publishing is left to the person releasing (docs/macos.md, "Releasing").
#
# Environment:
#   MACPILOT_SIGN_IDENTITY     see scripts/build-macos-helper.sh (required for a release that other Macs accept)
#   Notarization, when present (otherwise skipped, said loudly), either
#   MACPILOT_NOTARY_PROFILE    a keychain profile stored with `xcrun notarytool store-credentials`, or all of
#   MACPILOT_NOTARY_APPLE_ID   the Apple ID of the developer account,
#   MACPILOT_NOTARY_TEAM_ID    its team ID,
#   MACPILOT_NOTARY_PASSWORD   an app-specific password for that Apple ID.
set -euo pipefail
cd "$(dirname "$0")/.."

readonly APP_NAME='macpilot Helper.app'
readonly OUT='build/macos'
readonly DARWIN_PACKAGE='packages/macpilot-darwin'

version=$(node -p 'require("./package.json").version')
asset="macpilot-helper-$version-darwin-universal.zip"
app="$OUT/$APP_NAME"
zip="$OUT/$asset"

scripts/build-macos-helper.sh

notary=()
if [ -n "${MACPILOT_NOTARY_PROFILE:-}" ]; then
  notary=(--keychain-profile "$MACPILOT_NOTARY_PROFILE")
elif [ -n "${MACPILOT_NOTARY_APPLE_ID:-}" ] && [ -n "${MACPILOT_NOTARY_TEAM_ID:-}" ] &&
  [ -n "${MACPILOT_NOTARY_PASSWORD:-}" ]; then
  notary=(--apple-id "$MACPILOT_NOTARY_APPLE_ID" --team-id "$MACPILOT_NOTARY_TEAM_ID"
    --password "$MACPILOT_NOTARY_PASSWORD")
fi

rm -f "$zip"
if [ "${#notary[@]}" -gt 0 ]; then
  ditto -c -k --keepParent "$app" "$zip"
  xcrun notarytool submit "$zip" "${notary[@]}" --wait
  xcrun stapler staple "$app"
  xcrun stapler validate "$app"
  rm -f "$zip"
else
  echo "WARNING: no notarization credentials: $asset is NOT notarized (Gatekeeper may block it)" >&2
fi
ditto -c -k --keepParent "$app" "$zip"

sum=$(shasum -a 256 "$zip" | cut -d ' ' -f 1)
echo "$sum  $asset" >"$zip.sha256"
node -e '
  const [version, asset, sum] = process.argv.slice(1);
  const checksums = { version, assets: { [asset]: sum } };
  require("fs").writeFileSync("release-checksums.json", JSON.stringify(checksums, null, 2) + "\n");
' "$version" "$asset" "$sum"

rm -rf "${DARWIN_PACKAGE:?}/$APP_NAME"
ditto "$app" "$DARWIN_PACKAGE/$APP_NAME"
(cd "$DARWIN_PACKAGE" && npm pkg set version="$version")

echo "release files for $version:"
echo "  $zip"
echo "  $zip.sha256  ($sum)"
echo "  release-checksums.json"
echo "  $DARWIN_PACKAGE/$APP_NAME"

#!/usr/bin/env bash
# Builds the macOS helper as a universal binary inside its minimal, signed app bundle:
#   build/macos/macpilot Helper.app/Contents/{Info.plist,MacOS/macpilot-helper,_CodeSignature}
# Runs on macOS 14+ with Xcode or the Command Line Tools, from any directory.
#
# Environment:
#   MACPILOT_SIGN_IDENTITY  the signing identity, e.g. "Developer ID Application: Jane Doe (TEAMID1234)".
#                           Unset: ad hoc signing ("-"), fine for local builds, but macOS forgets permission
#                           grants whenever the ad hoc signature changes (every build) and Gatekeeper rejects it
#                           on other Macs.
set -euo pipefail
cd "$(dirname "$0")/.."

readonly APP_NAME='macpilot Helper.app'
readonly EXECUTABLE='macpilot-helper'
readonly PLIST_TEMPLATE='helper-swift/Resources/Info.plist'
readonly ENTITLEMENTS='helper-swift/Resources/macpilot-helper.entitlements'
readonly OUT='build/macos'

version=$(node -p 'require("./package.json").version')
app="$OUT/$APP_NAME"
binary="$app/Contents/MacOS/$EXECUTABLE"

slices=()
for arch in arm64 x86_64; do
  swift build -c release --arch "$arch" --product "$EXECUTABLE"
  slices+=("$(swift build -c release --arch "$arch" --show-bin-path)/$EXECUTABLE")
done

rm -rf "$app"
mkdir -p "$app/Contents/MacOS"
lipo -create -output "$binary" "${slices[@]}"
archs=$(lipo -archs "$binary")
if [[ " $archs " != *" arm64 "* || " $archs " != *" x86_64 "* ]]; then
  echo "error: $binary holds [$archs], expected arm64 and x86_64" >&2
  exit 1
fi

plist="$app/Contents/Info.plist"
cp "$PLIST_TEMPLATE" "$plist"
plutil -replace CFBundleShortVersionString -string "$version" "$plist"
plutil -replace CFBundleVersion -string "$version" "$plist"
plutil -lint "$plist"
if [ "$(plutil -extract CFBundleExecutable raw "$plist")" != "$EXECUTABLE" ]; then
  echo "error: $PLIST_TEMPLATE: CFBundleExecutable must be $EXECUTABLE" >&2
  exit 1
fi

identity="${MACPILOT_SIGN_IDENTITY:-}"
timestamp=(--timestamp)
if [ -z "$identity" ]; then
  cat >&2 <<'WARN'
############################################################################################
# WARNING: MACPILOT_SIGN_IDENTITY is not set: signing AD HOC.                              #
# Fine for trying it on this Mac; not for release: permission grants do not survive a      #
# rebuild, and other Macs refuse the app. Set MACPILOT_SIGN_IDENTITY to a Developer ID.    #
############################################################################################
WARN
  identity='-'
  timestamp=(--timestamp=none)
fi
codesign --force --options runtime "${timestamp[@]}" --entitlements "$ENTITLEMENTS" --sign "$identity" "$app"
codesign --verify --strict --verbose=2 "$app"

echo "built $app ($version, $archs)"

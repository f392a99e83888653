#!/usr/bin/env bash
# `npm run test:macos`: macpilot's macOS suite on a Mac, in one command (docs/macos.md, "Run the macOS suite").
#   1. builds the server and the helper app (ad hoc signed unless MACPILOT_SIGN_IDENTITY is set);
#   2. asks `macpilot doctor`, which starts that helper as the server does, which permissions it lacks, and for each
#      says which System Settings pane to open and which app to add; at a terminal it waits while you grant them;
#   3. runs the suite (vitest's macos project: the helper's contract and the end-to-end scenarios through the MCP
#      server, the ones Linux runs with its own apps);
#   4. writes build/macos/test-report.md, to paste into an issue: the Mac, the grants, the results.
# In CI (CI set, as on GitHub's runners, which grant the permissions first: scripts/macos-grant-tcc.sh) a missing
# permission fails the run at once: the suite never skips what it could not test.
# Options: --no-build (reuse the helper app built before, whose grants macOS keeps: an ad hoc signature changes
# with every build, and macOS then forgets the grants).
set -euo pipefail
cd "$(dirname "$0")/.."

readonly OUT='build/macos'
readonly REPORT="$OUT/test-report.md"
app="$PWD/$OUT/macpilot Helper.app"

if [ "$(uname -s)" != Darwin ]; then
  echo "npm run test:macos runs on a Mac (macOS 14 or later); on Linux, npm test runs the same scenarios" >&2
  exit 2
fi

build=1
for arg in "$@"; do
  case $arg in
    --no-build) build=0 ;;
    *) echo "unknown option $arg (only --no-build)" >&2; exit 2 ;;
  esac
done
if [ "$build" = 1 ] || [ ! -d "$app" ]; then
  npm run build
  scripts/build-macos-helper.sh
fi
export MACPILOT_HELPER_PATH="$app"

# "capability: MISSING" lines of doctor, each with the pane where macOS grants it.
missing_grants() {
  # shellcheck disable=SC2016 # JavaScript, not shell
  node dist/macpilot.js doctor --format json 2>/dev/null | node -e '
    const panes = {
      accessibility: "Accessibility",
      input: "Accessibility",
      "screen capture": "Screen & System Audio Recording (Screen Recording on macOS 14)",
      recording: "Input Monitoring",
    };
    let text = "";
    process.stdin.on("data", (chunk) => (text += chunk)).on("end", () => {
      const { lines } = JSON.parse(text);
      for (const line of lines) {
        const match = /^(accessibility|input|screen capture|recording)\b[^:]*: (MISSING|not available)/.exec(line);
        if (match) console.log(`${match[1]}|${panes[match[1]]}`);
      }
    });'
}

while :; do
  missing=$(missing_grants)
  [ -n "$missing" ] || break
  echo "macOS has not granted the helper everything the suite needs:"
  while IFS='|' read -r capability pane; do
    echo "  $capability: open System Settings > Privacy & Security > $pane, click +, press Cmd-Shift-G,"
    echo "    paste $(dirname "$app") and choose \"macpilot Helper.app\" (shown as macpilot Helper); turn it on"
  done <<<"$missing"
  if [ -n "${CI:-}" ] || [ ! -t 0 ]; then
    echo "not granted: the suite stops here (in CI, scripts/macos-grant-tcc.sh grants these first)" >&2
    exit 1
  fi
  read -r -p "Grant them, then press Enter to check again (Ctrl-C to stop) " _
done

mkdir -p "$OUT"
status=0
npx vitest run --project macos --reporter=default --reporter=json --outputFile.json="$OUT/vitest.json" || status=$?

{
  echo "## macpilot macOS suite: $(node -p 'require("./package.json").version') at $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
  echo
  echo "- Mac: macOS $(sw_vers -productVersion) ($(sw_vers -buildVersion)), $(uname -m), $(sysctl -n hw.model 2>/dev/null || echo '?')"
  echo "- Node.js $(node -v); helper: $app"
  echo
  echo '### doctor'
  echo
  echo '```'
  node dist/macpilot.js doctor 2>&1 || true
  echo '```'
  echo
  echo '### results'
  echo
  # shellcheck disable=SC2016 # JavaScript, not shell
  node -e '
    const results = require(process.argv[1]);
    console.log(`${results.numPassedTests} passed, ${results.numFailedTests} failed, ${results.numPendingTests} skipped, of ${results.numTotalTests}`);
    for (const file of results.testResults) {
      for (const test of file.assertionResults.filter((t) => t.status === "failed")) {
        console.log(`\n- FAILED ${file.name.split("/test/").pop()} > ${test.fullName}\n\n  ${String(test.failureMessages[0] ?? "").split("\n").slice(0, 6).join("\n  ")}`);
      }
    }' "$PWD/$OUT/vitest.json" 2>/dev/null || echo "vitest wrote no results (exit code $status): see the output above"
} >"$REPORT"
echo "Report: $REPORT (paste it into an issue)"
exit "$status"

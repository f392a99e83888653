#!/usr/bin/env bash
# Grants an app bundle Accessibility, Screen Recording, Post Event and Input Monitoring by writing
# rows into the TCC databases, for CI on GitHub-hosted macOS runners (macos-14/15: SIP disabled,
# passwordless sudo), as the runner images grant their own agent. Never on a person's Mac: there,
# `npm run test:macos` says which System Settings pane to open instead.
# Usage: scripts/macos-grant-tcc.sh "/path/to/macpilot Helper.app"   (.github/workflows/macos.yml)
# Rows for both the bundle id and the executable's path; the table's columns are read, not assumed
# (13 on macOS 13, 17 on 14 and 15). Bash 3.2 (/bin/bash on macOS): no associative arrays.
set -euo pipefail

if [ $# -ne 1 ] || [ ! -d "$1/Contents" ]; then echo "usage: $0 /path/to/App.app" >&2; exit 2; fi
app=$(cd "$1" && pwd -P)                      # TCC matches absolute, symlink-free paths
plistbuddy=${PLISTBUDDY:-/usr/libexec/PlistBuddy}
bundle_id=$("$plistbuddy" -c 'Print :CFBundleIdentifier' "$app/Contents/Info.plist")
exe="$app/Contents/MacOS/$("$plistbuddy" -c 'Print :CFBundleExecutable' "$app/Contents/Info.plist")"
system_db=${TCC_SYSTEM_DB:-/Library/Application Support/com.apple.TCC/TCC.db}
user_db=${TCC_USER_DB:-$HOME/Library/Application Support/com.apple.TCC/TCC.db}
sudo_cmd=${SUDO:-sudo}                        # SUDO=env to test without sudo
services="kTCCServiceAccessibility kTCCServiceScreenCapture kTCCServicePostEvent kTCCServiceListenEvent"
now=$(date +%s)

if command -v csrutil >/dev/null && ! csrutil status | grep -Eq 'disabled|unknown'; then
  echo "warning: SIP looks enabled; the system TCC.db is read-only even for root" >&2
fi

# csreq: the app's designated requirement compiled to a blob. tccd checks the client against it;
# NULL is also accepted (runner-images and appium seed NULL). For an ad hoc signature the DR is
# 'cdhash H"..."', i.e. it pins this exact build, which is fine when we grant right after building.
csreq=NULL
if [ "${TCC_NO_CSREQ:-0}" != 1 ] && command -v codesign >/dev/null && command -v csreq >/dev/null; then
  dr=$(codesign -d -r- "$app" 2>&1 | awk -F ' => ' '/designated/ {print $2; exit}') || dr=
  blob=$(mktemp)
  if [ -n "$dr" ] && printf '%s' "$dr" | csreq -r- -b "$blob" 2>/dev/null && [ -s "$blob" ]; then
    csreq="X'$(xxd -p "$blob" | tr -d '\n')'"
  fi
  rm -f "$blob"
fi
echo "bundle id: $bundle_id  executable: $exe  designated requirement: ${dr:-none}"

# Runs SQL with a 5 s busy timeout (-cmd, not ".timeout" inside the SQL argument: guidepup/setup
# had to revert that) and retries up to 5 times on lock/busy/"unable to" errors, which show up on
# macos-15 when tccd holds the write lock. $1 = sudo or env (user DB must not be written as root:
# root-owned -wal/-journal files would make it unwritable for the user's tccd).
run_sql() {
  local priv=$1 db=$2 sql=$3 try out=
  for try in 1 2 3 4 5; do
    if out=$("$priv" sqlite3 -cmd '.timeout 5000' "$db" "$sql" 2>&1); then
      [ -z "$out" ] || printf '%s\n' "$out"
      return 0
    fi
    case $out in
      *locked*|*busy*|*"unable to"*) echo "sqlite3 $db: $out (try $try/5)" >&2
        [ "$try" = 5 ] || sleep $((try * 2)) ;;
      *) break ;;
    esac
  done
  echo "error: sqlite3 $db: $out" >&2
  return 1
}

# Value for each access column by name; unknown columns are left out so their DEFAULT applies.
# 12/13 have 13 columns, 14/15 add pid, pid_version, boot_uuid, last_reminded (17), newer more.
col_value() { # $1 column, $2 service, $3 quoted client, $4 client_type
  case $1 in
    service) echo "'$2'" ;;             client) echo "$3" ;;
    client_type) echo "$4" ;;           auth_value) echo 2 ;;      # 2 = allowed
    auth_reason) echo 3 ;;              auth_version) echo 1 ;;    # 3 = user set
    csreq) echo "$csreq" ;;             indirect_object_identifier) echo "'UNUSED'" ;;
    policy_id|indirect_object_identifier_type|indirect_object_code_identity|pid|pid_version) echo NULL ;;
    flags) echo 0 ;;                    boot_uuid) echo "'UNUSED'" ;;
    last_modified|last_reminded) echo "$now" ;;
    *) return 1 ;;
  esac
}

grant_db() { # $1 sudo|env, $2 database
  local priv=$1 db=$2 cols names values col v svc client ctype sql=
  cols=$(run_sql "$priv" "$db" 'PRAGMA table_info(access);' | cut -d'|' -f2)
  [ -n "$cols" ] || { echo "error: no access table in $db" >&2; return 1; }
  for svc in $services; do
    for ctype in 0 1; do
      if [ "$ctype" = 0 ]; then client=$bundle_id; else client=$exe; fi
      client="'${client//\'/\'\'}'"
      names='' values=''
      for col in $cols; do
        v=$(col_value "$col" "$svc" "$client" "$ctype") || continue
        names="$names${names:+,}$col" values="$values${values:+,}$v"
      done
      # REPLACE, not IGNORE: an earlier "denied" row for the same key must be overwritten.
      sql="$sql INSERT OR REPLACE INTO access ($names) VALUES ($values);"
    done
  done
  run_sql "$priv" "$db" "BEGIN; $sql COMMIT;"
  echo "granted in $db ($(echo "$cols" | wc -l | tr -d ' ') columns)"
}

# These four services are system-wide, decided by the system tccd from the system database.
# runner-images also seeds the user database for Accessibility/ScreenCapture/PostEvent: do both,
# the user one best effort.
grant_db "$sudo_cmd" "$system_db"
[ -f "$user_db" ] && { grant_db env "$user_db" || echo "warning: user TCC.db not updated" >&2; }

# macOS 15+: stop replayd's "requesting to bypass the system private window picker" reminder
# (runner-images does this for its agent; keyed by the responsible process's path).
if [ "$(sw_vers -productVersion 2>/dev/null | cut -d. -f1)" -ge 15 ] 2>/dev/null; then
  defaults write "$HOME/Library/Group Containers/group.com.apple.replayd/ScreenCaptureApprovals.plist" \
    "$exe" -date "3024-01-01 00:00:00 +0000" || true
fi

# Make tccd reread: restart the system daemon and the per-user agent (launchd relaunches them
# on demand); fall back to killall, which hits both instances.
if [ "$sudo_cmd" = sudo ]; then
  sudo launchctl kickstart -k system/com.apple.tccd.system 2>/dev/null || sudo killall tccd 2>/dev/null || true
  launchctl kickstart -k "gui/$(id -u)/com.apple.tccd" 2>/dev/null || true
  sleep 1
fi

# Prove it: list the rows now present for both client forms.
q_bid="'${bundle_id//\'/\'\'}'" q_exe="'${exe//\'/\'\'}'"
for db in "$system_db" "$user_db"; do
  if [ "$db" = "$system_db" ]; then priv=$sudo_cmd; else priv='env'; fi
  [ -f "$db" ] || continue
  echo "== $db (service|client|client_type|auth_value|csreq bytes)"
  run_sql "$priv" "$db" "SELECT service, client, client_type, auth_value, length(csreq) FROM access
    WHERE client IN ($q_bid, $q_exe) ORDER BY service, client_type;"
done

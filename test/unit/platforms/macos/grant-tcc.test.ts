/**
 * scripts/macos-grant-tcc.sh, run here against TCC databases laid out as macOS 13 (13 columns) and macOS 14/15
 * (17) lay them out, with a stand-in for PlistBuddy and no sudo: the four services are allowed for the helper's
 * bundle id and for its executable's path, a "denied" row already there is overwritten, and unknown columns are
 * left to their defaults. (The runner's real databases and tccd are the macOS workflow's to try.)
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { temporaryFolder } from '../../../support/temp.js';

const SCRIPT = join(import.meta.dirname, '..', '..', '..', '..', 'scripts', 'macos-grant-tcc.sh');
const COLUMNS_13 = `service TEXT NOT NULL, client TEXT NOT NULL, client_type INTEGER NOT NULL,
  auth_value INTEGER NOT NULL, auth_reason INTEGER NOT NULL, auth_version INTEGER NOT NULL, csreq BLOB,
  policy_id INTEGER, indirect_object_identifier_type INTEGER, indirect_object_identifier TEXT NOT NULL DEFAULT 'UNUSED',
  indirect_object_code_identity BLOB, flags INTEGER, last_modified INTEGER NOT NULL DEFAULT 0`;
const COLUMNS_14 = `${COLUMNS_13}, pid INTEGER, pid_version INTEGER, boot_uuid TEXT NOT NULL DEFAULT 'UNUSED',
  last_reminded INTEGER NOT NULL DEFAULT 0`;
const KEY = 'PRIMARY KEY (service, client, client_type, indirect_object_identifier)';
const SERVICES = [
  'kTCCServiceAccessibility',
  'kTCCServiceListenEvent',
  'kTCCServicePostEvent',
  'kTCCServiceScreenCapture',
];

const sql = (db: string, statement: string) => execFileSync('sqlite3', [db, statement], { encoding: 'utf8' });

function fixture(columns: string) {
  const folder = temporaryFolder('macpilot-tcc-');
  const app = join(folder, 'macpilot Helper.app');
  mkdirSync(join(app, 'Contents', 'MacOS'), { recursive: true });
  writeFileSync(join(app, 'Contents', 'Info.plist'), '');
  const plistBuddy = join(folder, 'PlistBuddy');
  writeFileSync(
    plistBuddy,
    '#!/bin/sh\ncase "$2" in\n  *CFBundleIdentifier) echo dev.macpilot.helper ;;\n  *CFBundleExecutable) echo macpilot-helper ;;\nesac\n',
  );
  chmodSync(plistBuddy, 0o755);
  const system = join(folder, 'system.db');
  const user = join(folder, 'user.db');
  for (const db of [system, user]) sql(db, `CREATE TABLE access (${columns}, ${KEY});`);
  return { app, plistBuddy, system, user, executable: join(app, 'Contents', 'MacOS', 'macpilot-helper') };
}

describe('the TCC grant of the macOS workflow', () => {
  test.each([
    ['macOS 13', COLUMNS_13],
    ['macOS 14 and 15', COLUMNS_14],
  ])(
    '%s: the four services allowed for the bundle id and the path, a denied row overwritten',
    (_, columns) => {
      const { app, plistBuddy, system, user, executable } = fixture(columns);
      sql(
        system,
        "INSERT INTO access (service, client, client_type, auth_value, auth_reason, auth_version) VALUES ('kTCCServiceAccessibility', 'dev.macpilot.helper', 0, 0, 2, 1);",
      );
      const output = execFileSync('bash', [SCRIPT, app], {
        encoding: 'utf8',
        env: {
          ...process.env,
          TCC_SYSTEM_DB: system,
          TCC_USER_DB: user,
          PLISTBUDDY: plistBuddy,
          SUDO: 'env',
        },
      });
      expect(output).toContain(`granted in ${system}`);
      for (const db of [system, user]) {
        const rows = sql(db, 'SELECT service, client, client_type, auth_value FROM access ORDER BY 1, 3;')
          .trim()
          .split('\n');
        expect(rows).toEqual(
          SERVICES.flatMap((service) => [
            `${service}|dev.macpilot.helper|0|2`,
            `${service}|${executable}|1|2`,
          ]),
        );
      }
    },
  );

  test('refuses a folder that is not an app bundle', () => {
    const failed = (() => {
      try {
        execFileSync('bash', [SCRIPT, temporaryFolder('macpilot-tcc-')], { stdio: 'pipe' });
        return undefined;
      } catch (error) {
        return error as { status: number; stderr: Buffer };
      }
    })();
    expect(failed?.status).toBe(2);
    expect(String(failed?.stderr)).toContain('usage:');
  });
});

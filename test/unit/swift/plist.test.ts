import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { type PlistDict, type PlistValue, parsePlist } from '../../support/plist.js';
import { helperRoot, repoRoot } from '../../support/swift-syntax.js';

const resources = join(helperRoot, 'Resources');

function dictAt(path: string): PlistDict {
  const root: PlistValue = parsePlist(readFileSync(path, 'utf8'));
  if (typeof root !== 'object' || Array.isArray(root)) throw new Error(`${path}: the root is not a <dict>`);
  return root;
}

describe('the helper .app Info.plist template', () => {
  const info = dictAt(join(resources, 'Info.plist'));

  test('names the app, its executable and bundle id, runs without a Dock icon, needs macOS 14', () => {
    expect(info).toMatchObject({
      CFBundleIdentifier: 'dev.macpilot.helper',
      CFBundleName: 'macpilot Helper',
      CFBundleExecutable: 'macpilot-helper',
      CFBundlePackageType: 'APPL',
      LSUIElement: true,
      LSMinimumSystemVersion: '14.0',
    });
  });

  test('says why it asks for each permission', () => {
    for (const key of [
      'NSAccessibilityUsageDescription',
      'NSScreenCaptureUsageDescription',
      'NSAppleEventsUsageDescription',
    ]) {
      expect(info[key], key).toMatch(/^macpilot Helper .{20,}/);
    }
  });

  test('its executable is the one Package.swift builds', () => {
    const manifest = readFileSync(join(repoRoot, 'Package.swift'), 'utf8');
    expect(manifest).toMatch(
      new RegExp(`\\.executableTarget\\(\\s*name: "${String(info.CFBundleExecutable)}"`),
    );
  });
});

test('the entitlements allow Apple Events under the hardened runtime', () => {
  expect(dictAt(join(resources, 'macpilot-helper.entitlements'))).toMatchObject({
    'com.apple.security.automation.apple-events': true,
  });
});

describe('the plist reader refuses what macOS would refuse', () => {
  const wrap = (body: string) =>
    `<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n${body}\n</plist>\n`;

  test('reads every kind of value', () => {
    expect(
      parsePlist(
        wrap(
          '<dict><key>s</key><string>a &amp; b</string><key>i</key><integer>-3</integer><key>r</key><real>1.5</real>' +
            '<key>t</key><true/><key>f</key><false/><key>a</key><array><string>x</string></array>' +
            '<key>d</key><dict/></dict>',
        ),
      ),
    ).toEqual({ s: 'a & b', i: -3, r: 1.5, t: true, f: false, a: ['x'], d: {} });
  });

  test.each([
    ['an unclosed element', '<dict><key>a</key><string>b</dict>', /not well-formed XML/],
    ['a key without a value', '<dict><key>a</key></dict>', /a has no value/],
    ['two keys in a row', '<dict><key>a</key><key>b</key><true/></dict>', /which has no value/],
    ['a key given twice', '<dict><key>a</key><true/><key>a</key><false/></dict>', /a appears twice/],
    ['a value where a key belongs', '<dict><string>a</string><true/></dict>', /where a <key> belongs/],
    ['an unknown element', '<dict><key>a</key><yes/></dict>', /not a property list element/],
    ['a boolean with text', '<dict><key>a</key><true>yes</true></dict>', /must be empty/],
    ['an integer that is not one', '<dict><key>a</key><integer>1.5</integer></dict>', /not an integer/],
  ])('refuses %s', (_, body, message) => {
    expect(() => parsePlist(wrap(body))).toThrow(message);
  });

  test('refuses a document whose root is not <plist version="1.0">', () => {
    expect(() => parsePlist('<dict></dict>')).toThrow(/not one <plist> element/);
    expect(() => parsePlist('<plist><dict/></plist>')).toThrow(/version="1.0"/);
  });
});

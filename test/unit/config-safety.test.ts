import { describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { temporaryFolder } from '../support/temp.js';

const emptyHome = temporaryFolder('macpilot-home-');
const load = (env: NodeJS.ProcessEnv, flags = {}) => loadConfig(flags, env, emptyHome);

describe('safety settings', () => {
  test('defaults: full mode, the default app lists, consent asked', () => {
    const config = load({});
    expect(config.mode).toBe('full');
    expect(config.denyApps).toBeUndefined();
    expect(config.allowApps).toBeUndefined();
    expect(config.consent).toBe('ask');
  });

  test('MACPILOT_MODE, MACPILOT_CONSENT and the app lists are read, case-insensitively where they name a choice', () => {
    const config = load({
      MACPILOT_MODE: 'Read-Only',
      MACPILOT_CONSENT: 'allow',
      MACPILOT_DENY_APPS: ' mousepad , org.gnome.Calculator ',
      MACPILOT_ALLOW_APPS: 'gtk3-demo',
    });
    expect(config.mode).toBe('read-only');
    expect(config.consent).toBe('allow');
    expect(config.denyApps).toEqual(['mousepad', 'org.gnome.Calculator']);
    expect(config.allowApps).toEqual(['gtk3-demo']);
  });

  test('unknown values fail, naming the setting and what it accepts', () => {
    expect(() => load({ MACPILOT_MODE: 'yolo' })).toThrow(
      new ConfigError('MACPILOT_MODE: unknown mode "yolo"; valid: full, safe, read-only'),
    );
    expect(() => load({ MACPILOT_CONSENT: 'always' })).toThrow(
      /MACPILOT_CONSENT: unknown consent "always"; valid: ask, allow/,
    );
    expect(() => load({ MACPILOT_ALLOW_APPS: ' , ' })).toThrow(
      /MACPILOT_ALLOW_APPS: lists no app; .*, or leave it out to allow every app/,
    );
    // An empty deny list is said how to have none: "none", never an empty list taken for no list at all.
    expect(() => load({ MACPILOT_DENY_APPS: ' , ' })).toThrow(
      /MACPILOT_DENY_APPS: lists no app; .*or "none"/,
    );
  });
});

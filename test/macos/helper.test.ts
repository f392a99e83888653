/**
 * The real Swift helper on a Mac (.github/workflows/macos.yml runs this with MACPILOT_HELPER_PATH set to the
 * built app): the methods that work without any permission granted, as a CI runner has none. Accessibility,
 * input and screenshots need grants a runner cannot give; they are covered by reading (docs/macos.md).
 */
import { afterAll, describe, expect, test } from 'vitest';
import { HelperClient } from '../../src/helper-client/client.js';
import { PROTOCOL_VERSION } from '../../src/helper-client/protocol.js';
import { createLogger } from '../../src/log.js';
import { helperCommand } from '../../src/platforms/helper-command.js';
import { VERSION } from '../../src/version.js';

const helperPath = process.env.MACPILOT_HELPER_PATH;
if (!helperPath)
  throw new Error('set MACPILOT_HELPER_PATH to the built helper (build/macos/macpilot Helper.app)');

const helper = new HelperClient({
  helper: helperCommand({ helperPath }),
  log: createLogger('info'),
  requestTimeoutMs: 30_000,
});
afterAll(() => helper.close());

describe('the macOS helper without permissions', () => {
  test('system.hello: macOS, this release, every capability with a reason', async () => {
    const hello = await helper.hello();
    expect(hello).toMatchObject({
      platform: 'darwin',
      protocolVersion: PROTOCOL_VERSION,
      helperVersion: VERSION,
    });
    for (const [name, capability] of Object.entries(hello.capabilities)) {
      expect(capability.detail.length, name).toBeGreaterThan(0);
    }
    expect(hello.capabilities.display.available).toBe(true);
  });

  test('apps.list: the Finder, with its bundle id', async () => {
    const { apps } = await helper.call('apps.list', {});
    const bundles = apps.map((app) => app.bundleId);
    expect(bundles).toContain('com.apple.finder');
    for (const app of apps) expect(app.pid).toBeGreaterThan(0);
  });

  test('screen.displays: exactly one primary display, at the origin, with a size and a scale', async () => {
    const { displays } = await helper.call('screen.displays', {});
    const primary = displays.filter((display) => display.primary);
    expect(primary).toHaveLength(1);
    expect(primary[0]?.bounds).toMatchObject({ x: 0, y: 0 });
    for (const display of displays) {
      expect(display.bounds.width).toBeGreaterThan(0);
      expect(display.bounds.height).toBeGreaterThan(0);
      expect([1, 2, 3]).toContain(display.scale);
    }
  });

  test('clipboard: what is written reads back, Unicode included; clear empties it', async () => {
    const text = `macpilot ${process.pid} ✓ 日本語`;
    await helper.call('clipboard.write', { text });
    const read = await helper.call('clipboard.read', {});
    expect(read.text).toBe(text);
    expect(read.types.length).toBeGreaterThan(0);

    await helper.call('clipboard.clear', {});
    expect((await helper.call('clipboard.read', {})).text).toBeUndefined();
  });
});

/** The handshake, result shapes, and the errors every caller must be able to rely on. */
import { expect, inject, test } from 'vitest';
import { HelperErrorCode, methods, PROTOCOL_VERSION } from '../../src/helper-client/protocol.js';
import { failsWith, startHelper, useHelper } from './helper.js';

const env = inject('desktopEnv');
const { helper } = useHelper(env);

test('system.hello reports the protocol version and what this desktop offers', async () => {
  const hello = await helper.hello();
  expect(methods['system.hello'].result.parse(hello)).toEqual(hello);
  expect(hello.protocolVersion).toBe(PROTOCOL_VERSION);
  expect(hello.platform).toBe('linux');
  expect(hello.capabilities.accessibility.available).toBe(true);
  expect(hello.capabilities.display).toMatchObject({ available: true });
  expect(hello.capabilities.display.detail).toContain(env.DISPLAY);
  expect(hello.capabilities.input).toEqual({
    available: true,
    detail: `XTEST 2.2 on X display ${env.DISPLAY}: mouse and keyboard input`,
  });
});

test('apps.list answers in the protocol shape', async () => {
  const result = await helper.call('apps.list', {});
  expect(methods['apps.list'].result.parse(result)).toEqual(result);
});

test('a helper without a session bus says why accessibility is unavailable', async () => {
  const { DBUS_SESSION_BUS_ADDRESS: _, ...noBus } = env;
  const bare = startHelper({ ...noBus, NO_AT_BRIDGE: '1' });
  try {
    const hello = await bare.hello();
    expect(hello.capabilities.accessibility.available).toBe(false);
    expect(hello.capabilities.accessibility.detail).toMatch(/no session bus/);
    await failsWith(bare.call('apps.list', {}), HelperErrorCode.NotAvailable);
  } finally {
    await bare.close();
  }
});

test('bad params are InvalidParams with a readable message', async () => {
  const error = await failsWith(
    helper.call('ax.snapshot', {
      root: 'x',
      depth: -1,
      maxNodes: 0,
      includeHidden: false,
      maxValueLength: 0,
    }),
    HelperErrorCode.InvalidParams,
  );
  expect(error.message).toMatch(/depth/);
  expect(error.data.hint).toBeTruthy();
  await failsWith(
    helper.call('apps.launch', { timeoutMs: 1000 } as unknown as { name: string; timeoutMs: number }),
    HelperErrorCode.InvalidParams,
  );
  await failsWith(
    helper.call('apps.activate', { pid: 'twelve' } as unknown as { pid: number }),
    HelperErrorCode.InvalidParams,
  );
});

test('handles that name nothing are ElementGone', async () => {
  const { apps } = await helper.call('apps.list', {});
  const liveBus = apps[0]?.id.split('/')[0] ?? ':1.1';
  for (const id of [
    'garbage',
    ':1.99999/org/a11y/atspi/accessible/1',
    `${liveBus}/org/a11y/atspi/accessible/999999`,
    `${liveBus}/not a path`,
  ]) {
    const error = await failsWith(
      helper.call('ax.element', { id, maxValueLength: 10 }),
      HelperErrorCode.ElementGone,
    );
    expect(error.data.hint).toMatch(/snapshot/);
    await failsWith(
      helper.call('ax.snapshot', {
        root: id,
        depth: 2,
        maxNodes: 10,
        includeHidden: false,
        maxValueLength: 10,
      }),
      HelperErrorCode.ElementGone,
    );
    await failsWith(helper.call('ax.perform', { id, action: 'click' }), HelperErrorCode.ElementGone);
    await failsWith(helper.call('ax.setValue', { id, value: 'x' }), HelperErrorCode.ElementGone);
    await failsWith(helper.call('ax.focus', { id }), HelperErrorCode.ElementGone);
    await failsWith(helper.call('ax.ancestors', { id }), HelperErrorCode.ElementGone);
  }
});

test('unknown apps are AppNotFound, and launch never runs what is not an installed desktop entry', async () => {
  const error = await failsWith(
    helper.call('apps.launch', { name: 'no-such-app-anywhere', timeoutMs: 1000 }),
    HelperErrorCode.AppNotFound,
  );
  expect(error.data.hint).toMatch(/installed/);
  await failsWith(
    helper.call('apps.launch', { name: '/bin/sh -c true', timeoutMs: 1000 }),
    HelperErrorCode.AppNotFound,
  );
  await failsWith(helper.call('apps.launch', { name: 'sh', timeoutMs: 1000 }), HelperErrorCode.AppNotFound);
  await failsWith(
    helper.call('apps.quit', { pid: 999_999, force: true, timeoutMs: 100 }),
    HelperErrorCode.AppNotFound,
  );
  await failsWith(helper.call('apps.activate', { pid: 999_999 }), HelperErrorCode.AppNotFound);
  // A live process that is not an app (this test runner) is not an app either.
  await failsWith(
    helper.call('apps.quit', { pid: process.pid, force: true, timeoutMs: 100 }),
    HelperErrorCode.AppNotFound,
  );
});

test('a point where no window is answers null', async () => {
  const result = await helper.call('ax.elementAt', { x: -50, y: -50 });
  expect(result.element).toBeNull();
});

/** Typing longer than the longest action allowed is refused before any key is sent. */
import { expect, test } from 'vitest';
import { createEngine } from '../../../../src/engine/index.js';
import type { HelperPort } from '../../../../src/engine/kernel/port.js';
import { HelperError } from '../../../../src/helper-client/errors.js';
import {
  HelperErrorCode,
  type MethodName,
  type Params,
  type Result,
} from '../../../../src/helper-client/protocol.js';
import { FakeHelper } from '../fake-helper.js';
import { mousepad } from '../fixtures.js';

test('typing longer than action_seconds is refused with its estimate and the longest part, nothing sent', async () => {
  const sent: string[] = [];
  const port: HelperPort = {
    call: async <M extends MethodName>(method: M) => {
      sent.push(method);
      return {} as Result<M>;
    },
  };
  const engine = createEngine(port, {
    longestAction: { ms: 5000, setBy: 'action_seconds: MACPILOT_RATE_LIMITS' },
  });
  await expect(engine.input.typeText({ text: 'a'.repeat(11), delayMs: 500 })).rejects.toMatchObject({
    what: 'Typing 11 characters 500 ms apart would take 5.5 s',
    why: expect.stringContaining('at most 5.0 s (action_seconds: MACPILOT_RATE_LIMITS)'),
    next: expect.stringContaining('parts of at most 10 characters'),
  });
  await expect(engine.input.typeText({ text: '😀'.repeat(501), delayMs: 10 })).rejects.toThrow(
    /Typing 501 characters 10 ms apart/,
  );
  // No delay asked: each key still costs the helper a millisecond or so.
  await expect(engine.input.typeText({ text: 'x'.repeat(6000) })).rejects.toMatchObject({
    what: 'Typing 6000 characters at 1 ms a key at the least would take 6.0 s',
    next: 'type the text in parts of at most 5000 characters (one type_text call each)',
  });
  expect(sent).toEqual([]);
});

test('a key named by what it types carries that character to the macOS helper, which finds it on the layout', async () => {
  const keys = (platform: 'darwin' | 'linux') => {
    const sent: Params<'input.key'>[] = [];
    const port: HelperPort = {
      call: async <M extends MethodName>(method: M, params: Params<M>) => {
        if (method === 'system.hello') return { platform } as Result<M>;
        if (method === 'input.key') sent.push(params as Params<'input.key'>);
        return {} as Result<M>;
      },
    };
    return { engine: createEngine(port), sent };
  };
  const mac = keys('darwin');
  await mac.engine.input.tap('command+z');
  await mac.engine.input.tap('escape');
  expect(mac.sent).toEqual([
    { code: 0x06, character: 'z', modifiers: ['command'], repeat: 1 },
    { code: 0x35, character: undefined, modifiers: [], repeat: 1 },
  ]);
  // X11 keysyms already name what a key types; the Linux helper finds the key on the layout itself.
  const linux = keys('linux');
  await linux.engine.input.tap('z');
  expect(linux.sent).toEqual([{ code: 0x7a, character: undefined, modifiers: [], repeat: 1 }]);
});

test('press_key in the background to a named app: macOS sends it to that process alone; X11 refuses', async () => {
  const run = async (platform: 'darwin' | 'linux') => {
    const fake = new FakeHelper([{ pid: 4242, name: 'mousepad', active: false, root: mousepad() }]);
    const keys: Params<'input.key'>[] = [];
    const port: HelperPort = {
      call: async <M extends MethodName>(method: M, params: Params<M>) => {
        if (method === 'system.hello') return { platform } as Result<M>;
        if (method === 'input.key') {
          keys.push(params as Params<'input.key'>);
          return {} as Result<M>;
        }
        return fake.call(method, params);
      },
    };
    const engine = createEngine(port, { background: () => 'MACPILOT_INPUT is background' });
    const answer = engine.input.pressKey('s', ['command'], 1, {}, 'mousepad');
    return { answer, keys };
  };
  const mac = await run('darwin');
  const done = await mac.answer;
  expect(done.kind).toBe('action');
  expect(mac.keys).toEqual([{ code: 0x01, modifiers: ['command'], repeat: 1, pid: 4242 }]);
  const linux = await run('linux');
  await expect(linux.answer).rejects.toMatchObject({ kind: 'needs_foreground' });
  expect(linux.keys).toEqual([]);
});

test('a key pressed in an app too busy to be read is pressed all the same; the answer says what changed is unknown', async () => {
  const fake = new FakeHelper([{ pid: 4242, name: 'mousepad', active: true, root: mousepad() }]);
  const keys: Params<'input.key'>[] = [];
  const port: HelperPort = {
    call: async <M extends MethodName>(method: M, params: Params<M>) => {
      if (method === 'system.hello') return { platform: 'linux' } as Result<M>;
      if (method === 'input.key') {
        keys.push(params as Params<'input.key'>);
        return {} as Result<M>;
      }
      // The app's window is too big to read in time (a page of 10,000 rows); its app element answers.
      if (method === 'ax.snapshot' && (params as Params<'ax.snapshot'>).depth > 1)
        throw new HelperError(
          method,
          HelperErrorCode.Timeout,
          'ax.snapshot: the app did not answer within 5 s',
        );
      return fake.call(method, params);
    },
  };
  const engine = createEngine(port);
  const done = await engine.input.pressKey('escape', [], 1, {});
  expect(keys).toHaveLength(1);
  expect(done.outcome).toEqual({
    kind: 'unread',
    app: { pid: 4242, name: 'mousepad' },
    why: 'the app did not answer within 5 s',
  });
});

test('in the background, keys, typing where the focus is and pointer input are refused before any app is looked at', async () => {
  const fake = new FakeHelper([{ pid: 4242, name: 'mousepad', active: true, root: mousepad() }]);
  const asked: string[] = [];
  const port: HelperPort = {
    call: async <M extends MethodName>(method: M, params: Params<M>) => {
      if (method === 'system.hello') return { platform: 'linux' } as Result<M>;
      asked.push(method);
      return fake.call(method, params);
    },
  };
  // An app in front that the agent may not see (the console) must not be what the refusal is about.
  const engine = createEngine(port, { background: () => 'MACPILOT_INPUT is background' });
  for (const attempt of [
    () => engine.input.pressKey('escape', [], 1, {}),
    () => engine.input.typeText({ text: 'x' }),
    () => engine.input.click({ x: 10, y: 10 }),
    () => engine.input.scroll('down', 100, { x: 10, y: 10 }),
    () => engine.input.drag({ x: 10, y: 10 }, { x: 20, y: 20 }),
  ]) {
    await expect(attempt()).rejects.toMatchObject({ kind: 'needs_foreground' });
  }
  expect(asked).toEqual([]);
});

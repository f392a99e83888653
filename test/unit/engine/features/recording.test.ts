/**
 * The Recorder against a made-up helper: one recording at a time, stop without start, a denied app refused at
 * start and left out while recording, the session's end ending the recording, and typed text only in the steps.
 */
import type { MacpilotError } from '../../../../src/errors.js';
import { AsyncLocalStorage } from 'node:async_hooks';
import { getEventListeners } from 'node:events';
import { expect, test } from 'vitest';
import { createEngine } from '../../../../src/engine/index.js';
import type { HelperPort } from '../../../../src/engine/kernel/port.js';
import { renderText } from '../../../../src/engine/render/text.js';
import { AppRefused } from '../../../../src/engine/kernel/resolve.js';
import type { MethodName, Params, RecordedInput, Result } from '../../../../src/helper-client/protocol.js';

const APPS = [
  { pid: 10, name: 'gedit', id: 'root-10', active: true },
  { pid: 20, name: 'seahorse', id: 'root-20', active: false },
  { pid: 40, name: 'xterm', id: 'root-40', active: false },
];
/** The access of the call in progress, as src/policy/apps.ts keeps it: a terminal may be read, not acted on. */
const access = new AsyncLocalStorage<'read' | 'write'>();

/** A helper whose person presses what the test sends; the focus is in the app `focusPid`. */
function desktop() {
  const calls: MethodName[] = [];
  let listener: ((input: RecordedInput) => void) | undefined;
  let ready: (() => void) | undefined;
  const state = { focusPid: 10, focusSecure: false, helperGone: false };
  const port: HelperPort = {
    call: async <M extends MethodName>(method: M, _params: Params<M>) => {
      calls.push(method);
      if (state.helperGone) throw new Error('the helper went away');
      const answers: Partial<Record<MethodName, unknown>> = {
        'system.hello': { platform: 'linux' },
        'apps.list': { apps: APPS },
        'record.start': {},
        'record.stop': { events: 0 },
        'ax.elementAt': { element: null },
        'ax.focused': {
          element: {
            id: 'field',
            nativeRole: 'text',
            name: '',
            states: ['focused', 'editable', ...(state.focusSecure ? ['secure'] : [])],
            childCount: 0,
            pid: state.focusPid,
          },
        },
      };
      if (!(method in answers)) throw new Error(`not faked: ${method}`);
      return answers[method] as Result<M>;
    },
    onNotification: (name, listen) => {
      if (name === 'record.input') listener = listen as (input: RecordedInput) => void;
      return () => (listener = undefined);
    },
    onReady: (listen) => {
      ready = listen as () => void;
      return () => (ready = undefined);
    },
  };
  const gate = (app: { name: string }, asked?: 'list' | 'read' | 'write') => {
    if (app.name === 'seahorse')
      throw new AppRefused({ what: 'seahorse is off limits', why: 'denied', next: '-' });
    if (app.name === 'xterm' && (asked ?? access.getStore()) !== 'read') {
      throw new AppRefused({ what: 'xterm may be read but not acted on', why: 'a terminal', next: '-' });
    }
  };
  const engine = createEngine(port, {}, gate);
  const person = {
    types: (text: string) =>
      Array.from(text).forEach((c) =>
        listener?.({ kind: 'keyDown', code: 0x61, text: c, modifiers: [], time: 1 }),
      ),
    presses: (code: number) => listener?.({ kind: 'keyDown', code, modifiers: [], time: 1 }),
    clicks: (x: number, y: number) => {
      listener?.({ kind: 'buttonDown', button: 'left', at: { x, y }, modifiers: [], time: 2 });
      listener?.({ kind: 'buttonUp', button: 'left', at: { x, y }, modifiers: [], time: 3 });
    },
    listening: () => listener !== undefined,
  };
  /** The helper restarted (a new one said hello). */
  const restart = () => ready?.();
  return { engine, calls, state, person, restart };
}

test('one recording at a time; its presses become steps; stop without a start is a clear error', async () => {
  const { engine, calls, person } = desktop();
  await expect(engine.recorder.stop()).rejects.toThrow(/No recording is running/);
  expect(await engine.recorder.start(undefined)).toEqual({ kind: 'recording', state: 'started' });
  await expect(engine.recorder.start('gedit')).rejects.toThrow(/already running/);
  person.clicks(5, 6);
  person.types('secret words');
  expect(engine.recorder.status?.events).toBe(1 + 12);
  const stopped = await engine.recorder.stop();
  expect(stopped.steps).toEqual([
    { tool: 'click', args: { x: 5, y: 6 } },
    { tool: 'type_text', args: { text: 'secret words' } },
  ]);
  expect(stopped.events).toBe(13);
  expect(renderText(stopped)).toContain('"secret words"');
  expect(calls.filter((c) => c.startsWith('record.'))).toEqual(['record.start', 'record.stop']);
  expect(engine.recorder.status).toBeUndefined();
  expect(person.listening()).toBe(false);
});

test('a denied app is refused at start; keys typed into it while recording every app are left out', async () => {
  const { engine, state, person } = desktop();
  // To the agent, as if it did not run; to the person, why.
  const refused = await engine.recorder.start('seahorse').catch((error: unknown) => error as MacpilotError);
  expect(refused).toMatchObject({ what: 'No running app matches "seahorse"', kind: 'app_off_limits' });
  expect((refused as MacpilotError).renderForPerson()).toContain('seahorse is off limits');
  expect(engine.recorder.status).toBeUndefined();

  await engine.recorder.start(undefined);
  state.focusPid = 20;
  person.types('hunter2');
  const stopped = await engine.recorder.stop();
  expect(stopped.steps).toEqual([]);
  expect(stopped.leftOut).toEqual({ 'in an app this server may not use': 7 });
  expect(JSON.stringify(stopped)).not.toContain('hunter2');
});

test('Tab into a password field: what is typed there is left out, not kept in the run begun before', async () => {
  const { engine, state, person } = desktop();
  await engine.recorder.start('gedit');
  person.types('alice');
  person.presses(0xff09); // Tab, which moves the focus to the password field
  state.focusSecure = true;
  person.types('hunter2');
  const stopped = await engine.recorder.stop();
  expect(stopped.steps).toEqual([
    { tool: 'type_text', args: { text: 'alice' } },
    { tool: 'press_key', args: { key: 'tab' } },
  ]);
  expect(stopped.leftOut).toEqual({
    'typed into a password field (add a set_value step for it yourself)': 7,
  });
  expect(JSON.stringify(stopped)).not.toContain('hunter2');
});

test('recording one app leaves out what is typed into another', async () => {
  const { engine, state, person } = desktop();
  await engine.recorder.start('gedit');
  person.types('kept');
  person.clicks(1, 1); // nothing there: no element of gedit
  state.focusPid = 30;
  person.types('elsewhere');
  const stopped = await engine.recorder.stop();
  expect(stopped.app).toBe('gedit');
  expect(stopped.steps).toEqual([{ tool: 'type_text', args: { text: 'kept' } }]);
  expect(stopped.leftOut).toEqual({
    'on no element of the recorded app': 1,
    'in another app than the one recorded': 9,
  });
});

test("a recording stopped takes its listener off the session's signal: a long session's recordings do not pile up", async () => {
  const { engine } = desktop();
  const session = new AbortController();
  for (let i = 0; i < 3; i++) {
    await engine.recorder.start(undefined, session.signal);
    await engine.recorder.stop();
  }
  expect(getEventListeners(session.signal, 'abort')).toHaveLength(0);
});

test('only the session that started a recording may stop it', async () => {
  const { engine, person } = desktop();
  const [owner, other] = [new AbortController(), new AbortController()];
  await engine.recorder.start(undefined, owner.signal);
  person.types('mine');
  await expect(engine.recorder.stop(undefined, other.signal)).rejects.toThrow(/belongs to another session/);
  expect(engine.recorder.status?.events).toBe(4);
  const stopped = await engine.recorder.stop(undefined, owner.signal);
  expect(stopped.steps).toEqual([{ tool: 'type_text', args: { text: 'mine' } }]);
});

test('the end of the session that started it ends the recording', async () => {
  const { engine, calls, person } = desktop();
  const session = new AbortController();
  await engine.recorder.start(undefined, session.signal);
  session.abort();
  await expect.poll(() => calls.includes('record.stop')).toBe(true);
  expect(engine.recorder.status).toBeUndefined();
  expect(person.listening()).toBe(false);
  await expect(engine.recorder.stop()).rejects.toThrow(/No recording is running/);
  // A new recording may start.
  await engine.recorder.start(undefined);
  expect(engine.recorder.status).toBeDefined();
});

test('a helper that restarts while recording is asked to record again; after stop it is not', async () => {
  const { engine, calls, restart } = desktop();
  await engine.recorder.start(undefined);
  restart();
  await expect.poll(() => calls.filter((c) => c === 'record.start').length).toBe(2);
  await engine.recorder.stop();
  restart();
  expect(calls.filter((c) => c === 'record.start')).toHaveLength(2);
});

test('typing into an app the agent may only read (a terminal: a sudo password has no password field) makes no step', async () => {
  const { engine, state, person } = desktop();
  await access.run('read', () => engine.recorder.start(undefined));
  state.focusPid = 40;
  person.types('hunter2'); // heard outside any call, as notifications are
  person.presses(0xff0d); // Enter
  state.focusPid = 10;
  person.types('ok');
  const stopped = await engine.recorder.stop();
  expect(stopped.steps).toEqual([{ tool: 'type_text', args: { text: 'ok' } }]);
  expect(JSON.stringify(stopped)).not.toContain('hunter2');
  expect(Object.entries(stopped.leftOut ?? {})).toEqual([
    [expect.stringContaining('read but not act on'), 8],
  ]);
});

test('a helper gone before stop: what was heard is still answered', async () => {
  const { engine, calls, state, person } = desktop();
  await engine.recorder.start(undefined);
  person.types('kept');
  expect(engine.recorder.status?.events).toBe(4);
  // The typing's focus lookup is answered (focus, then the app) before the helper goes away.
  await expect.poll(() => calls.includes('apps.list')).toBe(true);
  state.helperGone = true;
  const stopped = await engine.recorder.stop();
  expect(stopped.steps).toEqual([{ tool: 'type_text', args: { text: 'kept' } }]);
  expect(engine.recorder.status).toBeUndefined();
});

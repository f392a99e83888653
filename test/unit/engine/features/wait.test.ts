import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type TextEngine, textEngine } from '../text-engine.js';
import type { WaitOptions } from '../../../../src/engine/features/wait.js';
import { MacpilotError } from '../../../../src/errors.js';
import { byId, el, mousepad, SECRET } from '../fixtures.js';
import { EventedHelper, track } from '../observer-fake.js';

const PID = 4242;

function setup() {
  const app = { pid: PID, name: 'mousepad', active: true, root: mousepad() };
  const helper = new EventedHelper([app]);
  const engine = textEngine(helper);
  return { helper, engine, app };
}

/** Starts a wait; the test then moves the clock. */
const start = (engine: TextEngine, options: WaitOptions, signal?: AbortSignal) =>
  track(engine.waits.waitFor(options, { signal }));

const failure = (state: { error?: unknown }) => {
  if (state.error instanceof MacpilotError) return state.error.render();
  throw new Error(`expected a MacpilotError, got ${String(state.error)}`);
};

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('re-checking', () => {
  it('looks again as soon as the app reports a change', async () => {
    const { helper, engine, app } = setup();
    helper.emit(PID);
    const waiting = start(engine, { condition: 'appears', app: 'mousepad', role: 'button', name: 'Save' });
    await vi.advanceTimersByTimeAsync(100);
    expect(waiting.settled).toBe(false);
    byId(app.root, 'dlg').children?.push(el('push button', 'Save', { id: 'save' }));
    helper.emit(PID);
    await vi.advanceTimersByTimeAsync(1);
    expect(waiting.value).toMatch(/^Done after 10[01] ms: a button named "Save" in "mousepad" to appear\.\n/);
    expect(waiting.value).toContain('- button "Save" [ref=e');
  });

  it('polls when the helper has no events', async () => {
    const { helper, engine, app } = setup();
    helper.eventsUnavailable = true;
    const waiting = start(engine, { condition: 'text_appears', app: 'mousepad', text: 'Saved' });
    await vi.advanceTimersByTimeAsync(100);
    byId(app.root, 'status').name = 'Saved to disk';
    await vi.advanceTimersByTimeAsync(200);
    expect(waiting.value).toContain('statusbar "Saved to disk" [ref=e');
  });
});

describe('conditions', () => {
  it('value_equals / value_contains by ref, with the element line', async () => {
    const { engine, helper } = setup();
    const snapshot = await engine.snapshot({ app: 'mousepad' });
    const ref = /textbox \[ref=(e\d+)\]/.exec(snapshot)?.[1] ?? '';
    const equals = start(engine, { condition: 'value_equals', ref, text: 'Hello world' });
    const contains = start(engine, { condition: 'value_contains', ref, text: 'world' });
    await vi.advanceTimersByTimeAsync(0);
    expect(equals.value).toContain(`textbox [ref=${ref}]`);
    expect(contains.value).toContain('value="Hello world"');
    const later = start(engine, { condition: 'value_equals', ref, text: 'Bye' });
    await helper.call('ax.setValue', { id: 'editor', value: 'Bye' });
    helper.emit(PID);
    await vi.advanceTimersByTimeAsync(0);
    expect(later.value).toContain('value="Bye"');
  });

  it('disappears: an element by path that goes away, and by query', async () => {
    const { engine, app, helper } = setup();
    const path = 'app("mousepad")/dialog["Unlock"]/button["OK"]';
    const byPath = start(engine, { condition: 'disappears', path });
    const byQuery = start(engine, { condition: 'disappears', app: 'mousepad', name: 'Unlock' });
    await vi.advanceTimersByTimeAsync(300);
    expect(byPath.settled || byQuery.settled).toBe(false);
    app.root.children = app.root.children?.filter((c) => c.id !== 'dlg');
    helper.emit(PID);
    await vi.advanceTimersByTimeAsync(0);
    // Gone is what was awaited: said so, not as the error a lookup of the path would give.
    expect(byPath.value).toContain(`The element at ${path} is gone.`);
    expect(byPath.value).not.toContain('No element at this path');
    expect(byQuery.value).toContain('no element on screen matches in "mousepad"');
  });

  it('disappears on a path that leads nowhere at the first look: met, and says it was never there (a typo reads so)', async () => {
    const { engine } = setup();
    const path = 'app("mousepad")/dialog["Unlock"]/button["Nope"]';
    const never = start(engine, { condition: 'disappears', path });
    await vi.advanceTimersByTimeAsync(0);
    expect(never.value).toContain(
      `The element at ${path} was not there when the wait began (No element at this path`,
    );
    expect(never.value).not.toContain('is gone');
  });

  it('a malformed path fails at once, whatever the condition: it can never name an element, nor be "not there"', async () => {
    const { engine } = setup();
    for (const condition of ['disappears', 'appears'] as const) {
      const malformed = start(engine, { condition, path: 'app("mousepad")/window[0' });
      await vi.advanceTimersByTimeAsync(0);
      expect(failure(malformed)).toMatch(/^Malformed path\.\nWhy: at character \d+: expected "\]"/);
    }
  });

  it('enabled, focused and window_title', async () => {
    const { engine, app, helper } = setup();
    const cancel = 'app("mousepad")/dialog["Unlock"]/button["Cancel"]';
    const enabled = start(engine, { condition: 'enabled', path: cancel });
    const focused = start(engine, { condition: 'focused', path: cancel });
    const titled = start(engine, { condition: 'window_title', app: 'mousepad', text: '*untitled' });
    await vi.advanceTimersByTimeAsync(300);
    expect(enabled.settled || focused.settled || titled.settled).toBe(false);
    byId(app.root, 'cancel').states = ['focused'];
    byId(app.root, 'win').name = '*Untitled 1 - Mousepad';
    helper.emit(PID);
    await vi.advanceTimersByTimeAsync(0);
    expect(enabled.value).toContain('- button "Cancel" [ref=e');
    expect(focused.value).toContain('button "Cancel" [ref=e');
    expect(titled.value).toContain('window "*Untitled 1 - Mousepad" [ref=e');
  });

  it('app_idle: done once the app has been quiet for idle_ms; an app that never stops times out', async () => {
    const { engine, helper } = setup();
    const idle = start(engine, { condition: 'app_idle', app: 'mousepad', idleMs: 100 });
    await vi.advanceTimersByTimeAsync(50);
    helper.emit(PID);
    await vi.advanceTimersByTimeAsync(99);
    expect(idle.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(idle.value).toContain('"mousepad" (pid 4242) is idle.');

    const busy = start(engine, { condition: 'app_idle', app: 'mousepad', idleMs: 100, timeoutMs: 500 });
    for (let i = 0; i < 30 && !busy.settled; i++) {
      helper.emit(PID);
      await vi.advanceTimersByTimeAsync(50);
    }
    expect(failure(busy)).toMatch(
      /^Timed out after .* waiting for "mousepad" to be idle for 100 ms\.\nWhy: last seen: it kept changing \(\d+ changes\)/,
    );
  });
});

describe('failures', () => {
  it('a timeout says what was awaited, what was last seen, and what to do', async () => {
    const { engine } = setup();
    const waiting = start(engine, {
      condition: 'text_appears',
      app: 'mousepad',
      text: 'Saved',
      timeoutMs: 700,
    });
    await vi.advanceTimersByTimeAsync(699);
    expect(waiting.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(failure(waiting)).toBe(
      'Timed out after 700 ms waiting for text "Saved" to appear in "mousepad".\n' +
        'Why: last seen: no element on screen matches in "mousepad"\n' +
        'Next: take a snapshot_ui (or find_elements) to see what the app shows now; or wait again with a larger timeout_ms (at most 60000)',
    );
  });

  it('a timeout of 0 looks once and says so, not that it timed out', async () => {
    const { engine } = setup();
    const waiting = start(engine, {
      condition: 'text_appears',
      app: 'mousepad',
      text: 'Saved',
      timeoutMs: 0,
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(failure(waiting)).toMatch(
      /^Not so when looked at once \(a timeout of 0 looks once; the look took \d+ ms\): waited for text "Saved" to appear in "mousepad"\.\n/,
    );
  });

  it('refuses at once what can never work: missing inputs, an unknown ref, a secure value', async () => {
    const { engine } = setup();
    const cases: [WaitOptions, RegExp][] = [
      [{ condition: 'value_equals', app: 'mousepad' }, /value_equals needs exactly one of ref or path/],
      [{ condition: 'appears', ref: 'e1', text: 'OK' }, /appears needs exactly one of ref, path, or a query/],
      [{ condition: 'enabled', ref: 'e999' }, /Unknown ref "e999"/],
      [{ condition: 'appears', app: 'mousepad', role: 'gizmo' }, /Unknown role "gizmo"/],
      [
        { condition: 'value_contains', path: 'app("mousepad")/dialog["Unlock"]/textbox', text: 'x' },
        /secure field/,
      ],
    ];
    for (const [options, message] of cases) {
      const waiting = start(engine, options);
      await vi.advanceTimersByTimeAsync(0);
      expect(failure(waiting)).toMatch(message);
      expect(failure(waiting)).not.toContain(SECRET);
    }
  });

  it('stops when the request is cancelled', async () => {
    const { engine } = setup();
    const abort = new AbortController();
    const waiting = start(
      engine,
      { condition: 'text_appears', app: 'mousepad', text: 'never' },
      abort.signal,
    );
    await vi.advanceTimersByTimeAsync(300);
    abort.abort();
    await vi.advanceTimersByTimeAsync(0);
    expect(failure(waiting)).toMatch(/cancelled/);
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type TextEngine, textEngine } from '../text-engine.js';
import { Observer } from '../../../../src/engine/kernel/observer.js';
import { ClientErrorCode, HelperError } from '../../../../src/helper-client/errors.js';
import { FakeHelper } from '../fake-helper.js';
import { byId, el, mousepad } from '../fixtures.js';
import { EventedHelper, track } from '../observer-fake.js';

const PID = 4242;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('subscribing', () => {
  it('starts events once, on first need, and again after every helper restart', async () => {
    const helper = new EventedHelper([]);
    const observer = new Observer(helper);
    helper.restart();
    expect(helper.starts).toBe(0);
    expect(await observer.available()).toBe(true);
    expect(await observer.available()).toBe(true);
    expect(helper.starts).toBe(1);
    helper.restart();
    expect(helper.starts).toBe(2);
    expect(await observer.available()).toBe(true);
  });

  it('reports events unavailable when the helper has none, or the port cannot listen', async () => {
    const helper = new EventedHelper([]);
    helper.eventsUnavailable = true;
    expect(await new Observer(helper).available()).toBe(false);
    expect(await new Observer(new FakeHelper([])).available()).toBe(false);
  });
});

describe('counting changes', () => {
  it('counts changes per app', () => {
    const helper = new EventedHelper([]);
    const observer = new Observer(helper);
    expect(observer.reportsChanges(PID)).toBe(false);
    const mark = observer.counter(PID);
    helper.emit(7);
    expect(observer.changedSince(PID, mark)).toBe(false);
    helper.emit(PID);
    expect(observer.changedSince(PID, mark)).toBe(true);
    expect(observer.changedSince(PID, observer.counter(PID))).toBe(false);
    expect(observer.reportsChanges(PID)).toBe(true);
  });
});

describe('waitForChange', () => {
  it("resolves on the app's next change, not another app's", async () => {
    const helper = new EventedHelper([]);
    const observer = new Observer(helper);
    const waiting = track(observer.waitForChange(PID, { sinceCounter: 0, timeoutMs: 1000 }));
    helper.emit(7);
    await vi.advanceTimersByTimeAsync(10);
    expect(waiting.settled).toBe(false);
    helper.emit(PID);
    await vi.advanceTimersByTimeAsync(0);
    expect(waiting).toMatchObject({ settled: true, value: true });
  });

  it('resolves at once for a change since the counter, false after the timeout', async () => {
    const helper = new EventedHelper([]);
    const observer = new Observer(helper);
    helper.emit(PID);
    expect(await observer.waitForChange(PID, { sinceCounter: 0, timeoutMs: 1000 })).toBe(true);
    const waiting = track(observer.waitForChange(PID, { sinceCounter: 1, timeoutMs: 100 }));
    await vi.advanceTimersByTimeAsync(99);
    expect(waiting.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(waiting).toMatchObject({ settled: true, value: false });
  });

  it('fails as cancelled when the request is aborted', async () => {
    const observer = new Observer(new EventedHelper([]));
    const abort = new AbortController();
    const waiting = track(
      observer.waitForChange(PID, { sinceCounter: 0, timeoutMs: 1000, signal: abort.signal }),
    );
    abort.abort();
    await vi.advanceTimersByTimeAsync(0);
    expect(waiting.error).toBeInstanceOf(HelperError);
    expect((waiting.error as HelperError).code).toBe(ClientErrorCode.Cancelled);
  });
});

describe('waitForQuiet', () => {
  it('resolves only once the app has gone quietMs without a change', async () => {
    const helper = new EventedHelper([]);
    const observer = new Observer(helper);
    helper.emit(PID);
    const waiting = track(observer.waitForQuiet(PID, { quietMs: 50, maxMs: 1000 }));
    for (let i = 0; i < 5; i++) {
      await vi.advanceTimersByTimeAsync(30);
      expect(waiting.settled).toBe(false);
      helper.emit(PID);
    }
    await vi.advanceTimersByTimeAsync(49);
    expect(waiting.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(waiting).toMatchObject({ settled: true, value: true });
  });

  it('is quiet at once for an app that never changed, and gives up at maxMs for one that never stops', async () => {
    const helper = new EventedHelper([]);
    const observer = new Observer(helper);
    expect(await observer.waitForQuiet(PID, { quietMs: 50, maxMs: 1000 })).toBe(true);
    helper.emit(PID);
    const waiting = track(observer.waitForQuiet(PID, { quietMs: 50, maxMs: 200 }));
    for (let i = 0; i < 10 && !waiting.settled; i++) {
      await vi.advanceTimersByTimeAsync(25);
      helper.emit(PID);
    }
    expect(waiting).toMatchObject({ settled: true, value: false });
  });
});

describe('the quiet window an app teaches', () => {
  it('grows to the pause an app showed after an answer, and decays with answers nothing followed', async () => {
    const helper = new EventedHelper([]);
    const observer = new Observer(helper);
    helper.emit(PID);
    expect(observer.quietWindow(PID, 20)).toBe(20);
    observer.answered(PID);
    await vi.advanceTimersByTimeAsync(80);
    helper.emit(PID); // the reaction went on 80 ms after the change the answer waited out
    expect(observer.quietWindow(PID, 20)).toBe(100);
    expect(observer.quietWindow(PID, 150)).toBe(150);
    observer.acting(PID);
    observer.answered(PID);
    observer.acting(PID); // nothing came after that answer
    expect(observer.quietWindow(PID, 20)).toBe(80);
  });

  it("learns nothing from the next action's own changes, nor from a change long after", async () => {
    const helper = new EventedHelper([]);
    const observer = new Observer(helper);
    helper.emit(PID);
    observer.answered(PID);
    await vi.advanceTimersByTimeAsync(60);
    observer.acting(PID);
    helper.emit(PID);
    expect(observer.quietWindow(PID, 20)).toBe(20);
    observer.answered(PID);
    await vi.advanceTimersByTimeAsync(1000);
    helper.emit(PID);
    expect(observer.quietWindow(PID, 20)).toBe(20);
  });

  it('is capped, and an app found busy on its own is given the floor from then on', async () => {
    const helper = new EventedHelper([]);
    const observer = new Observer(helper);
    helper.emit(PID);
    for (let i = 0; i < 3; i++) {
      observer.answered(PID);
      await vi.advanceTimersByTimeAsync(190);
      helper.emit(PID);
    }
    expect(observer.quietWindow(PID, 20)).toBe(200);
    observer.restless(PID);
    observer.answered(PID);
    await vi.advanceTimersByTimeAsync(100);
    helper.emit(PID);
    expect(observer.quietWindow(PID, 20)).toBe(20);
  });
});

describe('actions settle on change events', () => {
  function setup() {
    const app = { pid: PID, name: 'mousepad', active: true, root: mousepad() };
    const helper = new EventedHelper([app]);
    helper.actions.set('ok', ['click']);
    const engine = textEngine(helper);
    return { helper, engine, app };
  }

  /** Clicks OK (by path, so nothing is walked first); returns the answer and the helper calls after the click. */
  async function clickOk(helper: EventedHelper, engine: TextEngine) {
    const answer = engine.click({ path: 'app("mousepad")/dialog["Unlock"]/button["OK"]' });
    if (vi.isFakeTimers()) await vi.advanceTimersByTimeAsync(5_000);
    const text = await answer;
    const clicked = helper.calls.findIndex((c) => c.method === 'ax.perform');
    return { text, after: helper.calls.slice(clicked + 1).map((c) => c.method) };
  }

  it('walk once after the app has gone quiet, and the diff shows the change', async () => {
    const { helper, engine, app } = setup();
    helper.onPerform = () => {
      helper.emit(PID);
      setTimeout(() => {
        byId(app.root, 'lbl').name = 'Wrong password';
        helper.emit(PID);
      }, 15);
    };
    const { text, after } = await clickOk(helper, engine);
    expect(text).toContain('"Wrong password" [ref=');
    expect(after).toEqual(['ax.snapshot', 'ax.snapshot']);
  });

  it('waits longer for an app whose events added elements (a dialog filling in) before reading the tree after', async () => {
    const { helper, engine, app } = setup();
    helper.emit(PID);
    helper.onPerform = () => {
      helper.touch(PID, 'dlg', ['object:children-changed:add']);
      setTimeout(() => {
        byId(app.root, 'lbl').name = 'Wrong password';
        helper.touch(PID, 'lbl', ['object:property-change:accessible-name']);
      }, 35);
    };
    const { text } = await clickOk(helper, engine);
    expect(text).toContain('"Wrong password" [ref=');
  });

  it('an app whose reaction went on after an answer is waited for longer at the next action', async () => {
    const { helper, engine, app } = setup();
    helper.emit(PID);
    let clicks = 0;
    helper.onPerform = () => {
      clicks++;
      helper.touch(PID, 'lbl', ['object:property-change:accessible-name']);
      setTimeout(() => {
        byId(app.root, 'lbl').name = `Wrong password ${clicks}`;
        helper.touch(PID, 'lbl', ['object:property-change:accessible-name']);
      }, 60);
    };
    const first = await clickOk(helper, engine);
    expect(first.text).not.toContain('Wrong password 1');
    const second = await clickOk(helper, engine);
    expect(second.text).toContain('"Wrong password 2" [ref=');
  });

  it('an app that reports changes but sent none after the action did not change: no walk after it', async () => {
    const { helper, engine } = setup();
    helper.emit(PID);
    const { text, after } = await clickOk(helper, engine);
    expect(text).toContain('Nothing changed');
    expect(after).toEqual([]);
  });

  it('a click on a menu, which surely opens or closes it, waits up to settleMs for its late event, and walks when none came', async () => {
    const { helper, engine, app } = setup();
    helper.emit(PID);
    helper.actions.set('menu-file', ['click']);
    const file = byId(app.root, 'menu-file');
    helper.onPerform = () => {
      setTimeout(() => {
        file.states = ['expanded'];
        helper.touch(PID, 'menu-file', ['object:state-changed:expanded']);
      }, 600);
    };
    const answer = engine.click({
      path: 'app("mousepad")/window["Untitled 1 - Mousepad"]/menubar/menu["File"]',
    });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(await answer).toMatch(/^~ menu "File" \[ref=e\d+\] expanded/m);
    // No event at all (the app's events lost): the app is walked again rather than trusted.
    helper.onPerform = () => {
      file.states = ['collapsed'];
    };
    const again = engine.click({
      path: 'app("mousepad")/window["Untitled 1 - Mousepad"]/menubar/menu["File"]',
    });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(await again).toMatch(/^~ menu "File" \[ref=e\d+\].*\(was: expanded\)/m);
  });

  it('after an action, reads again only the elements its events touched, when they changed only themselves', async () => {
    const { helper, engine, app } = setup();
    helper.emit(PID);
    helper.onPerform = () => {
      byId(app.root, 'lbl').name = 'Wrong password';
      byId(app.root, 'cancel').states = [];
      helper.touch(PID, 'lbl', ['object:property-change:accessible-name']);
      helper.touch(PID, 'cancel', ['object:state-changed:enabled', 'object:state-changed:sensitive']);
      // An element of another window, which the diff does not show, changed only itself.
      helper.touch(PID, 'mi-undo', ['object:state-changed:enabled']);
    };
    const { text, after } = await clickOk(helper, engine);
    expect(text).toContain('"Wrong password" [ref=');
    expect(text).toMatch(/~ button "Cancel" \[ref=e\d+\] \(was: disabled\)/);
    expect(after).toEqual(['ax.snapshot', 'ax.snapshot']);
    const reads = helper.calls.filter((c) => c.method === 'ax.snapshot').slice(-2);
    expect(reads.map((c) => c.params)).toEqual([
      expect.objectContaining({ root: 'lbl', depth: 0 }),
      expect.objectContaining({ root: 'cancel', depth: 0 }),
    ]);
  });

  it('walks the app again when an event may have moved elements, or the events did not tell everything', async () => {
    const cases: [string, (helper: EventedHelper) => void][] = [
      ['a child added', (helper) => helper.touch(PID, 'dlg', ['object:children-changed:add'])],
      ['an element shown', (helper) => helper.touch(PID, 'lbl', ['object:state-changed:showing'])],
      ['a window event', (helper) => helper.touch(PID, 'dlg', ['window:activate'])],
      ['no elements named', (helper) => helper.emit(PID, ['object:state-changed:focused'])],
      // A child appeared, and the only event was about its parent's name: its child count tells.
      [
        'an unannounced child',
        (helper) => helper.touch(PID, 'dlg', ['object:property-change:accessible-name']),
      ],
    ];
    for (const [what, announce] of cases) {
      const { helper, engine, app } = setup();
      helper.emit(PID);
      helper.onPerform = () => {
        const dialog = byId(app.root, 'dlg');
        dialog.children?.push(el('label', 'Caps Lock is on', { id: 'caps' }));
        dialog.childCount++;
        announce(helper);
      };
      const { text, after } = await clickOk(helper, engine);
      expect(text, what).toContain('+ text "Caps Lock is on"');
      expect(after.every((method) => method === 'ax.snapshot')).toBe(true);
      const walked = helper.calls.filter((c) => c.method === 'ax.snapshot').slice(-2);
      expect(
        walked.map((c) => c.params),
        what,
      ).toEqual([
        expect.objectContaining({ root: 'app', depth: 1 }),
        expect.objectContaining({ root: 'dlg', depth: 20 }),
      ]);
    }
  });

  it('polls an app that never reported a change, and without events at all', async () => {
    vi.useRealTimers(); // polling sleeps with node:timers/promises
    for (const unavailable of [false, true]) {
      const { helper, engine, app } = setup();
      helper.eventsUnavailable = unavailable;
      helper.onPerform = () => {
        byId(app.root, 'lbl').name = 'Wrong password';
      };
      const { text, after } = await clickOk(helper, engine);
      expect(text).toContain('"Wrong password" [ref=');
      expect(after.length).toBeGreaterThanOrEqual(4);
    }
  });
});

describe('the tree that ended an action stands in for the walk before the next one only while provably current', () => {
  const OTHER = 777;

  function setup() {
    const app = { pid: PID, name: 'mousepad', active: true, root: mousepad() };
    const helper = new EventedHelper([app]);
    helper.actions.set('ok', ['click']);
    return { helper, engine: textEngine(helper), app };
  }

  /** Clicks OK by ref, runs `between`, clicks it again: the helper methods the second click called before pressing. */
  async function secondClick(between: (helper: EventedHelper) => void, reportsChanges = true) {
    const { helper, engine } = setup();
    if (reportsChanges) helper.emit(PID);
    const snapshot = await engine.snapshot({ app: 'mousepad' });
    const ref = /button "OK" \[ref=(e\d+)\]/.exec(snapshot)?.[1] ?? '';
    const click = async () => {
      const answer = engine.click({ ref });
      if (vi.isFakeTimers()) await vi.advanceTimersByTimeAsync(5_000);
      return answer;
    };
    await click();
    between(helper);
    const from = helper.calls.length;
    const text = await click();
    const methods = helper.calls.slice(from).map((c) => c.method);
    return { text, before: methods.slice(0, methods.indexOf('ax.perform')) };
  }

  it('stands in when nothing was reported since: no walk, no app listing, no ancestors before the press', async () => {
    const { before, text } = await secondClick(() => {});
    expect(before).toEqual(['ax.element']);
    expect(text).toContain('Nothing changed');
  });

  it('does not after a change in the app, a window event or a new app anywhere, a helper restart, or 10 s', async () => {
    const cases: [string, (helper: EventedHelper) => void][] = [
      [
        'a change in the app',
        (helper) => helper.touch(PID, 'lbl', ['object:property-change:accessible-name']),
      ],
      ['a window opened by another app', (helper) => helper.touch(OTHER, 'other-win', ['window:create'])],
      [
        'an app not heard from before',
        (helper) => helper.touch(OTHER, 'x', ['object:state-changed:focused']),
      ],
      ['a helper restart', (helper) => helper.restart()],
      ['time', () => vi.advanceTimersByTime(11_000)],
    ];
    for (const [what, between] of cases) {
      const { before } = await secondClick(between);
      expect(before, what).toContain('ax.snapshot');
    }
  });

  it('never stands in for an app that has sent no event', async () => {
    vi.useRealTimers(); // polling sleeps with node:timers/promises
    const { before } = await secondClick(() => {}, false);
    expect(before).toContain('ax.snapshot');
  });
});

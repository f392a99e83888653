/**
 * An app with no accessibility tree, read through the engine: its window's text (OCR) stands in for the tree in
 * the snapshot's header and the app's state; an app with a tree is never read by OCR; an OCR failure fails
 * neither read.
 */
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../../../src/engine/index.js';
import { appStateJson } from '../../../../src/engine/render/state.js';
import { renderText } from '../../../../src/engine/render/text.js';
import type { TextRecognizer } from '../../../../src/engine/reading/text-recognizer.js';
import type { RecognizedLine } from '../../../../src/helper-client/protocol.js';
import { FakeHelper } from '../fake-helper.js';
import { el, runningApps } from '../fixtures.js';

/** A recognizer that answers these lines (boxes in image pixels) and counts its calls; `fail` makes it throw. */
function fakeRecognizer(texts: string[]) {
  const recognizer = {
    calls: 0,
    fail: false,
    async recognize(): Promise<RecognizedLine[]> {
      recognizer.calls++;
      if (recognizer.fail) throw new Error('the OCR worker died');
      return texts.map((text, i) => {
        const bounds = { x: 20, y: 20 + 40 * i, width: 16 * text.length, height: 24 };
        return { text, bounds, confidence: 0.95, words: [{ text, bounds, confidence: 0.95 }] };
      });
    },
    close: async () => {},
  };
  return recognizer satisfies TextRecognizer;
}

/** A canvas-drawn app: its accessibility tree is the app alone; its window manager window is on screen. */
function blankApp() {
  const helper = new FakeHelper([
    {
      pid: 321,
      name: 'painter',
      active: true,
      root: el('application', 'painter', { id: 'painter', pid: 321 }),
    },
  ]);
  const bounds = { x: 100, y: 200, width: 300, height: 150 };
  helper.windows = [
    { id: '0x51', pid: 321, app: 'painter', title: 'Delete', bounds, minimized: false, focused: true },
  ];
  return helper;
}

describe('patterns from the screen where the tree is empty', () => {
  it('a confirmation drawn without accessibility: in the snapshot header and the state, steps by its words', async () => {
    const helper = blankApp();
    const recognizer = fakeRecognizer(['Delete file?', 'Cancel', 'Delete']);
    const engine = createEngine(helper, { recognizer });

    const snapshot = await engine.elements.snapshot({ app: 'painter' });
    expect(renderText(snapshot).split('\n')[1]).toBe(
      'UI: confirmation_dialog (confirm "Delete" at 134,256, cancel "Cancel" at 134,236); state: modal_dialog',
    );
    // The words are where OCR saw them, in screen points (the window's origin plus pixels / 2); the click goes to
    // their centre.
    const confirm = snapshot.ui.patterns[0]?.steps[0];
    expect(confirm).toMatchObject({ tool: 'click', words: { text: 'Delete' }, point: { x: 134, y: 256 } });
    expect(confirm?.words?.bounds).toEqual({ x: 110, y: 250, width: 48, height: 12 });
    // The capture was of the app's window, found by pid.
    expect(helper.calls.filter((c) => c.method === 'screen.capture').map((c) => c.params)).toEqual([
      { target: { window: '0x51' }, format: 'png', quality: 100, maxLongEdge: expect.any(Number) },
    ]);

    const state = appStateJson(await engine.states.of('painter'));
    expect(state).toMatchObject({
      detected_state: 'modal_dialog',
      state_reason: 'the screen shows a confirmation "Delete file?" with the buttons "Delete" and "Cancel"',
      detected_patterns: [
        {
          pattern: 'confirmation_dialog',
          at: { role: 'application', name: 'painter' },
          suggestions: [
            { part: 'confirm', tool: 'click', text: 'Delete', point: { x: 134, y: 256 } },
            { part: 'cancel', tool: 'click', text: 'Cancel', point: { x: 134, y: 236 } },
          ],
        },
      ],
    });
    expect(recognizer.calls).toBe(2);
  });

  it('an error alert drawn without accessibility puts the app in the error state', async () => {
    const engine = createEngine(blankApp(), {
      recognizer: fakeRecognizer(['Could not open the file', 'OK']),
    });
    const state = await engine.states.of('painter');
    expect(state.ui.state).toBe('error');
    expect(state.ui.patterns.map((p) => p.pattern)).toEqual(['error_alert']);
    expect(renderText(await engine.elements.snapshot({ app: 'painter' }))).toContain(
      'UI: error_alert (dismiss "OK" at 118,236); state: error',
    );
  });

  it('an OCR failure fails neither the snapshot nor the state: no patterns, and the reason says so', async () => {
    const recognizer = fakeRecognizer(['Delete file?', 'Cancel', 'Delete']);
    recognizer.fail = true;
    const engine = createEngine(blankApp(), { recognizer });
    const snapshot = await engine.elements.snapshot({ app: 'painter' });
    expect(snapshot.ui.patterns).toEqual([]);
    // Nothing recognised and nothing claimed: the header has no UI line.
    expect(renderText(snapshot)).not.toContain('UI');
    const state = await engine.states.of('painter');
    expect(state.ui).toMatchObject({ patterns: [] });
    expect(state.ui.because).toMatch(
      /^the app shows no accessibility tree and the text in its window could not be read \(.*the OCR worker died/,
    );
    expect(recognizer.calls).toBe(2);
  });

  it('an app with a tree is read from its tree: the recognizer is never called, nothing is captured', async () => {
    const { app: mousepad } = runningApps();
    const helper = new FakeHelper([mousepad]);
    // Its window could be captured and read: only the tree keeps OCR away.
    const bounds = { x: 0, y: 0, width: 640, height: 480 };
    helper.windows = [
      { id: '0x61', pid: 4242, app: 'mousepad', title: 'Unlock', bounds, minimized: false, focused: true },
    ];
    const recognizer = fakeRecognizer(['Connection failed', 'OK']);
    const engine = createEngine(helper, { recognizer });
    expect((await engine.elements.snapshot({ app: 'mousepad' })).ui.state).toBe('auth_required');
    expect((await engine.states.of('mousepad')).ui.state).toBe('auth_required');
    // An element with nothing below it is no blank app either.
    const snapshot = await engine.elements.snapshot({ app: 'mousepad' });
    const leaf = renderText(snapshot).match(/button "OK" \[ref=(e\d+)\]/)?.[1];
    expect(leaf).toBeDefined();
    await engine.elements.snapshot({ ref: leaf });
    expect(recognizer.calls).toBe(0);
    expect(helper.calls.some((c) => c.method === 'screen.capture')).toBe(false);
  });
});

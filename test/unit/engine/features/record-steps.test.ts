/** Recorded presses folded into run_workflow steps, on made-up sequences. */
import { expect, test } from 'vitest';
import { chordOf, foldSteps, type RecordedEvent } from '../../../../src/engine/features/record-steps.js';

type Press = Extract<RecordedEvent, { kind: 'press' }>;

const FIELD = 'app("gtk3-demo")/window[1]/textbox["Search"]';
const BUTTON = 'app("gtk3-demo")/window[1]/button["Find"]';
let clock = 1_000;

const press = (target?: { path: string; editable?: boolean }, at = { x: 10, y: 20 }, gap = 1_000): Press => ({
  kind: 'press',
  button: 'left',
  at,
  modifiers: [],
  time: (clock += gap),
  ...(target ? { target: { app: 'gtk3-demo', ...target } } : {}),
});
const release = (at = { x: 10, y: 20 }): RecordedEvent => ({
  kind: 'release',
  button: 'left',
  at,
  time: clock + 50,
});
const click = (target?: { path: string; editable?: boolean }, at = { x: 10, y: 20 }, gap = 1_000) => [
  press(target, at, gap),
  release(at),
];
/** Each character as the helper sends it: its key (when named) and the text it types. */
const typing = (text: string): RecordedEvent[] =>
  Array.from(text).map((c) => ({
    kind: 'key',
    text: c,
    modifiers: c === c.toUpperCase() && c !== c.toLowerCase() ? ['shift'] : [],
    time: (clock += 30),
    ...(/[a-z0-9]/i.test(c) ? { key: c.toLowerCase() } : c === ' ' ? { key: 'space' } : {}),
  }));
const key = (name: string, modifiers: ('control' | 'shift' | 'option')[] = []): RecordedEvent => ({
  kind: 'key',
  key: name,
  modifiers,
  time: (clock += 30),
});

test('the demonstration: a click into the field, typing with a typo taken back, Enter', () => {
  const events = [
    ...click({ path: FIELD, editable: true }),
    ...typing('Hello wurld'),
    key('backspace'),
    key('backspace'),
    key('backspace'),
    key('backspace'),
    ...typing('orld'),
    key('enter'),
  ];
  expect(foldSteps(events)).toEqual({
    steps: [
      { tool: 'focus_element', args: { path: FIELD } },
      { tool: 'type_text', args: { text: 'Hello world' } },
      { tool: 'press_key', args: { key: 'enter' } },
    ],
    leftOut: {},
  });
});

test('clicks: by path on an element, at the point where none is, with button, count and modifiers', () => {
  const right: RecordedEvent = { ...press({ path: BUTTON }), button: 'right', modifiers: ['shift'] };
  const events = [
    ...click({ path: BUTTON }),
    ...click(undefined, { x: 300.4, y: 41.6 }),
    right,
    { kind: 'release', button: 'right', at: { x: 10, y: 20 }, time: clock + 40 } as RecordedEvent,
    // A click into a field holding Control is not a plain focus: it stays a click.
    { ...press({ path: FIELD, editable: true }), modifiers: ['control'] } as Press,
  ];
  expect(foldSteps(events).steps).toEqual([
    { tool: 'click_element', args: { path: BUTTON } },
    { tool: 'click', args: { x: 300, y: 42 } },
    { tool: 'click_element', args: { path: BUTTON, button: 'right', modifiers: ['shift'] } },
    { tool: 'click_element', args: { path: FIELD, modifiers: ['control'] } },
  ]);
});

test('two quick presses on one spot are a double click; slow or apart they are two clicks', () => {
  const quick = [...click({ path: BUTTON }), ...click({ path: BUTTON }, { x: 11, y: 21 }, 200)];
  expect(foldSteps(quick).steps).toEqual([{ tool: 'click_element', args: { path: BUTTON, count: 2 } }]);
  const triple = [...quick, ...click({ path: BUTTON }, { x: 10, y: 20 }, 200)];
  expect(foldSteps(triple).steps).toEqual([{ tool: 'click_element', args: { path: BUTTON, count: 3 } }]);
  const slow = [...click({ path: BUTTON }), ...click({ path: BUTTON }, { x: 10, y: 20 }, 900)];
  expect(foldSteps(slow).steps).toHaveLength(2);
  const apart = [...click({ path: BUTTON }), ...click({ path: BUTTON }, { x: 60, y: 20 }, 100)];
  expect(foldSteps(apart).steps).toHaveLength(2);
});

test('a release far from its press is a drag between the two points', () => {
  const events = [press({ path: BUTTON }, { x: 10, y: 20 }), release({ x: 210, y: 20 })];
  expect(foldSteps(events).steps).toEqual([
    { tool: 'drag', args: { from: { x: 10, y: 20 }, to: { x: 210, y: 20 } } },
  ]);
});

test('keys: shortcuts and named keys are press_key chords, the same key again a repeat; typing breaks at them', () => {
  const events = [
    ...typing('ab'),
    key('tab'),
    ...typing('C'),
    key('s', ['control']),
    key('s', ['control', 'shift']),
    key('down'),
    key('down'),
    key('down'),
    // Backspace with nothing typed since the last step is a key of its own.
    key('backspace'),
    key('backspace'),
  ];
  expect(foldSteps(events).steps).toEqual([
    { tool: 'type_text', args: { text: 'ab' } },
    { tool: 'press_key', args: { key: 'tab' } },
    { tool: 'type_text', args: { text: 'C' } },
    { tool: 'press_key', args: { key: 'ctrl+s' } },
    { tool: 'press_key', args: { key: 'ctrl+shift+s' } },
    { tool: 'press_key', args: { key: 'down', repeat: 3 } },
    { tool: 'press_key', args: { key: 'backspace', repeat: 2 } },
  ]);
  expect(chordOf('z', ['command', 'option'])).toBe('cmd+alt+z');
});

test('characters of keys macpilot has no name for still type; other unnamed keys are counted as left out', () => {
  const events: RecordedEvent[] = [
    { kind: 'key', text: 'é', modifiers: [], time: 1 },
    { kind: 'key', text: '€', modifiers: ['shift'], time: 2 },
    { kind: 'key', modifiers: [], time: 3 },
  ];
  expect(foldSteps(events)).toEqual({
    steps: [{ tool: 'type_text', args: { text: 'é€' } }],
    leftOut: { 'of keys macpilot has no name for': 1 },
  });
});

test('menu bar picks are click_menu_item; the clicks that only opened menus make no step', () => {
  const menu = (names: string[], opensMenu: boolean): RecordedEvent => ({
    ...press(),
    target: { app: 'Mousepad', path: `app("Mousepad")/…/${names.at(-1)}`, menu: { names, opensMenu } },
  });
  const events = [menu(['File'], true), release(), menu(['File', 'Save As…'], false), release()];
  expect(foldSteps(events).steps).toEqual([
    { tool: 'click_menu_item', args: { app: 'Mousepad', path: 'File > Save As…' } },
  ]);
});

test('left-out presses make no step, are counted by why, and end the typing around them', () => {
  const denied = 'in an app this server may not use';
  const secret: RecordedEvent[] = typing('hunter2').map((e) => ({
    ...e,
    leftOut: 'typed into a password field',
  }));
  const events = [
    ...typing('one'),
    { ...press({ path: BUTTON }), leftOut: denied },
    release(),
    ...secret,
    ...typing('two'),
  ];
  expect(foldSteps(events)).toEqual({
    steps: [
      { tool: 'type_text', args: { text: 'one' } },
      { tool: 'type_text', args: { text: 'two' } },
    ],
    leftOut: { [denied]: 1, 'typed into a password field': 7 },
  });
  expect(JSON.stringify(foldSteps(events))).not.toContain('hunter2');
});

test('nothing recorded: no steps', () => {
  expect(foldSteps([])).toEqual({ steps: [], leftOut: {} });
});

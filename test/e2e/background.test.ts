/**
 * Background input: with a person's window focused and the pointer parked, an agent fills a field and presses a
 * button in another app through the accessibility layer; the focused window and the pointer are where they were
 * (as xdotool reads them). What would need the pointer or the focus is refused, saying why.
 */
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { type Macpilot, startMacpilot, useMacpilot } from '../support/mcp.js';
import { zenityEntry } from '../support/zenity.js';
import { eventually, refOf } from '../support/text.js';

const env = inject('desktopEnv');
const { macpilot, processes, start } = useMacpilot(env);
/** A second server whose every call keeps to the background (MACPILOT_INPUT). */
let background: Macpilot;
beforeAll(async () => {
  background = await startMacpilot({ ...env, MACPILOT_INPUT: 'background' });
});
afterAll(async () => {
  await background?.close();
});

const xdotool = (...args: string[]) =>
  execFileSync('xdotool', args, { env, encoding: 'utf8', timeout: 5000 }).trim();
/** The focused X window and the pointer position, as the person's desk has them. */
const desk = () => ({ focus: xdotool('getwindowfocus'), pointer: xdotool('getmouselocation', '--shell') });

/** A zenity entry and its OK button, as this server names them. */
async function entryWithOk(title: string) {
  const { zenity, field } = await zenityEntry(macpilot, processes, title);
  const ok = refOf(
    await macpilot.ok('find_elements', {
      app: String(zenity.pid),
      role: 'button',
      name: 'OK',
      match: 'exact',
    }),
    /"OK"/,
  );
  return { zenity, field, ok };
}

/** The person's own window: a gtk3-demo started once for the file, found by its pid. */
let persons: string | undefined;
async function theirWindow(): Promise<string> {
  const pid = await start('gtk3-demo', 'gtk3-demo');
  return eventually(
    'gtk3-demo window',
    async () => xdotool('search', '--onlyvisible', '--pid', String(pid)).split('\n')[0] || undefined,
  );
}

/** The person's own window in front, focused, with the pointer parked over it. */
async function personAtTheirWindow(): Promise<ReturnType<typeof desk>> {
  persons ??= await theirWindow();
  const window = persons;
  xdotool('windowactivate', window);
  xdotool('mousemove', '400', '300');
  return eventually('the person at their window', async () => {
    const now = desk();
    return now.focus === window && now.pointer.startsWith('X=400\nY=300\n') ? now : undefined;
  });
}

test('an agent fills a field and presses OK in a background app: focus and pointer stay with the person', async () => {
  const { zenity, field, ok } = await entryWithOk('macpilot background');
  const before = await personAtTheirWindow();

  const typed = await macpilot.ok('type_text', {
    ref: field,
    text: 'Grace Hopper',
    clear_first: true,
    background: true,
  });
  expect(typed).toContain('macpilot moved neither the pointer nor the keyboard focus');
  const added = await macpilot.ok('type_text', { ref: field, text: ', 1906', background: true });
  expect(added).toContain('Added 6 characters to');
  expect(desk()).toEqual(before);

  const clicked = await macpilot.ok('click_element', { ref: ok, background: true });
  expect(clicked).toContain('macpilot moved neither the pointer nor the keyboard focus');
  expect(await zenity.exited).toBe(0);
  expect(zenity.stdout()).toBe('Grace Hopper, 1906\n');
  expect(desk()).toEqual(before);
});

test('what needs the pointer or the focus is refused in the background, saying why and what to do', async () => {
  const { zenity, field } = await entryWithOk('macpilot refusals');
  const before = await personAtTheirWindow();
  for (const [name, args, why] of [
    ['press_key', { key: 'enter', background: true }, 'keys go where the keyboard focus is'],
    [
      'type_text',
      { ref: field, text: 'x', submit: true, background: true },
      'the Enter pressed after the text goes where the keyboard focus is',
    ],
  ] as const) {
    const refused = await macpilot.call(name, args);
    expect(refused.isError, name).toBe(true);
    expect(refused.text).toContain(
      'Not done: background input leaves the pointer and the keyboard focus to the person',
    );
    expect(refused.text).toContain(`${why}, and the call asked for background: true`);
  }
  // The server's setting: a click at a point would take the pointer.
  const point = await background.call('click', { x: 400, y: 300 });
  expect(point.isError).toBe(true);
  expect(point.text).toContain(
    'a synthetic click moves the pointer to its point, and the environment variable MACPILOT_INPUT is "background"',
  );
  // Acting through the element still works under the setting.
  const own = refOf(
    await background.ok('find_elements', { app: String(zenity.pid), role: 'textbox' }),
    /textbox/,
  );
  const value = await background.ok('set_value', { ref: own, value: 'still works' });
  expect(value).toContain('moved neither the pointer nor the keyboard focus');
  expect(desk()).toEqual(before);
  await processes.stop(zenity.pid);
});

test('a background click after which the app takes the keyboard focus itself (a menu it pops up) says so', async () => {
  const pid = await start('mousepad', 'mousepad');
  // After mousepad is up: a window that maps takes the focus, and the person's must have it when the agent clicks.
  await personAtTheirWindow();
  const help = refOf(
    await macpilot.ok('find_elements', { app: String(pid), role: 'menu', name: 'Help', match: 'exact' }),
    /"Help"/,
  );
  const clicked = await macpilot.ok('click_element', { ref: help, background: true });
  expect(clicked).toContain('macpilot moved neither the pointer nor the keyboard focus');
  expect(clicked).toContain('The app then took the keyboard itself');
  await processes.stop(pid);
});

test('a background click that opens a GTK modal dialog leaves the app readable: the dialog is read, filled and confirmed', async () => {
  const { pid } = processes.start('gtk3-demo', ['--run', 'dialog']);
  const app = String(pid);
  const opener = refOf(
    await eventually('the Interactive Dialog button', async () => {
      const found = await macpilot.call('find_elements', { app, role: 'button', name: 'Interactive Dialog' });
      return !found.isError && found.text.startsWith('1 match') ? found.text : undefined;
    }),
    /"Interactive Dialog"/,
  );
  const before = await personAtTheirWindow();
  // GTK runs the dialog's loop inside its handling of the action: the app must still answer everything else.
  const opened = await macpilot.ok('click_element', { ref: opener, background: true });
  expect(opened).toContain('macpilot moved neither the pointer nor the keyboard focus');
  expect(opened).toMatch(/opened: dialog "Interactive Dialog"/);
  expect(opened).toContain("a key the app receives (an agent's or the person's) hangs it for good");
  const dialog = refOf(opened, /opened: dialog "Interactive Dialog"/);
  // A key into the dialog would hang the app for good (GTK's accessibility bridge waits on itself): refused.
  await macpilot.ok('focus_window', { app, title: 'Interactive Dialog' });
  const key = await macpilot.call('press_key', { key: 'escape' });
  expect(key.isError).toBe(true);
  expect(key.text).toContain(`Not done: a key now would hang gtk3-demo (pid ${pid})`);
  const field = refOf(
    await macpilot.ok('find_elements', {
      app,
      within: dialog,
      role: 'textbox',
      name: 'Entry 1',
      match: 'exact',
    }),
    /"Entry 1"/,
  );
  await macpilot.ok('set_value', { ref: field, value: 'from the dialog' });
  const ok = refOf(
    await macpilot.ok('find_elements', { app, within: dialog, role: 'button', name: 'OK', match: 'exact' }),
    /"OK"/,
  );
  const confirmed = await macpilot.ok('click_element', { ref: ok, background: true });
  expect(confirmed).toMatch(/closed: dialog "Interactive Dialog"/);
  // The demo copies the dialog's entry into its window's own once the dialog's loop returned.
  const entries = await macpilot.ok('find_elements', {
    app,
    role: 'textbox',
    name: 'Entry 1',
    match: 'exact',
  });
  expect(entries).toMatch(/^1 match/);
  expect(entries).toContain('value="from the dialog"');
  // Closed, the dialog holds keys back no more.
  await macpilot.ok('focus_window', { app, title: 'Dialogs and Message Boxes' });
  expect(await macpilot.ok('press_key', { key: 'tab' })).toContain('Pressed tab.');
  expect(desk().pointer).toBe(before.pointer);
  await processes.stop(pid);
});

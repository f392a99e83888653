/**
 * gnome-calculator (GTK4): compute 7 × 6 by clicking refs found by name; the display shows the result. Buttons
 * that GTK leaves unnamed (π, x²) take the name of their label, and labels that repeat their button get no line.
 */
import { beforeAll, expect, inject, test } from 'vitest';
import { useMacpilot } from '../support/mcp.js';
import { eventually, refOf } from '../support/text.js';

const { macpilot, launch } = useMacpilot(inject('desktopEnv'));

beforeAll(async () => {
  await launch('Calculator', { timeout_ms: 30_000 });
});

const app = 'gnome-calculator';

test('the keypad shows GTK4 buttons by their labels, not doubled names or widget types', async () => {
  const tree = await eventually('the keypad', async () => {
    const out = await macpilot.call('snapshot_ui', { app });
    return !out.isError && out.text.includes('button "7"') ? out.text : undefined;
  });
  expect(tree).toMatch(/- button "×" \[ref=e\d+\]/);
  expect(tree).not.toContain('"7 7"');
  expect(tree).not.toContain('GtkButton');
  // depth counts the levels shown, not the unnamed wrappers the walk goes through: 3 reach the keypad.
  expect(await macpilot.ok('snapshot_ui', { app, depth: 3 })).toMatch(/- button "7" \[ref=e\d+\]/);
  // The name it was launched by (its launcher's, the end of its id org.gnome.Calculator) names it too.
  expect(await macpilot.ok('snapshot_ui', { app: 'Calculator', depth: 1 })).toContain('"gnome-calculator"');
});

test('clicking 7 × 6 = by ref puts 42 on the display', async () => {
  for (const label of ['7', '×', '6', '=']) {
    const found = await macpilot.ok('find_elements', { app, role: 'button', name: label, match: 'exact' });
    const ref = refOf(found, new RegExp(`button "${label}"`));
    const clicked = await macpilot.ok('click_element', { ref });
    expect(clicked).toContain(`button "${label}" [ref=${ref}]`);
  }
  const display = await eventually('42 on the display', async () => {
    const out = await macpilot.ok('find_elements', { app, role: 'textbox', value: '42', match: 'exact' });
    return /\[ref=e\d+\]/.test(out) ? out : undefined;
  });
  expect(display).toContain('value="42"');
});

test('focus_element moves GTK4 focus without pressing anything; typing then goes where it moved', async () => {
  const display = async () =>
    await macpilot.ok('find_elements', { app, role: 'textbox', value: '42', match: 'exact' });
  const input = refOf(await display(), /textbox/);
  const seven = refOf(
    await macpilot.ok('find_elements', { app, role: 'button', name: '7', match: 'exact' }),
    /button "7"/,
  );

  await macpilot.ok('focus_element', { ref: seven });
  expect(await macpilot.ok('get_focused_element', { app })).toMatch(/^- button "7" \[ref=e\d+\] focused/);
  // A click would have pressed it: the display would read 427.
  expect(await display()).toContain(`[ref=${input}]`);

  await macpilot.ok('focus_element', { ref: input });
  expect(await macpilot.ok('get_focused_element', { app })).toMatch(
    new RegExp(`^- textbox \\[ref=${input}\\] focused`),
  );
  await macpilot.ok('type_text', { text: '+1' });
  await eventually('42+1 in the field that has focus', async () => {
    const out = await macpilot.ok('find_elements', { app, role: 'textbox', value: '42+1', match: 'exact' });
    return out.includes(`[ref=${input}]`) ? true : undefined;
  });
});

interface Line {
  indent: number;
  role: string;
  name: string | undefined;
  parent: Line | undefined;
}

/** A snapshot's element lines, each with the line it sits under. */
function lines(snapshot: string): Line[] {
  const out: Line[] = [];
  const open: Line[] = [];
  for (const text of snapshot.split('\n')) {
    const m = /^( *)- (\w+)(?: ("(?:[^"\\]|\\.)*"))? \[ref=/.exec(text);
    if (!m) continue;
    const indent = (m[1] as string).length;
    while (open.length > 0 && (open.at(-1) as Line).indent >= indent) open.pop();
    const name = m[3] === undefined ? undefined : (JSON.parse(m[3]) as string);
    const line = { indent, role: m[2] as string, name, parent: open.at(-1) };
    out.push(line);
    open.push(line);
  }
  return out;
}

test('no button is left unnamed when its label has text, and no label repeats its button', async () => {
  const tree = await macpilot.ok('snapshot_ui', { app });
  const all = lines(tree);
  expect(all.length).toBeGreaterThan(20);
  const labelled = all.filter((l) => l.role === 'text' && l.name && l.parent?.role === 'button');
  expect(labelled.filter((l) => l.parent?.name === undefined).map((l) => l.name)).toEqual([]);
  expect(labelled.filter((l) => l.parent?.name === l.name).map((l) => l.name)).toEqual([]);
  expect(tree).toMatch(/- button "π" \[ref=e\d+\]\n/);
});

test('π is clicked by its name and by its path; its folded label still has a path', async () => {
  const clear = await macpilot.ok('find_elements', { app, role: 'button', text: 'Clear Display' });
  await macpilot.ok('click_element', { ref: refOf(clear, /button/) });
  const found = await macpilot.ok('find_elements', { app, role: 'button', name: 'π', match: 'exact' });
  const ref = refOf(found, /button "π"/);
  expect(await macpilot.ok('click_element', { ref })).toContain(`button "π" [ref=${ref}]`);
  const times = await macpilot.ok('find_elements', { app, role: 'button', name: '×', match: 'exact' });
  await macpilot.ok('click_element', { ref: refOf(times, /button "×"/) });
  const path = /path: (.*)/.exec(await macpilot.ok('get_element', { ref }))?.[1] ?? '';
  expect(path).toBe('app("gnome-calculator")/window[0]/button["π"]');
  expect(await macpilot.ok('click_element', { path })).toContain(`button "π" [ref=${ref}]`);
  const label = await macpilot.ok('get_element', { path: `${path}/text` });
  expect(label).toContain('role: text');
  expect(label).toContain('name: "π"');
  const equals = await macpilot.ok('find_elements', { app, role: 'button', name: '=', match: 'exact' });
  await macpilot.ok('click_element', { ref: refOf(equals, /button "="/) });
  // π × π = 9.8696…: both clicks reached π.
  const display = await eventually('π² on the display', async () => {
    const out = await macpilot.ok('find_elements', {
      app,
      role: 'textbox',
      value: '^9\\.869',
      match: 'regex',
    });
    return /\[ref=e\d+\]/.test(out) ? out : undefined;
  });
  expect(display).toMatch(/value="9\.869/);
});

test('type_text with submit waits for the whole text before Enter, and answers with what Enter made of it', async () => {
  const input = refOf(await macpilot.ok('find_elements', { app, role: 'textbox' }), /textbox/);
  for (const [sum, result] of [
    ['5+8', '13'],
    ['2*21', '42'],
    ['9*9', '81'],
  ] as const) {
    const typed = await macpilot.ok('type_text', { ref: input, text: sum, clear_first: true, submit: true });
    // The answer's change is the result, not the sum (nor a part of it).
    expect(typed).toMatch(new RegExp(`textbox \\[ref=${input}\\].* value="${result}"`));
  }
  // "=" typed is taken as a command: the answer says which character is not in the field, and why that may be.
  const evaluated = await macpilot.ok('type_text', { ref: input, text: '6*7=', clear_first: true });
  expect(evaluated).toMatch(/value="42"/);
  expect(evaluated).toMatch(
    /The field now holds .*"42".*, not the text typed: the app made something else of it/,
  );
  const equals = await macpilot.ok('type_text', { ref: input, text: '4=', clear_first: true });
  expect(equals).toMatch(/1 character of the text typed \("="\) is not in it: the app took it as commands/);
});

test('in the background, each answer of 1 2 + 7 = holds what the display then shows, the result included', async () => {
  await macpilot.ok('press_key', { key: 'escape' });
  const shown: string[] = [];
  for (const label of ['1', '2', '+', '7', '=']) {
    const found = await macpilot.ok('find_elements', { app, role: 'button', name: label, match: 'exact' });
    const clicked = await macpilot.ok('click_element', {
      ref: refOf(found, new RegExp(`button "${label.replace('+', '\\+')}"`)),
      background: true,
    });
    shown.push(/^~ textbox \[ref=e\d+\].* value="([^"]*)" \(was:/m.exec(clicked)?.[1] ?? 'no change said');
  }
  expect(shown).toEqual(['1', '12', '12+', '12+7', '19']);
});

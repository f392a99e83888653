/**
 * The testing toolset through a real client: assert_element on gtk3-demo and zenity (passing, failing with the
 * property, expected and actual, and waiting on change events), visual_diff of zenity dialogs against session and
 * file baselines, and audit_accessibility of gnome-calculator and of a zenity form.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type CallToolResult, ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { beforeAll, describe, expect, inject, test } from 'vitest';
import { colours, decode } from '../support/image.js';
import { startMacpilot, useMacpilot } from '../support/mcp.js';
import { temporaryFolder } from '../support/temp.js';
import { eventually, refOf } from '../support/text.js';

const env = inject('desktopEnv');
const { macpilot, processes, start, launch } = useMacpilot({
  ...env,
  MACPILOT_TOOLSETS: 'ui,input,apps,windows,screen,clipboard,menus,workflow,testing',
});

interface Failure {
  property: string;
  expected: unknown;
  actual: unknown;
}

/** A tool call that must succeed: its text, structured content and image, if any. */
async function call(name: string, args: Record<string, unknown>) {
  const result = (await macpilot.client.callTool({ name, arguments: args }, undefined, {
    timeout: 120_000,
  })) as CallToolResult;
  const text = result.content.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join('\n');
  expect(result.isError, text).toBeFalsy();
  const image = result.content.find((c) => c.type === 'image');
  return {
    text,
    json: result.structuredContent as Record<string, unknown>,
    image: image?.type === 'image' ? Buffer.from(image.data, 'base64') : undefined,
  };
}

const assertElement = async (args: Record<string, unknown>) => {
  const out = await call('assert_element', args);
  return { ...out, passed: out.json.passed as boolean, failures: out.json.failures as Failure[] };
};

/** A zenity dialog started directly, once its window is in the tree; its pid as the app argument. */
async function zenity(args: string[], shows: string) {
  const started = processes.start('zenity', args);
  const app = String(started.pid);
  await eventually(`zenity showing ${shows}`, async () => {
    const out = await macpilot.call('snapshot_ui', { app });
    return !out.isError && out.text.includes(shows) ? true : undefined;
  });
  return { app, started };
}

describe('assert_element', () => {
  let demo: string;
  beforeAll(async () => {
    demo = String(await start('gtk3-demo', 'Application Class'));
  });

  test('passes on gtk3-demo Run button as it is, and names each property that is not as asserted', async () => {
    const query = { app: demo, role: 'button', name: 'Run', match: 'exact' };
    const held = await assertElement({
      ...query,
      assertions: { exists: true, enabled: true, visible: true, role: 'button', name: 'Run', count: 1 },
    });
    expect(held.passed, held.text).toBe(true);
    expect(held.failures).toEqual([]);
    expect(held.text).toMatch(/^Passed: 6 assertions on the first button named "Run"/);

    const failed = await assertElement({
      ...query,
      assertions: { enabled: false, name: 'Walk', checked: false },
    });
    expect(failed.passed).toBe(false);
    expect(failed.failures).toEqual([
      { property: 'enabled', expected: false, actual: true },
      { property: 'name', expected: 'Walk', actual: 'Run' },
    ]);
    expect(failed.text).toContain('- enabled: expected false, actual true');
    expect(failed.text).toContain('- name: expected "Walk", actual "Run"');
  });

  test('by ref: focus follows focus_element, and a query that matches nothing fails exists', async () => {
    const run = refOf(
      await macpilot.ok('find_elements', { app: demo, role: 'button', name: 'Run' }),
      /"Run"/,
    );
    await macpilot.ok('focus_element', { ref: run });
    const focused = await assertElement({ ref: run, assertions: { focused: true }, timeout_ms: 3000 });
    expect(focused.passed, focused.text).toBe(true);

    const none = await assertElement({
      app: demo,
      role: 'button',
      name: 'No such button',
      assertions: { visible: true },
    });
    expect(none.failures).toEqual([{ property: 'exists', expected: true, actual: false }]);
    const absent = await assertElement({
      app: demo,
      role: 'button',
      name: 'No such button',
      assertions: { exists: false, count: 0 },
    });
    expect(absent.passed).toBe(true);
  });

  test('on zenity: waits for the value a later set_value gives the entry, and fails after a timeout', async () => {
    const { app, started } = await zenity(
      ['--entry', '--title', 'macpilot assert', '--text', 'Name?'],
      'Name?',
    );
    const field = refOf(await macpilot.ok('find_elements', { app, role: 'textbox' }), /textbox/);
    const before = await assertElement({ ref: field, assertions: { value: 'Ada', enabled: true } });
    expect(before.failures).toEqual([{ property: 'value', expected: 'Ada', actual: '' }]);

    // The assertion is asked first and holds only once set_value (sent while it waits) lands.
    const waiting = assertElement({
      ref: field,
      assertions: { value: 'Ada', focused: true },
      timeout_ms: 10_000,
    });
    await macpilot.ok('set_value', { ref: field, value: 'Ada' });
    const held = await waiting;
    expect(held.passed, held.text).toBe(true);
    expect(held.text).toMatch(/^Passed: 2 assertions on e\d+ after \d/);

    const timedOut = await assertElement({
      ref: field,
      assertions: { contains_text: 'Lovelace' },
      timeout_ms: 300,
    });
    expect(timedOut.failures).toEqual([
      // Its name comes from the dialog's label.
      { property: 'contains_text', expected: 'Lovelace', actual: 'Name? | Ada' },
    ]);
    expect(timedOut.text).toContain('still after waiting 300 ms');

    await processes.stop(started.pid);
    const gone = await assertElement({ ref: field, assertions: { exists: false } });
    expect(gone.passed, gone.text).toBe(true);
  });
});

describe('visual_diff', () => {
  const dialog = (text: string) => zenity(['--info', '--title', 'macpilot diff', '--text', text], text);
  const folder = temporaryFolder('macpilot-diff-');

  test('an unchanged dialog passes against its baseline; another text fails; ignoring the text passes', async () => {
    const first = await dialog('Saved 3 files');
    const saved = await call('visual_diff', { app: first.app, save_baseline: 'info' });
    expect(saved.json).toMatchObject({ compared: false, saved: 'baseline://info' });
    const file = join(folder, 'info.png');
    await macpilot.ok('take_screenshot', { app: first.app, file_path: file });

    const same = await call('visual_diff', { app: first.app, baseline: 'baseline://info' });
    expect(same.json).toMatchObject({ passed: true, diff_pixels: 0, size_mismatch: false });
    const fromFile = await call('visual_diff', { app: first.app, baseline: file });
    expect(fromFile.json).toMatchObject({ passed: true, diff_pixels: 0 });
    expect(same.image).toBeDefined();

    const label = refOf(
      await macpilot.ok('find_elements', { app: first.app, role: 'text' }),
      /Saved 3 files/,
    );
    const bounds = (await call('get_element', { ref: label })).json.bounds as Record<string, number>;
    await processes.stop(first.started.pid);

    const second = await dialog('Saved 4 files');
    const changed = await call('visual_diff', { app: second.app, baseline: 'baseline://info' });
    expect(changed.json.passed, changed.text).toBe(false);
    expect(changed.json.size_mismatch).toBe(false);
    expect(changed.json.diff_pixels as number).toBeGreaterThan(0);
    expect(changed.text).toMatch(/^Failed: \d+ of \d+ pixels differ/);
    // One digit is a small share of the dialog: a threshold above it lets it pass.
    const share = changed.json.diff_percentage as number;
    const tolerated = await call('visual_diff', {
      app: second.app,
      baseline: 'baseline://info',
      threshold: share * 2,
    });
    expect(tolerated.json.passed).toBe(true);
    // The diff image shows the changed pixels in red.
    const pixels = await decode(changed.image as Buffer);
    let red = 0;
    for (let i = 0; i < pixels.rgb.length; i += 3)
      if (pixels.rgb[i] === 255 && pixels.rgb[i + 1] === 0) red++;
    expect(red).toBeGreaterThan(0);

    const ignored = await call('visual_diff', {
      app: second.app,
      baseline: 'baseline://info',
      ignore_regions: [bounds],
    });
    expect(ignored.json, ignored.text).toMatchObject({ passed: true, diff_pixels: 0 });
    expect(ignored.text).toContain('1 region ignored');
  });

  test("a window other apps' windows cover whole is refused, not compared as black; in front, it is compared", async () => {
    const behind = await dialog('Behind it all');
    const frame = /^- window \d+ .* x=(-?\d+) y=(-?\d+) /m.exec(
      await macpilot.ok('list_windows', { app: behind.app }),
    );
    const cover = processes.start('zenity', [
      '--text-info',
      '--title',
      'macpilot cover',
      '--width',
      '500',
      '--height',
      '400',
    ]);
    const coverApp = String(cover.pid);
    await eventually('the covering window', async () =>
      /"macpilot cover"/.test(await macpilot.ok('list_windows', { app: coverApp })) ? true : undefined,
    );
    await macpilot.ok('move_window', {
      app: coverApp,
      x: Number(frame?.[1]) - 20,
      y: Number(frame?.[2]) - 20,
    });
    const refused = await macpilot.call('visual_diff', { app: behind.app, save_baseline: 'behind' });
    expect(refused.isError, refused.text).toBe(true);
    expect(refused.text).toMatch(/^Nothing of window \d+ "macpilot diff" of zenity .* is on screen/);
    const unknown = await macpilot.call('visual_diff', { app: behind.app, baseline: 'baseline://behind' });
    expect(unknown.text).toContain('No baseline "baseline://behind" in this session');
    await macpilot.ok('focus_window', { app: behind.app });
    await call('visual_diff', { app: behind.app, save_baseline: 'behind' });
    const same = await call('visual_diff', { app: behind.app, baseline: 'baseline://behind' });
    expect(same.json).toMatchObject({ passed: true, diff_pixels: 0 });
    await processes.stop(cover.pid);
    await processes.stop(behind.started.pid);
  });

  test('a baseline of another shape is a size mismatch, and unknown baselines are refused', async () => {
    const wide = { x: 0, y: 0, width: 120, height: 40 };
    await call('visual_diff', { region: wide, save_baseline: 'wide' });
    // A screenshot's own base64 is a baseline too.
    const shot = await macpilot.client.callTool({ name: 'take_screenshot', arguments: { region: wide } });
    const png = (shot as CallToolResult).content.find((c) => c.type === 'image');
    const fromBase64 = await call('visual_diff', {
      region: wide,
      baseline: png?.type === 'image' ? png.data : '',
    });
    expect(fromBase64.json).toMatchObject({ passed: true, diff_pixels: 0 });
    expect(fromBase64.text).toContain('the base64 PNG given');
    const other = await call('visual_diff', {
      region: { x: 0, y: 0, width: 40, height: 40 },
      baseline: 'baseline://wide',
    });
    expect(other.json).toMatchObject({ passed: false, size_mismatch: true, diff_percentage: 100 });
    expect(colours(await decode(other.image as Buffer))).toBeGreaterThan(0);

    const unknown = await macpilot.call('visual_diff', { baseline: 'baseline://never' });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toContain('baseline://wide');
    const missing = await macpilot.call('visual_diff', { baseline: join(folder, 'none.png') });
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain('does not exist');
  });
});

test('a client that declares roots: baseline files are read only from under them', async () => {
  const shared = temporaryFolder('macpilot-roots-');
  const other = temporaryFolder('macpilot-elsewhere-');
  const client = await startMacpilot({ ...env, MACPILOT_TOOLSETS: 'screen,testing' }, [], {
    roots: { listChanged: false },
  });
  try {
    client.client.setRequestHandler(ListRootsRequestSchema, () => ({
      roots: [{ uri: pathToFileURL(shared).href, name: 'shared' }],
    }));
    const region = { x: 0, y: 0, width: 64, height: 48 };
    const inside = join(shared, 'corner.png');
    const outside = join(other, 'corner.png');
    for (const file of [inside, outside]) await client.ok('take_screenshot', { region, file_path: file });
    const read = await client.ok('visual_diff', { region, baseline: inside });
    expect(read).toMatch(/^Passed: 0 of 3072 pixels differ/m);
    const refused = await client.call('visual_diff', { region, baseline: outside });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain(`outside the folders the client shared as its roots (${shared})`);
  } finally {
    await client.close();
  }
});

interface Issue {
  severity: string;
  rule: string;
  ref: string;
  element: string;
  path: string;
  description: string;
  suggestion: string;
}

describe('audit_accessibility', () => {
  test('gnome-calculator: keypad buttons named by their labels pass; icon buttons named only by tooltips do not', async () => {
    await launch('Calculator', { timeout_ms: 30_000 });
    const app = 'gnome-calculator';
    await eventually('the keypad', async () => {
      const out = await macpilot.call('snapshot_ui', { app });
      return !out.isError && out.text.includes('button "7"') ? true : undefined;
    });
    const focusBefore = await macpilot.ok('get_focused_element', { app });
    const audit = await call('audit_accessibility', { app });
    const issues = audit.json.issues as Issue[];
    expect(audit.json.score as number).toBeGreaterThan(0);
    expect(audit.json.score as number).toBeLessThan(100);
    expect(audit.json.summary).toMatch(/Tab presses, focus went round the whole window/);
    // Every keypad button takes its name from its label: none is reported unnamed.
    const unnamed = issues.filter((i) => i.rule === 'control-name');
    expect(unnamed.length).toBeGreaterThan(0);
    for (const issue of unnamed) {
      expect(issue.severity).toBe('moderate');
      expect(issue.description).toContain('only a description');
    }
    const seven = refOf(
      await macpilot.ok('find_elements', { app, role: 'button', name: '7', match: 'exact' }),
      /"7"/,
    );
    expect(issues.map((i) => i.ref)).not.toContain(seven);
    // Each issue names the element and says how to fix it; the tour put focus back where it was.
    for (const issue of issues) {
      expect(issue.ref).toMatch(/^e\d+$/);
      expect(issue.path).toMatch(/^app\("gnome-calculator"\)/);
      expect(issue.suggestion.length).toBeGreaterThan(10);
    }
    expect(await macpilot.ok('get_focused_element', { app })).toBe(focusBefore);
  });

  test('an audit cancelled during its Tab tour still puts focus back where it was', async () => {
    const app = 'gnome-calculator';
    await eventually('the keypad', async () => {
      const out = await macpilot.call('snapshot_ui', { app });
      return !out.isError && out.text.includes('button "7"') ? true : undefined;
    });
    await macpilot.ok('activate_app', { name: app });
    const focusBefore = await macpilot.ok('get_focused_element', { app });
    const cancel = new AbortController();
    const audit = macpilot.client.callTool(
      { name: 'audit_accessibility', arguments: { app, contrast: false } },
      undefined,
      {
        signal: cancel.signal,
        timeout: 120_000,
        onprogress: (p) => {
          if (/^Tab 3:/.test(p.message ?? '')) cancel.abort();
        },
      },
    );
    await expect(audit).rejects.toThrow();
    expect(cancel.signal.aborted).toBe(true);
    expect(
      await eventually('focus put back', async () =>
        (await macpilot.ok('get_focused_element', { app })) === focusBefore ? true : undefined,
      ),
    ).toBe(true);
  });

  test('a zenity form: its entries have no labels and its combo box no name', async () => {
    const { app } = await zenity(
      [
        '--forms',
        '--title',
        'macpilot form',
        '--text',
        'Sign up',
        '--add-entry',
        'Name',
        '--add-password',
        'Secret',
        '--add-combo',
        'Colour',
        '--combo-values',
        'red|green',
      ],
      'Sign up',
    );
    const progress: number[] = [];
    const result = (await macpilot.client.callTool(
      { name: 'audit_accessibility', arguments: { app } },
      undefined,
      {
        onprogress: (p) => progress.push(p.progress),
        timeout: 120_000,
      },
    )) as CallToolResult;
    const json = result.structuredContent as { issues: Issue[]; score: number; passed: boolean };
    expect(json.passed).toBe(false);
    const found = json.issues.map((i) => `${i.severity} ${i.rule} ${i.element}`);
    expect(found).toEqual(
      expect.arrayContaining([
        'critical control-name combobox',
        'serious field-label textbox',
        'serious field-label textbox',
      ]),
    );
    expect(found.filter((f) => f.includes('keyboard'))).toEqual([]);
    expect(json.score).toBeLessThan(100);
    expect(progress.length).toBeGreaterThan(2);
    const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
    expect(text).toMatch(
      /- critical control-name \(WCAG 4\.1\.2 Name, Role, Value \(A\)\): combobox \[ref=e\d+\]/,
    );
  });

  test("an editor's text is left as it was: the tour leaves a multi-line text with Ctrl+Tab, never typing a tab", async () => {
    const pid = String(await launch('mousepad'));
    const editor = await eventually('the editor', async () => {
      const out = await macpilot.call('find_elements', { app: pid, role: 'textbox' });
      return out.isError ? undefined : refOf(out.text, /textbox/);
    });
    await macpilot.ok('type_text', { ref: editor, text: 'first line' });
    const audit = await call('audit_accessibility', { app: pid });
    expect(audit.json.summary).toMatch(/keyboard: \d+ Tab press/);
    const after = await assertElement({ ref: editor, assertions: { value: 'first line', focused: true } });
    expect(after.passed, after.text).toBe(true);
  });

  test('the test-app and accessibility-audit prompts use these tools, naming only listed ones', async () => {
    const { tools } = await macpilot.client.listTools();
    const listed = new Set(tools.map((t) => t.name));
    const render = async (name: string) => {
      const { messages } = await macpilot.client.getPrompt({ name, arguments: { app_name: 'zenity' } });
      return messages.map((m) => (m.content.type === 'text' ? m.content.text : '')).join('\n');
    };
    const testApp = await render('test-app');
    expect(testApp).toContain('assert_element');
    expect(testApp).toContain('visual_diff');
    const audit = await render('accessibility-audit');
    expect(audit).toContain('audit_accessibility {app: "zenity", standards: ["wcag_aa"]}');
    for (const text of [testApp, audit]) {
      // Tools are words with underscores; argument names (timeout_ms, save_baseline, ...) are not tools.
      const tools = [...text.matchAll(/\b([a-z]+(?:_[a-z]+)+)\b(?! *:)/g)].map((m) => m[1] as string);
      const unknown = tools.filter(
        (t) => !listed.has(t) && !/^(app_name|include_hidden|timeout_ms|ignore_regions|wcag_aa)$/.test(t),
      );
      expect(unknown).toEqual([]);
    }
  });

  test('runs as a task', async () => {
    const { tools } = await macpilot.client.listTools();
    for (const name of ['audit_accessibility', 'visual_diff']) {
      expect(tools.find((t) => t.name === name)?.execution).toEqual({ taskSupport: 'optional' });
    }
    expect(tools.find((t) => t.name === 'assert_element')?.outputSchema).toBeDefined();
  });
});

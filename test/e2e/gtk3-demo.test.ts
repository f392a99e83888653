/** gtk3-demo: snapshot, find, act, refs that stay put, hit testing and focus. */
import { execFileSync } from 'node:child_process';
import { beforeAll, expect, inject, test } from 'vitest';
import { useMacpilot } from '../support/mcp.js';
import { eventually, refOf } from '../support/text.js';

const env = inject('desktopEnv');
const { macpilot, start } = useMacpilot(env);
let app: string;

/** Window titles as the window manager knows them: an independent view of what is on screen. */
function windowTitles(): string[] {
  const list = execFileSync('xprop', ['-root', '_NET_CLIENT_LIST'], { env }).toString();
  const ids = list.includes('#') ? (list.split('#')[1] ?? '').split(',').map((s) => s.trim()) : [];
  return ids.map((id) => {
    const name = execFileSync('xprop', ['-id', id, '_NET_WM_NAME'], { env }).toString();
    return /= "(.*)"/.exec(name)?.[1] ?? '';
  });
}

beforeAll(async () => {
  app = String(await start('gtk3-demo', 'Application Class'));
});

test('snapshot_ui shows the window, its buttons and the demo list with refs', async () => {
  const tree = await macpilot.ok('snapshot_ui', { app });
  expect(tree).toMatch(/- window "Application Class" \[ref=e\d+\]/);
  expect(tree).toMatch(/- button "Run" \[ref=e\d+\]/);
  expect(tree).toMatch(/"Button Boxes" \[ref=e\d+\]/);
  expect(tree.length).toBeLessThan(100_000);
});

test('refs stay the same across snapshots', async () => {
  const first = refOf(await macpilot.ok('snapshot_ui', { app }), /button "Run"/);
  const second = refOf(await macpilot.ok('snapshot_ui', { app }), /button "Run"/);
  expect(second).toBe(first);
  const found = refOf(await macpilot.ok('find_elements', { app, role: 'button', name: 'Run' }), /"Run"/);
  expect(found).toBe(first);
});

test('a shallow snapshot says what it cut and how to see it', async () => {
  const tree = await macpilot.ok('snapshot_ui', { app, depth: 2 });
  const last = tree.trim().split('\n').at(-1) ?? '';
  expect(last).toMatch(/depth/);
  expect(last).toMatch(/ref|find_elements/);
});

test('element_at finds the element under a point; focus_element focuses it', async () => {
  const run = refOf(await macpilot.ok('find_elements', { app, role: 'button', name: 'Run' }), /"Run"/);
  const detail = await macpilot.ok('get_element', { ref: run });
  const bounds =
    /bounds: x=(-?\d+(?:\.\d+)?) y=(-?\d+(?:\.\d+)?) width=(\d+(?:\.\d+)?) height=(\d+(?:\.\d+)?)/.exec(
      detail,
    );
  expect(bounds).not.toBeNull();
  const [x, y, w, h] = (bounds ?? []).slice(1).map(Number) as [number, number, number, number];
  const hit = await macpilot.ok('element_at', { x: x + w / 2, y: y + h / 2 });
  expect(hit).toContain(`[ref=${run}]`);

  await macpilot.ok('focus_element', { ref: run });
  const focused = await macpilot.ok('get_focused_element', { app });
  expect(focused).toContain(`[ref=${run}]`);
});

test('perform_action on a demo row runs the demo: a new window opens', async () => {
  const row = refOf(
    await macpilot.ok('find_elements', { app, name: 'Button Boxes', match: 'exact' }),
    /"Button Boxes"/,
  );
  const result = await macpilot.ok('perform_action', { ref: row, action: 'activate' });
  expect(result).toContain('Button Boxes');
  await eventually('the Button Boxes window', async () =>
    windowTitles().includes('Button Boxes') ? true : undefined,
  );
});

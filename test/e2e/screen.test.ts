/** Screenshots through the MCP client: gtk3-demo's window as pixels, regions, JPEG, scaling, refs drawn, files. */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { colours, decode, type Pixels } from '../support/image.js';
import { useMacpilot } from '../support/mcp.js';
import { eventually, refOf } from '../support/text.js';
import { windowOfPid } from '../support/xwindows.js';
import { temporaryFolder } from '../support/temp.js';

const env = inject('desktopEnv');
const { macpilot, start, processes } = useMacpilot(env);
const folder = temporaryFolder('macpilot-screenshots-');
let app: string;
let window: NonNullable<ReturnType<typeof windowOfPid>>;

interface Shot {
  text: string;
  mimeType: string;
  pixels: Pixels;
}

async function screenshot(args: Record<string, unknown>): Promise<Shot> {
  const result = (await macpilot.client.callTool({
    name: 'take_screenshot',
    arguments: args,
  })) as CallToolResult;
  const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  expect(result.isError, text).toBeFalsy();
  const image = result.content.find((c) => c.type === 'image');
  if (image?.type !== 'image') throw new Error(`no image in the answer:\n${text}`);
  return { text, mimeType: image.mimeType, pixels: await decode(Buffer.from(image.data, 'base64')) };
}

/** Screen bounds from get_element's answer. */
function boundsIn(detail: string): { x: number; y: number; width: number; height: number } {
  const m = /bounds: x=(-?\d+) y=(-?\d+) width=(\d+) height=(\d+)/.exec(detail);
  if (!m) throw new Error(`no bounds in:\n${detail}`);
  return { x: Number(m[1]), y: Number(m[2]), width: Number(m[3]), height: Number(m[4]) };
}

beforeAll(async () => {
  const pid = await start('gtk3-demo', 'Application Class');
  app = String(pid);
  window = await eventually('the gtk3-demo window', async () => windowOfPid(env, pid));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

test('the screen tools are listed with honest annotations', async () => {
  const { tools } = await macpilot.client.listTools();
  const names = tools.map((t) => t.name);
  expect(names).toEqual(expect.arrayContaining(['take_screenshot', 'list_displays']));
  // Read-only: file_path, which writes a new file (never over one), is refused in read-only mode.
  expect(tools.find((t) => t.name === 'take_screenshot')?.annotations).toMatchObject({
    readOnlyHint: true,
    destructiveHint: false,
  });
  expect(tools.find((t) => t.name === 'list_displays')?.annotations?.readOnlyHint).toBe(true);
});

test('list_displays shows the primary display in points', async () => {
  expect(await macpilot.ok('list_displays')).toMatch(/\(primary\): x=0 y=0 1280x800 points, scale 1/);
});

test("a screenshot of gtk3-demo's window shows the app, where its Run button is", async () => {
  const shot = await screenshot({ app });
  expect(shot.mimeType).toBe('image/png');
  expect([shot.pixels.width, shot.pixels.height]).toEqual([window.frame.width, window.frame.height]);
  expect(shot.text).toContain(`screen = image + (${window.frame.x}, ${window.frame.y})`);
  expect(colours(shot.pixels)).toBeGreaterThan(50);
  // The same window named by its id, as list_windows gives it.
  const byId = await screenshot({ window: window.id });
  expect(byId.pixels.rgb.equals(shot.pixels.rgb)).toBe(true);
  // list_windows shows most ids as digits: given as a JSON number, it is still the id, not an index.
  expect(window.id).toMatch(/^\d+$/);
  const byNumber = await screenshot({ window: Number(window.id) });
  expect(byNumber.pixels.rgb.equals(shot.pixels.rgb)).toBe(true);
  // Digits no window has as its id (nor in its title) are said to be an unknown id, not a title.
  const unknown = await macpilot.call('take_screenshot', { window: '987654321' });
  expect(unknown.isError).toBe(true);
  expect(unknown.text).toMatch(/^No window has the id "987654321"/);

  // The button's pixels carry its label and edges; the same-sized patch of bare desktop is one flat colour.
  const detail = await macpilot.ok('get_element', {
    ref: refOf(await macpilot.ok('snapshot_ui', { app }), /button "Run"/),
  });
  const run = boundsIn(detail);
  const inImage = { ...run, x: run.x - window.frame.x, y: run.y - window.frame.y };
  expect(colours(shot.pixels, inImage)).toBeGreaterThan(5);
  const desktop = await screenshot({
    region: { x: 0, y: 800 - run.height, width: run.width, height: run.height },
  });
  expect(colours(desktop.pixels)).toBe(1);
});

test('the whole screen at scale 1 says its points are the screen points', async () => {
  const shot = await screenshot({});
  expect(shot.text).toContain('Image points are screen points.');
  expect(shot.text).not.toContain('screen = image');
});

test('a region capture is the region size, at scale 1', async () => {
  const shot = await screenshot({ region: { x: 10, y: 20, width: 200, height: 100 } });
  expect([shot.pixels.width, shot.pixels.height]).toEqual([200, 100]);
  expect(shot.text).toContain('screen = image + (10, 20)');
});

test('JPEG screenshots are JPEG', async () => {
  const shot = await screenshot({ app, format: 'jpeg', quality: 60 });
  expect(shot.mimeType).toBe('image/jpeg');
  expect(shot.pixels.format).toBe('jpeg');
  expect(shot.pixels.width).toBe(window.frame.width);
});

test('max_width caps the long edge and the stated scale maps back to the screen', async () => {
  const shot = await screenshot({ max_width: 640 });
  expect([shot.pixels.width, shot.pixels.height]).toEqual([640, 400]);
  expect(shot.text).toContain('scale 0.5 image pixels per screen point');
  expect(shot.text).toContain('screen = image / 0.5.');
});

test("annotate draws the session's refs on an image of the same size and lists them", async () => {
  const runRef = refOf(await macpilot.ok('snapshot_ui', { app }), /button "Run"/);
  const plain = await screenshot({ app });
  const annotated = await screenshot({ app, annotate: true });
  expect([annotated.pixels.width, annotated.pixels.height]).toEqual([
    plain.pixels.width,
    plain.pixels.height,
  ]);
  expect(annotated.text).toContain(`- ${runRef} button "Run"`);
  expect(annotated.text).toMatch(/- e\d+ tab "Info"/);
  // The boxes and labels changed pixels.
  expect(annotated.pixels.rgb.equals(plain.pixels.rgb)).toBe(false);
});

test('file_path writes a new PNG and never overwrites it', async () => {
  const path = join(folder, 'gtk3-demo.png');
  const saved = await macpilot.ok('take_screenshot', { app, file_path: path });
  expect(saved).toContain(path);
  // It may show what the person would not share: readable by its owner only.
  expect(statSync(path).mode & 0o777).toBe(0o600);
  const written = await decode(readFileSync(path));
  expect(written).toMatchObject({ format: 'png', width: window.frame.width, height: window.frame.height });
  expect(saved).toContain(`${window.frame.width}x${window.frame.height} PNG`);

  const again = await macpilot.call('take_screenshot', { app, file_path: path });
  expect(again.isError).toBe(true);
  expect(again.text).toMatch(/never overwrite/);

  const mismatch = await macpilot.call('take_screenshot', {
    app,
    file_path: join(folder, 'x.png'),
    format: 'jpeg',
  });
  expect(mismatch.isError).toBe(true);
  expect(existsSync(join(folder, 'x.png'))).toBe(false);
});

test("a window behind another app's window is said to be covered in its screenshot, and is not once it is in front", async () => {
  const cover = processes.start('zenity', ['--info', '--title', 'covering', '--text', 'In front']);
  const coverWindow = await eventually('the covering window', async () => windowOfPid(env, cover.pid));
  const xdotool = (...args: string[]) => execFileSync('xdotool', args, { env });
  // The zenity window over gtk3-demo's, in front.
  xdotool('windowmove', coverWindow.id, String(window.frame.x + 20), String(window.frame.y + 40));
  xdotool('windowactivate', '--sync', coverWindow.id);
  const behind = await eventually('the covered screenshot', async () => {
    const shot = await screenshot({ app });
    return /1 window of other apps is in front of it and shows in its pixels/.test(shot.text)
      ? shot
      : undefined;
  });
  expect(behind.text).toContain('focus_window brings it to the front');
  const coveredBy = async () =>
    (
      (await macpilot.client.callTool({ name: 'take_screenshot', arguments: { app } })).structuredContent as {
        covered_by: number;
      }
    ).covered_by;
  // The structured answer says it too.
  expect(await coveredBy()).toBe(1);
  xdotool('windowactivate', '--sync', window.id);
  const front = await eventually('the uncovered screenshot', async () => {
    const shot = await screenshot({ app });
    return shot.text.includes('in front of it') ? undefined : shot;
  });
  expect(front.text).toMatch(/of window \d+ "Application Class"/);
  expect(await coveredBy()).toBe(0);
  await processes.stop(cover.pid);
});

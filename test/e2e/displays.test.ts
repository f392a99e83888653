/**
 * Two monitors, on a desktop of their own (Xorg's dummy driver: LEFT at 0,0 and RIGHT at 1280,0, see
 * scripts/desktop.ts): the displays as listed, a window moved to the second one, read and clicked there by ref
 * and by point, and captured by display, all in one global coordinate space; a point on no display is refused.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Desktop, startDesktop, TWO_MONITORS } from '../../scripts/desktop.js';
import { type Macpilot, startMacpilot } from '../support/mcp.js';
import { Processes, type Started } from '../support/processes.js';
import { eventually } from '../support/text.js';

let desktop: Desktop;
let macpilot: Macpilot;
let processes: Processes;

beforeAll(async () => {
  desktop = await startDesktop({ monitors: 2 });
  const env = { ...(desktop.env as Record<string, string>), MACPILOT_CONSENT: 'allow' };
  processes = new Processes(env);
  // Not a test of the rate limit: the polls of one test and the calls of the next came within one second, over 20.
  macpilot = await startMacpilot({ ...env, MACPILOT_RATE_LIMITS: 'calls_per_second=200' });
});
afterAll(async () => {
  await macpilot?.close();
  await processes?.stopAll();
  await desktop?.stop();
});

const [LEFT, RIGHT] = TWO_MONITORS;

interface Structured {
  structuredContent?: Record<string, unknown>;
}

/** A tool's structured answer (the call must succeed). */
async function structured<T>(name: string, args: Record<string, unknown>): Promise<T> {
  const result = (await macpilot.client.callTool({ name, arguments: args })) as Structured & {
    isError?: boolean;
  };
  expect(result.isError, `${name} ${JSON.stringify(result)}`).toBeFalsy();
  return result.structuredContent as T;
}

interface Bounds {
  x: number;
  y: number;
  width: number;
  height: number;
}

interface WindowJson {
  id: string;
  title: string;
  pid: number;
  bounds: Bounds;
}

/** A zenity question, titled `title`, moved onto the right monitor; its window once it is there. */
async function questionOnTheRight(title: string): Promise<{ zenity: Started; window: WindowJson }> {
  const zenity = processes.start('zenity', ['--question', '--title', title, '--text', 'Which monitor?']);
  const shown = await eventually(`zenity "${title}" listed`, async () => {
    const { windows } = await structured<{ windows: WindowJson[] }>('list_windows', {});
    return windows.find((w) => w.title === title);
  });
  // It opens on the left monitor (the primary one); move it well inside the right one.
  expect(shown.bounds.x + shown.bounds.width).toBeLessThanOrEqual(LEFT.x + LEFT.width);
  await macpilot.ok('move_window', { window_id: shown.id, x: RIGHT.x + 300, y: 200 });
  const window = await eventually(`zenity "${title}" on the right monitor`, async () => {
    const { windows } = await structured<{ windows: WindowJson[] }>('list_windows', {});
    const now = windows.find((w) => w.id === shown.id);
    return now && now.bounds.x >= RIGHT.x ? now : undefined;
  });
  return { zenity, window };
}

/** The zenity's button named `name`: its ref and its bounds, in global screen points. */
async function button(pid: number, name: string): Promise<{ ref: string; bounds: Bounds }> {
  const { matches } = await structured<{ matches: { ref: string; name: string }[] }>('find_elements', {
    app: String(pid),
    role: 'button',
    text: name,
  });
  const ref = matches.find((m) => m.name === name)?.ref;
  expect(ref, JSON.stringify(matches)).toBeDefined();
  const { bounds } = await structured<{ bounds?: Bounds }>('get_element', { ref });
  expect(bounds).toBeDefined();
  return { ref: ref ?? '', bounds: bounds as Bounds };
}

describe('two monitors', () => {
  test('list_displays shows each monitor with its origin, size and scale', async () => {
    const text = await macpilot.ok('list_displays');
    expect(text).toContain('2 displays');
    expect(text).toMatch(/- LEFT \(primary\): x=0 y=0 1280x800 points, scale 1/);
    expect(text).toMatch(/- RIGHT: x=1280 y=0 1280x800 points, scale 1/);
  });

  test('a window on the second monitor is read and clicked by ref there, its bounds in global points', async () => {
    const { zenity, window } = await questionOnTheRight('macpilot right, by ref');
    const yes = await button(zenity.pid, 'Yes');
    // The button is inside the moved window, on the right monitor: bounds are global, not per monitor.
    expect(yes.bounds.x).toBeGreaterThanOrEqual(window.bounds.x);
    expect(yes.bounds.x + yes.bounds.width).toBeLessThanOrEqual(window.bounds.x + window.bounds.width);
    expect(yes.bounds.x).toBeGreaterThanOrEqual(RIGHT.x);
    await macpilot.ok('click_element', { ref: yes.ref });
    expect(await zenity.exited).toBe(0);
  });

  test('a click at a point on the second monitor lands there', async () => {
    const { zenity } = await questionOnTheRight('macpilot right, by point');
    const no = await button(zenity.pid, 'No');
    const at = { x: no.bounds.x + no.bounds.width / 2, y: no.bounds.y + no.bounds.height / 2 };
    const clicked = await macpilot.ok('click', at);
    expect(clicked).toContain('RIGHT');
    // zenity --question exits 1 for No: the click reached that very button.
    expect(await zenity.exited).toBe(1);
  });

  test('take_screenshot {display} captures exactly that monitor', async () => {
    const { zenity, window } = await questionOnTheRight('macpilot right, captured');
    const shot = async (display: string) => {
      const result = (await macpilot.client.callTool({
        name: 'take_screenshot',
        arguments: { display, max_width: 1280 },
      })) as { content: { type: string; data?: string; text?: string }[] };
      const image = result.content.find((c) => c.type === 'image');
      const text = result.content.find((c) => c.type === 'text')?.text ?? '';
      return { image: sharp(Buffer.from(image?.data ?? '', 'base64')), text };
    };
    const right = await shot('RIGHT');
    expect(right.text).toContain('screen area x=1280 y=0 1280x800');
    expect(await right.image.metadata()).toMatchObject({ width: 1280, height: 800 });
    // The window's area, in the right monitor's image, holds the dialog; the same area of the left one does not.
    const area = {
      left: window.bounds.x - RIGHT.x,
      top: window.bounds.y - RIGHT.y,
      width: window.bounds.width,
      height: window.bounds.height,
    };
    const spread = async (image: sharp.Sharp) =>
      Math.max(...(await image.extract(area).stats()).channels.map((c) => c.stdev));
    expect(await spread(right.image)).toBeGreaterThan(10);
    expect(await spread((await shot('LEFT')).image)).toBeLessThan(1);
    await processes.stop(zenity.pid);
  });

  test('a point on no display is refused with the displays listed, and nothing is clicked', async () => {
    for (const at of [
      { x: 3000, y: 100 },
      { x: 32767, y: 32767 },
      { x: -5, y: 10 },
    ]) {
      const refused = await macpilot.call('click', at);
      expect(refused.isError, JSON.stringify(at)).toBe(true);
      expect(refused.text).toContain(`${at.x},${at.y} is on no display`);
      expect(refused.text).toContain('"LEFT" (primary) x=0 y=0 1280x800');
      expect(refused.text).toContain('"RIGHT" x=1280 y=0 1280x800');
    }
  });
});

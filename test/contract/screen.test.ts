/** screen.displays and screen.capture on the test desktop, with gtk3-demo's window on it. */
import { execFileSync } from 'node:child_process';
import { beforeAll, expect, inject, test } from 'vitest';
import { type CaptureTarget, HelperErrorCode, methods } from '../../src/helper-client/protocol.js';
import { colours, decode } from '../support/image.js';
import { eventually } from '../support/text.js';
import { windowOfPid } from '../support/xwindows.js';
import { failsWith, useHelper } from './helper.js';

const env = inject('desktopEnv');
const { helper, start } = useHelper(env);
let window: NonNullable<ReturnType<typeof windowOfPid>>;

/** The X screen's size as xdpyinfo reports it. */
function screenSize(): { width: number; height: number } {
  const match = /dimensions:\s+(\d+)x(\d+) pixels/.exec(execFileSync('xdpyinfo', { env, encoding: 'utf8' }));
  return { width: Number(match?.[1]), height: Number(match?.[2]) };
}

const capture = (target: CaptureTarget, options: { format?: 'png' | 'jpeg'; maxLongEdge?: number } = {}) =>
  helper.call('screen.capture', {
    target,
    format: options.format ?? 'png',
    quality: 80,
    maxLongEdge: options.maxLongEdge ?? 16384,
  });

beforeAll(async () => {
  const { pid } = await start('gtk3-demo');
  window = await eventually('the gtk3-demo window', async () => windowOfPid(env, pid));
});

test('screen.displays lists the X screen as the primary display, in points at scale 1', async () => {
  const result = await helper.call('screen.displays', {});
  expect(methods['screen.displays'].result.parse(result)).toEqual(result);
  const primary = result.displays.filter((d) => d.primary);
  expect(primary).toHaveLength(1);
  expect(primary[0]).toMatchObject({ bounds: { x: 0, y: 0, ...screenSize() }, scale: 1 });
});

test("a window's capture is its frame as on screen: the app's pixels, not the desktop's", async () => {
  const result = await capture({ window: window.id });
  expect(methods['screen.capture'].result.parse(result)).toEqual(result);
  expect(result.bounds).toEqual(window.frame);
  expect(result).toMatchObject({
    format: 'png',
    width: window.frame.width,
    height: window.frame.height,
    scale: 1,
  });
  const image = await decode(Buffer.from(result.data, 'base64'));
  expect(image).toMatchObject({ format: 'png', width: result.width, height: result.height });
  // Text, a selected row, buttons: a real window has many colours.
  expect(colours(image)).toBeGreaterThan(50);

  const desktop = await capture({ region: { x: 0, y: screenSize().height - 40, width: 40, height: 40 } });
  const background = await decode(Buffer.from(desktop.data, 'base64'));
  expect(colours(background)).toBe(1);
  // Read the same window area again as a region: the same pixels.
  const region = await decode(Buffer.from((await capture({ region: window.frame })).data, 'base64'));
  expect(region.rgb.equals(image.rgb)).toBe(true);
});

test('captures asked at the same time each get their own pixels (they share one buffer in turn)', async () => {
  const corner = { region: { x: 0, y: screenSize().height - 40, width: 40, height: 40 } };
  const alone = await decode(Buffer.from((await capture({ window: window.id })).data, 'base64'));
  const [frame, background, again] = await Promise.all([
    capture({ window: window.id }),
    capture(corner),
    capture({ window: window.id }),
  ]);
  const [first, desktop, second] = await Promise.all(
    [frame, background, again].map((shot) => decode(Buffer.from(shot.data, 'base64'))),
  );
  expect(first?.rgb.equals(alone.rgb)).toBe(true);
  expect(second?.rgb.equals(alone.rgb)).toBe(true);
  expect(desktop && colours(desktop)).toBe(1);
});

test('a region capture has the region size; parts off the screen are cut, an area fully off is refused', async () => {
  const result = await capture({ region: { x: 100, y: 50, width: 300, height: 200 } });
  expect(result).toMatchObject({
    width: 300,
    height: 200,
    bounds: { x: 100, y: 50, width: 300, height: 200 },
  });
  const { width, height } = screenSize();
  const edge = await capture({ region: { x: width - 100, y: height - 50, width: 400, height: 400 } });
  expect(edge.bounds).toEqual({ x: width - 100, y: height - 50, width: 100, height: 50 });
  await failsWith(
    capture({ region: { x: width + 10, y: 0, width: 50, height: 50 } }),
    HelperErrorCode.InvalidParams,
  );
});

test('maxLongEdge scales the image down and the scale says by how much', async () => {
  const { displays } = await helper.call('screen.displays', {});
  const display = displays[0];
  expect(display).toBeDefined();
  if (!display) return;
  const long = Math.max(display.bounds.width, display.bounds.height);
  const result = await capture({ display: display.id }, { maxLongEdge: Math.round(long / 2) });
  expect(Math.max(result.width, result.height)).toBe(Math.round(long / 2));
  expect(result.scale).toBeCloseTo(0.5, 2);
  expect(result.bounds).toEqual(display.bounds);
  const image = await decode(Buffer.from(result.data, 'base64'));
  expect([image.width, image.height]).toEqual([result.width, result.height]);
});

test('JPEG captures decode as JPEG', async () => {
  const result = await capture({ window: window.id }, { format: 'jpeg' });
  expect(result.format).toBe('jpeg');
  const image = await decode(Buffer.from(result.data, 'base64'));
  expect(image).toMatchObject({ format: 'jpeg', width: window.frame.width, height: window.frame.height });
});

test('unknown displays and windows are refused with the reason', async () => {
  const error = await failsWith(capture({ display: 'nowhere' }), HelperErrorCode.InvalidParams);
  expect(error.data.hint).toMatch(/displays are/);
  await failsWith(capture({ window: 'not-a-window' }), HelperErrorCode.InvalidParams);
  await failsWith(capture({ window: '4194303' }), HelperErrorCode.NotAvailable);
});

test('a full-screen PNG capture and its size (timing printed, not asserted)', async () => {
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < 20; i++) {
    const started = performance.now();
    const result = await capture({ region: { x: 0, y: 0, ...screenSize() } });
    times.push(performance.now() - started);
    bytes = Buffer.from(result.data, 'base64').length;
  }
  times.sort((a, b) => a - b);
  const { width, height } = screenSize();
  console.log(
    `[perf] screen.capture ${width}x${height} PNG: median ${times[10]?.toFixed(1)} ms, best ${times[0]?.toFixed(1)} ms, ${Math.round(bytes / 1024)} KB`,
  );
  expect(bytes).toBeGreaterThan(0);
});

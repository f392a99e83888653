/**
 * Screenshots and the person's app lists: a window of a denied app (KeePassXC, denied by default) is painted
 * black when asked (the default in safe and read-only mode), and the answer says it is there either way.
 */
import sharp from 'sharp';
import { expect, test } from 'vitest';
import { createEngine } from '../../../../src/engine/index.js';
import type { HelperPort } from '../../../../src/engine/kernel/port.js';
import type { MethodName, Params, Result } from '../../../../src/helper-client/protocol.js';
import { AppPolicy, appGate } from '../../../../src/policy/apps.js';

const SCREEN = { x: 0, y: 0, width: 200, height: 100 };
const VAULT = { x: 20, y: 10, width: 40, height: 30 };

/** `front`: gtk3-demo's frame, in front of keepassxc's window; by default gtk3-demo is behind it, full screen. */
async function desktop(front?: typeof SCREEN): Promise<HelperPort> {
  const white = await sharp({ create: { width: 200, height: 100, channels: 3, background: 'white' } })
    .png()
    .toBuffer();
  const window = (id: string, pid: number, app: string, bounds = SCREEN) => ({
    id,
    pid,
    app,
    title: app,
    bounds,
    minimized: false,
    focused: false,
  });
  const answers: Partial<Record<MethodName, unknown>> = {
    'apps.list': {
      apps: [
        { id: 'a1', pid: 1, name: 'keepassxc', active: false },
        { id: 'a2', pid: 2, name: 'gtk3-demo', active: true },
      ],
    },
    'windows.list': {
      windows: front
        ? [window('w2', 2, 'gtk3-demo', front), window('w1', 1, 'keepassxc', VAULT)]
        : [window('w1', 1, 'keepassxc', VAULT), window('w2', 2, 'gtk3-demo')],
    },
    'screen.displays': { displays: [{ id: 'd1', bounds: SCREEN, scale: 1, primary: true }] },
    'screen.capture': {
      data: white.toString('base64'),
      format: 'png',
      width: 200,
      height: 100,
      bounds: SCREEN,
      scale: 1,
    },
  };
  return {
    call: async <M extends MethodName>(method: M, _params: Params<M>) => {
      if (!(method in answers)) throw new Error(`unexpected ${method}`);
      return answers[method] as Result<M>;
    },
  };
}

/** The grey level of the image's pixel at x, y. */
async function pixel(base64: string, x: number, y: number): Promise<number> {
  const { data, info } = await sharp(Buffer.from(base64, 'base64'))
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return data[y * info.width + x] as number;
}

test('a denied window is painted black when asked, and said to be there when not', async () => {
  const engine = createEngine(await desktop(), { blackOutHidden: true }, appGate(new AppPolicy()));
  const covered = await engine.screen.take({});
  expect(covered.text).toContain("1 window of apps the person's app lists hide is painted black.");
  const image = covered.image?.data ?? '';
  expect(await pixel(image, 30, 20)).toBe(0);
  expect(await pixel(image, 59, 39)).toBe(0);
  expect(await pixel(image, 61, 20)).toBe(255);
  expect(await pixel(image, 100, 50)).toBe(255);

  const shown = await engine.screen.take({ blackOutHidden: false, format: 'jpeg' });
  expect(shown.text).toContain('may show in its pixels (black_out_hidden: true paints them black)');
  expect(await pixel(shown.image?.data ?? '', 30, 20)).toBeGreaterThan(200);

  const compared = await engine.screen.capture({});
  const { data, info } = await sharp(compared.png).greyscale().raw().toBuffer({ resolveWithObject: true });
  expect(data[20 * info.width + 30]).toBe(0);
});

test("the browser showing macpilot's console is painted black whatever the screenshot asks, and is no hidden app", async () => {
  // gtk3-demo's pid stands for the console's browser: hidden whatever the lists say.
  const policy = new AppPolicy({ denyApps: ['none'], hiddenPids: () => new Set([2]) });
  const engine = createEngine(await desktop(), { blackOutHidden: false }, appGate(policy));
  const shot = await engine.screen.take({ blackOutHidden: false });
  expect(shot.text).toContain("macpilot's console, the person's own, is painted black.");
  expect(shot.text).not.toContain('app lists hide');
  expect(await pixel(shot.image?.data ?? '', 100, 50)).toBe(0);
  // keepassxc's window is in front of it, and shown: only what the console's window shows of itself is painted.
  expect(await pixel(shot.image?.data ?? '', 30, 20)).toBeGreaterThan(200);
  expect(await pixel(shot.image?.data ?? '', 59, 39)).toBeGreaterThan(200);
  expect(await pixel(shot.image?.data ?? '', 61, 20)).toBe(0);

  const windows = await engine.windows.list({});
  expect(windows.kind === 'windows' && windows.hidden).toBe(0);
});

test('a denied window partly behind another is painted black only where it shows', async () => {
  const engine = createEngine(
    await desktop({ x: 40, y: 0, width: 160, height: 100 }),
    { blackOutHidden: true },
    appGate(new AppPolicy()),
  );
  const shot = await engine.screen.take({});
  expect(shot.text).toContain("1 window of apps the person's app lists hide is painted black.");
  const image = shot.image?.data ?? '';
  expect(await pixel(image, 30, 20)).toBe(0);
  expect(await pixel(image, 39, 39)).toBe(0);
  expect(await pixel(image, 45, 20)).toBe(255);
  expect(await pixel(image, 100, 50)).toBe(255);
});

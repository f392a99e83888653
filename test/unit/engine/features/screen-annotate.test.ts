/** Screenshots without a desktop: pixel conversion, scaling, which elements get refs drawn, and the answers. */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, test } from 'vitest';
import { textEngine } from '../text-engine.js';
import type { HelperPort } from '../../../../src/engine/kernel/port.js';
import { labelled, MAX_LABELS, overlay } from '../../../../src/engine/features/screen-annotate.js';
import { annotate } from '../../../../src/engine/kernel/tree.js';
import { RefTable } from '../../../../src/engine/kernel/refs.js';
import type {
  Bounds,
  CaptureTarget,
  ElementNode,
  MethodName,
  Params,
  Result,
} from '../../../../src/helper-client/protocol.js';
import { fitted, toRgba } from '../../../../src/platforms/linux/helper/x11/screen-pixels.js';
import { failure } from '../failure.js';
import { el } from '../fixtures.js';
import { temporaryFolder } from '../../../support/temp.js';

const folder = temporaryFolder('macpilot-screen-unit-');
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('ZPixmap pixels to opaque RGBA', () => {
  const le32 = (...pixels: number[]) => {
    const b = Buffer.alloc(pixels.length * 4);
    pixels.forEach((p, i) => b.writeUInt32LE(p, i * 4));
    return b;
  };
  /** Packed RGB as the opaque RGBA toRgba writes. */
  const opaque = (...rgb: number[]) => rgb.flatMap((v, i) => (i % 3 === 2 ? [v, 255] : [v]));
  const bgrx = { bitsPerPixel: 32, littleEndian: true, redMask: 0xff0000, greenMask: 0xff00, blueMask: 0xff };

  test('8-bit channels in any order, either byte order', () => {
    expect([...(toRgba(le32(0x00112233, 0xffa0b0c0), 2, 1, bgrx) ?? [])]).toEqual(
      opaque(0x11, 0x22, 0x33, 0xa0, 0xb0, 0xc0),
    );
    const rgbx = { ...bgrx, redMask: 0xff, blueMask: 0xff0000 };
    expect([...(toRgba(le32(0x00112233), 1, 1, rgbx) ?? [])]).toEqual(opaque(0x33, 0x22, 0x11));
    const bigEndian = Buffer.from([0x00, 0x11, 0x22, 0x33]);
    expect([...(toRgba(bigEndian, 1, 1, { ...bgrx, littleEndian: false }) ?? [])]).toEqual(
      opaque(0x11, 0x22, 0x33),
    );
  });

  test('any pixel count', () => {
    const pixels = [0x010203, 0x040506, 0x070809, 0x0a0b0c, 0x0d0e0f, 0x101112, 0x131415];
    const expected = opaque(...pixels.flatMap((p) => [(p >> 16) & 0xff, (p >> 8) & 0xff, p & 0xff]));
    expect([...(toRgba(le32(...pixels), 7, 1, bgrx) ?? [])]).toEqual(expected);
    expect([...(toRgba(le32(...pixels.slice(0, 4)), 2, 2, bgrx) ?? [])]).toEqual(expected.slice(0, 16));
  });

  test('10-bit channels scale to 8 bits; unsupported layouts are refused', () => {
    const deep = { ...bgrx, redMask: 0x3ff00000, greenMask: 0xffc00, blueMask: 0x3ff };
    expect([...(toRgba(le32((1023 << 20) | (512 << 10) | 0), 1, 1, deep) ?? [])]).toEqual(
      opaque(255, 128, 0),
    );
    expect(toRgba(Buffer.alloc(6), 1, 1, { ...deep, bitsPerPixel: 24 })).toBeUndefined();
    expect(toRgba(Buffer.alloc(4), 1, 1, { ...deep, greenMask: 0 })).toBeUndefined();
    expect(toRgba(Buffer.alloc(4), 2, 1, deep)).toBeUndefined();
  });

  test('fitting a long edge keeps the aspect ratio and never enlarges', () => {
    expect(fitted(1280, 800, 640)).toEqual({ width: 640, height: 400 });
    expect(fitted(800, 1280, 1568)).toEqual({ width: 800, height: 1280 });
    expect(fitted(3000, 10, 16)).toEqual({ width: 16, height: 1 });
  });
});

const node = (id: string, nativeRole: string, name: string, bounds?: Bounds, children?: ElementNode[]) =>
  el(nativeRole, name, { id, pid: 7, ...(bounds ? { bounds } : {}) }, children);

/** An app whose window holds a named label, an unnamed button, a key with its label, an unnamed panel and an element off the area. */
const win = node('win', 'frame', 'Main', { x: 100, y: 100, width: 400, height: 300 });
const appTree = node('app', 'application', 'demo', undefined, [
  node('win', 'frame', 'Main', win.bounds, [
    node('panel', 'panel', '', { x: 100, y: 100, width: 400, height: 300 }, [
      node('label', 'label', 'Hello', { x: 110, y: 110, width: 50, height: 20 }),
      node('ok', 'push button', '', { x: 400, y: 350, width: 80, height: 30 }),
      // A calculator's key: its label repeats its name, and would hide the key's own tag.
      node('seven', 'push button', '7', { x: 200, y: 300, width: 40, height: 40 }, [
        node('seven-label', 'label', '7', { x: 205, y: 305, width: 30, height: 30 }),
      ]),
      node('far', 'push button', 'Far', { x: 900, y: 900, width: 50, height: 20 }),
      node('nobounds', 'push button', 'Hidden'),
    ]),
  ]),
]);

describe('refs drawn on a screenshot', () => {
  const walked = () =>
    annotate(
      { node: appTree, path: { app: 'demo', segments: [] }, app: { pid: 7, name: 'demo' } },
      new RefTable(),
    );
  const area = { x: 100, y: 100, width: 400, height: 300 };

  test('visible interactive elements first, then named ones; frames, unnamed containers and the rest left out', () => {
    const { shown, total } = labelled(walked(), area);
    expect(shown.map((l) => l.node.info.id)).toEqual(['ok', 'seven', 'label']);
    expect(total).toBe(3);
    expect(MAX_LABELS).toBeGreaterThan(50);
  });

  test('boxes are drawn in image pixels: screen points minus the origin, times the scale', () => {
    const { shown } = labelled(walked(), area);
    const svg = overlay(shown, { width: 200, height: 150 }, area, 0.5);
    expect(svg).toContain('width="200" height="150"');
    // ok: (400-100)*0.5, (350-100)*0.5, 80*0.5, 30*0.5
    expect(svg).toContain('<rect x="150" y="125" width="40" height="15"');
    const ref = shown[0]?.node.ref ?? '';
    expect(svg).toContain(`>${ref}</text>`);
  });
});

/** A port that answers the screen methods with a real 40x20 PNG of the region asked for. */
function screenPort(calls: MethodName[], captured: CaptureTarget[] = []): HelperPort {
  const answers: { [M in MethodName]?: (p: Params<M>) => Promise<Result<M>> } = {
    'screen.displays': async () => ({
      displays: [{ id: 'main', bounds: { x: 0, y: 0, width: 80, height: 40 }, scale: 1, primary: true }],
    }),
    'screen.capture': async (p) => {
      captured.push(p.target);
      const data = await sharp({ create: { width: 40, height: 20, channels: 3, background: '#123456' } })
        .png()
        .toBuffer();
      const bounds = 'region' in p.target ? p.target.region : { x: 0, y: 0, width: 80, height: 40 };
      return { data: data.toString('base64'), format: 'png', width: 40, height: 20, bounds, scale: 0.5 };
    },
    // One app with one window, and no window manager: windows.list is empty.
    'apps.list': async () => ({ apps: [{ pid: 7, name: 'demo', id: 'app', active: true }] }),
    'windows.list': async () => ({ windows: [] }),
    'ax.snapshot': async () => ({
      root: { ...appTree, children: [{ ...win, children: undefined }] },
      nodeCount: 2,
      truncated: false,
    }),
    'ax.element': async (p) => ({
      element: { ...win, id: p.id, children: undefined, actions: [], attributes: {} },
    }),
  };
  return {
    call: async <M extends MethodName>(method: M, params: Params<M>) => {
      calls.push(method);
      const answer = answers[method] as ((p: Params<M>) => Promise<Result<M>>) | undefined;
      if (!answer) throw new Error(`unexpected ${method}`);
      return answer(params);
    },
  };
}

describe('take_screenshot answers', () => {
  test("without a window manager, an app's window is captured as its frame's area", async () => {
    const captured: CaptureTarget[] = [];
    const shot = await textEngine(screenPort([], captured)).screen.take({ app: 'demo' });
    expect(captured).toEqual([{ region: win.bounds }]);
    expect(shot.text).toContain('window "Main" of "demo" (pid 7)');
  });

  test('the text states size, format and how image points map back to the screen', async () => {
    const engine = textEngine(screenPort([]));
    const shot = await engine.screen.take({ region: { x: 10, y: 30, width: 80, height: 40 } });
    expect(shot.image?.mimeType).toBe('image/png');
    expect(shot.text).toContain('40x20 PNG of the region x=10 y=30 80x40');
    expect(shot.text).toContain('screen = image / 0.5 + (10, 30).');
  });

  test('bad file paths and mixed targets are refused before anything is captured', async () => {
    const calls: MethodName[] = [];
    const engine = textEngine(screenPort(calls));
    const refused = async (options: Parameters<typeof engine.screen.take>[0], why: RegExp) =>
      expect((await failure(engine.screen.take(options))).why).toMatch(why);
    await refused({ filePath: 'shot.png' }, /not absolute/);
    await refused({ filePath: join(folder, 'shot.gif') }, /PNG or JPEG, not \.gif/);
    await refused({ filePath: folder }, /it is a folder/);
    await refused({ filePath: join(folder, 'shot.png'), format: 'jpeg' }, /extension/);
    await refused({ filePath: join(folder, 'missing', 'shot.png') }, /folder does not exist/);
    writeFileSync(join(folder, 'taken.png'), 'x');
    await refused({ filePath: join(folder, 'taken.png') }, /never overwrite/);
    await refused({ region: { x: 0, y: 0, width: 5, height: 5 }, display: 'main' }, /one of/);
    expect(calls).toEqual([]);
  });

  test('a file gets the image, in the format its extension names, and the answer gives its path', async () => {
    const engine = textEngine(screenPort([]));
    const path = join(folder, 'display.jpg');
    const shot = await engine.screen.take({ filePath: path });
    expect(shot.image).toBeUndefined();
    expect(shot.text).toContain(`File: ${path}`);
    expect(shot.text).toContain('JPEG of display "main"');
  });
});

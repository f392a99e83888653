/**
 * visual_diff: a capture compared with a baseline image, pixel by pixel (pixelmatch, which does not count
 * anti-aliased pixels), with regions to ignore. The answer's image shows the changed pixels in red over a faded
 * capture, scaled like a screenshot. Baselines come from a PNG file, from this session (`baseline://NAME`, saved
 * by an earlier call) or from base64.
 */
import { readFile, realpath, stat } from 'node:fs/promises';
import { isAbsolute, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import pixelmatch from 'pixelmatch';
import { MacpilotError } from '../../errors.js';
import type { CallOptions } from '../../helper-client/errors.js';
import type { Bounds } from '../../helper-client/protocol.js';
import { decodePng, encodePng, type Raster, resizedPng } from './raster.js';
import type { Kernel } from '../kernel/kernel.js';
import type { VisualDiffResult } from '../kernel/results.js';
import { type CaptureArea, SCREENSHOT_DEFAULTS, type Screen } from '../features/screen.js';

/** A rectangle in image pixels. */
export interface PixelRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export const VISUAL_DIFF_DEFAULTS = {
  /**
   * Percent of the pixels that may differ and the comparison still pass: none, by default. Rendering is
   * deterministic and anti-aliasing is not counted, and one changed digit of a label is a few dozen pixels.
   */
  thresholdPercent: 0,
  /** pixelmatch's colour distance (0-1) under which two pixels count as the same. */
  colourTolerance: 0.1,
  /** How strongly the capture shows under the highlighted pixels (0-1). */
  fade: 0.2,
  /** Baselines a session keeps; saving one more forgets the oldest. */
  keptBaselines: 32,
} as const;

const BASELINE_SCHEME = 'baseline://';
/** A baseline name: what follows baseline://. */
export const BASELINE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** The largest baseline file read: as large as the base64 a call may carry decodes to. */
const MAX_BASELINE_FILE_BYTES = 24_000_000;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Ignored regions are outlined in this colour on the diff image. */
const IGNORED_OUTLINE = [40, 110, 255] as const;

/** A session's baselines by name, as PNG; the oldest is forgotten past the limit. */
export class Baselines {
  private readonly saved = new Map<string, Buffer>();

  save(name: string, png: Buffer): void {
    this.saved.delete(name);
    this.saved.set(name, png);
    const [oldest] = this.saved.keys();
    if (this.saved.size > VISUAL_DIFF_DEFAULTS.keptBaselines && oldest !== undefined)
      this.saved.delete(oldest);
  }

  get(name: string): Buffer | undefined {
    return this.saved.get(name);
  }

  names(): string[] {
    return [...this.saved.keys()];
  }
}

/** Screen points to the capture's pixels, clipped to the image; regions that miss it are dropped. */
export function toPixels(regions: readonly Bounds[], area: Bounds, scale: number, size: Raster): PixelRect[] {
  return regions.flatMap((r) => {
    const x0 = Math.max(0, Math.floor((r.x - area.x) * scale));
    const y0 = Math.max(0, Math.floor((r.y - area.y) * scale));
    const x1 = Math.min(size.width, Math.ceil((r.x + r.width - area.x) * scale));
    const y1 = Math.min(size.height, Math.ceil((r.y + r.height - area.y) * scale));
    return x1 > x0 && y1 > y0 ? [{ x: x0, y: y0, width: x1 - x0, height: y1 - y0 }] : [];
  });
}

/**
 * The pixels that differ between two rasters of one size, anti-aliasing not counted, and the diff image (changed
 * pixels red, anti-aliased ones yellow, over the faded capture). Ignored regions take the baseline's pixels
 * first, so they never differ; the diff image outlines them.
 */
export function compareRasters(
  capture: Raster,
  baseline: Raster,
  ignore: readonly PixelRect[],
  colourTolerance: number = VISUAL_DIFF_DEFAULTS.colourTolerance,
): { diffPixels: number; diff: Raster } {
  const { width, height } = capture;
  if (baseline.width !== width || baseline.height !== height) throw new Error('rasters of different sizes');
  const current = new Uint8Array(capture.data);
  const row = width * 4;
  for (const r of ignore) {
    for (let y = r.y; y < r.y + r.height; y++) {
      const start = y * row + r.x * 4;
      current.set(baseline.data.subarray(start, start + r.width * 4), start);
    }
  }
  const diff = new Uint8Array(width * height * 4);
  const diffPixels = pixelmatch(new Uint8Array(baseline.data), current, diff, width, height, {
    threshold: colourTolerance,
    alpha: VISUAL_DIFF_DEFAULTS.fade,
    includeAA: false,
  });
  for (const r of ignore) outline(diff, width, r);
  return { diffPixels, diff: { data: diff, width, height } };
}

/** A two-pixel frame just inside the rectangle. */
function outline(data: Uint8Array, width: number, r: PixelRect): void {
  const paint = (x: number, y: number) => {
    const at = (y * width + x) * 4;
    data.set([...IGNORED_OUTLINE, 255], at);
  };
  for (let y = r.y; y < r.y + r.height; y++) {
    for (let x = r.x; x < r.x + r.width; x++) {
      const edge = x - r.x < 2 || r.x + r.width - x <= 2 || y - r.y < 2 || r.y + r.height - y <= 2;
      if (edge) paint(x, y);
    }
  }
}

export interface VisualDiffOptions {
  area: CaptureArea;
  /** A PNG file path, baseline://NAME, or base64 PNG; absent: nothing to compare (save_baseline alone). */
  baseline?: string;
  /** Percent of pixels that may differ; default VISUAL_DIFF_DEFAULTS.thresholdPercent. */
  thresholdPercent?: number;
  /** Screen areas (points) left out of the comparison. */
  ignore?: readonly Bounds[];
  /** Keep this capture as baseline://NAME for later calls in the session. */
  saveAs?: string;
  /** The folders the client declared as its roots (a baseline file must be in one); undefined: it declared none. */
  roots?: () => Promise<readonly string[] | undefined>;
  baselines: Baselines;
}

export class VisualDiffs {
  constructor(
    private readonly kernel: Kernel,
    private readonly screen: Screen,
  ) {}

  async compare(options: VisualDiffOptions, call?: CallOptions): Promise<VisualDiffResult> {
    return this.kernel.guard('compare the screen with a baseline', async () => {
      if (options.baseline === undefined && options.saveAs === undefined) {
        throw new MacpilotError({
          what: 'Nothing to compare with',
          why: 'neither a baseline nor save_baseline was given',
          next: 'give baseline (a PNG path, baseline://NAME or base64 PNG), or save_baseline to keep this capture',
          kind: 'invalid_arguments',
          concerns: ['baseline', 'save_baseline'],
        });
      }
      // The baseline is read first: a wrong one is refused before anything is captured.
      const baselinePng =
        options.baseline === undefined ? undefined : await loadBaseline(options.baseline, options);
      const started = performance.now();
      const shot = await this.screen.capture(options.area, call);
      const capture = await decodePng(shot.png, 'the capture');
      const thresholdPercent = options.thresholdPercent ?? VISUAL_DIFF_DEFAULTS.thresholdPercent;
      const saved = options.saveAs === undefined ? undefined : `${BASELINE_SCHEME}${options.saveAs}`;
      if (options.saveAs !== undefined) options.baselines.save(options.saveAs, shot.png);
      const common = {
        kind: 'visual-diff' as const,
        what: shot.what,
        bounds: shot.bounds,
        scale: shot.scale,
        captureSize: { width: capture.width, height: capture.height },
        totalPixels: capture.width * capture.height,
        thresholdPercent,
        saved,
      };
      if (!baselinePng) {
        return {
          ...common,
          compared: false,
          passed: true,
          diffPixels: 0,
          sizeMismatch: false,
          ignored: 0,
          elapsedMs: performance.now() - started,
        };
      }
      const described = describeBaseline(options.baseline as string);
      let baseline = await decodePng(baselinePng, described);
      const baselineSize = { width: baseline.width, height: baseline.height };
      const sameShape = Math.abs(baseline.width / baseline.height - capture.width / capture.height) < 0.01;
      const sizeMismatch = !sameShape;
      const regions = toPixels(options.ignore ?? [], shot.bounds, shot.scale, capture);
      // A baseline of the same shape at another scale (a screenshot scaled for a model) is scaled to match.
      if (!sizeMismatch && baseline.width !== capture.width) {
        baseline = await resizedPng(baselinePng, capture.width, capture.height);
      }
      // Shapes that differ compare nothing: every pixel counts as changed, over the faded capture.
      const { diffPixels, diff } = sizeMismatch
        ? { diffPixels: common.totalPixels, diff: compareRasters(capture, capture, []).diff }
        : compareRasters(capture, baseline, regions);
      const ignored = sizeMismatch ? 0 : regions.length;
      const image = await encodePng(diff, SCREENSHOT_DEFAULTS.maxWidth);
      const passed = !sizeMismatch && (diffPixels / common.totalPixels) * 100 <= thresholdPercent;
      return {
        ...common,
        compared: true,
        baseline: described,
        baselineSize,
        passed,
        diffPixels,
        sizeMismatch,
        ignored,
        elapsedMs: performance.now() - started,
        image: {
          data: image.png.toString('base64'),
          mimeType: 'image/png',
          width: image.width,
          height: image.height,
        },
      };
    });
  }
}

/** The baseline's PNG: from the session, a file, or base64. */
async function loadBaseline(baseline: string, o: VisualDiffOptions): Promise<Buffer> {
  if (baseline.startsWith(BASELINE_SCHEME)) {
    const name = baseline.slice(BASELINE_SCHEME.length);
    const png = o.baselines.get(name);
    if (png) return png;
    const names = o.baselines.names();
    throw new MacpilotError({
      what: `No baseline ${JSON.stringify(baseline)} in this session`,
      why:
        names.length > 0
          ? `the session's baselines are: ${names.map((n) => BASELINE_SCHEME + n).join(', ')}`
          : 'this session saved none',
      next: 'save one first with visual_diff save_baseline: NAME, or give a PNG file path or base64 PNG',
      kind: 'baseline_not_found',
      concerns: ['baseline'],
    });
  }
  if (isAbsolute(baseline) || baseline.startsWith('file://'))
    return readBaselineFile(baseline, await o.roots?.());
  const data = Buffer.from(baseline.replace(/^data:image\/png;base64,/, ''), 'base64');
  if (!data.subarray(0, 8).equals(PNG_SIGNATURE)) {
    throw new MacpilotError({
      what: 'The baseline is not a PNG image',
      why: 'it is neither baseline://NAME nor an absolute file path, and as base64 it does not decode to a PNG',
      next: 'give an absolute .png path, baseline://NAME, or the base64 of a PNG',
      kind: 'baseline_not_png',
      concerns: ['baseline'],
    });
  }
  return data;
}

function describeBaseline(baseline: string): string {
  if (baseline.startsWith(BASELINE_SCHEME) || isAbsolute(baseline) || baseline.startsWith('file://'))
    return baseline;
  return 'the base64 PNG given';
}

async function readBaselineFile(given: string, roots: readonly string[] | undefined): Promise<Buffer> {
  const refuse = (why: string, next: string, cause?: unknown) =>
    new MacpilotError(
      {
        what: `Cannot read the baseline ${JSON.stringify(given)}`,
        why,
        next,
        kind: 'baseline_unreadable',
        concerns: ['baseline'],
      },
      { cause },
    );
  let path = given;
  if (given.startsWith('file://')) {
    try {
      path = fileURLToPath(given);
    } catch (error) {
      throw refuse(
        `it is not a usable file URL (${(error as Error).message})`,
        'give an absolute path, or a file:///... URL of a file on this machine',
        error,
      );
    }
  }
  const real = await realpath(path).catch((error: unknown) => {
    throw refuse(
      'the file does not exist or cannot be reached',
      'give the path of an existing PNG file',
      error,
    );
  });
  if (roots !== undefined) {
    const inside = await Promise.all(
      roots.map(async (root) => {
        const folder = await realpath(root).catch(() => root);
        const rel = relative(folder, real);
        return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
      }),
    );
    if (!inside.includes(true)) {
      throw refuse(
        `it is outside the folders the client shared as its roots (${roots.join(', ') || 'none'})`,
        'put the baseline under one of those folders, or pass it as base64 or baseline://NAME',
      );
    }
  }
  // A device (/dev/zero) or a pipe would be read without end, a huge file all into memory.
  const info = await stat(real);
  if (!info.isFile()) throw refuse('it is not a regular file', 'give the path of a PNG file');
  if (info.size > MAX_BASELINE_FILE_BYTES) {
    throw refuse(
      `it holds ${info.size} bytes, more than the ${MAX_BASELINE_FILE_BYTES} a baseline may`,
      'give a smaller PNG (a capture of a window or region rather than of every display)',
    );
  }
  const data = await readFile(real).catch((error: unknown) => {
    throw refuse('the file cannot be read', 'check its permissions', error);
  });
  if (!data.subarray(0, 8).equals(PNG_SIGNATURE)) {
    throw refuse(
      'it is not a PNG file',
      'save baselines as PNG (take_screenshot with file_path ending in .png)',
    );
  }
  return data;
}

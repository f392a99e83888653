/**
 * Screenshots and displays: what to capture (a display, a region, an app's or a window's frame), the image an
 * agent receives (scaled for models, with the mapping back to screen points), refs drawn on it, or a file.
 */
import { stat, writeFile } from 'node:fs/promises';
import { dirname, extname, isAbsolute, join } from 'node:path';
import { MacpilotError } from '../../errors.js';
import { isCallProblem } from '../kernel/resolve.js';
import { windowsMatching } from '../kernel/window-target.js';
import type {
  AppInfo,
  Bounds,
  CaptureTarget,
  ImageFormat,
  WindowInfo,
} from '../../helper-client/protocol.js';
import { loadSharp, SCREEN_PNG } from '../../sharp.js';
import { dataNote } from '../../untrusted.js';
import { appWalkStart, type Kernel } from '../kernel/kernel.js';
import type { CallOptions } from '../../helper-client/errors.js';
import type { DisplaysResult, ScreenshotFacts } from '../kernel/results.js';
import { roleOf } from '../kernel/roles.js';
import { type Labelled, labelled, overlay } from './screen-annotate.js';
import { labelOf } from '../kernel/tree.js';
import { clip, matchTitle, plural } from '../../text.js';
import { geometry, overlaps, uncovered } from '../../bounds.js';
import type { Windows } from './windows.js';

export interface ScreenshotOptions {
  app?: string;
  /** A title (or part of it) or an index among the app's windows, or a window id from list_windows. */
  window?: string | number;
  display?: string;
  region?: Bounds;
  format?: ImageFormat;
  quality?: number;
  /** Cap on the image's long edge, in pixels. */
  maxWidth?: number;
  annotate?: boolean;
  /** Write the image here instead of returning it: absolute, in an existing folder, never overwriting. */
  filePath?: string;
  /** Paint black the windows of apps the person's app lists hide; default: the engine's setting. */
  blackOutHidden?: boolean;
}

/** What a capture covers: one of a display, a region, or an app's / a window's frame. */
export type CaptureArea = Pick<ScreenshotOptions, 'app' | 'window' | 'display' | 'region'>;

/** A lossless capture at the screen's full resolution, for comparing pixels. */
export interface Capture {
  png: Buffer;
  width: number;
  height: number;
  /** What was captured, in screen points. */
  bounds: Bounds;
  /** Image pixels per screen point. */
  scale: number;
  /** What was captured, in words: `window 0x1a "Question" of zenity (pid 42)`. */
  what: string;
}

export interface Screenshot {
  text: string;
  /** What the text says, as fields (take_screenshot's structured result). */
  facts: ScreenshotFacts;
  /** Base64; absent when the image went to a file. */
  image?: { data: string; mimeType: string };
  /** annotate: the refs drawn on the image, the app they belong to, and how image pixels map to the screen. */
  drawn?: Drawn;
}

export interface Drawn {
  /** Absent when no app was active: nothing was drawn. */
  app?: AppInfo;
  labels: Labelled[];
  /** The refs drawn, as the text lists them: `- e12 button "Save"`. */
  legend: string;
  /** Image size in pixels. */
  width: number;
  height: number;
  /** The screen area the image shows, in points, and image pixels per point. */
  bounds: Bounds;
  scale: number;
}

export const SCREENSHOT_DEFAULTS = {
  /** The long edge models take without scaling it down themselves. */
  maxWidth: 1568,
  quality: 80,
  /** What an annotation walk reads of the captured app. */
  walkDepth: 64,
  walkMaxNodes: 5_000,
} as const;
/** Files keep the full resolution unless max_width says otherwise. */
const FILE_MAX_EDGE = 16_384;
const EXTENSIONS: Record<ImageFormat, readonly string[]> = { png: ['.png'], jpeg: ['.jpg', '.jpeg'] };

/** What a capture covers, in words, and the app whose refs an annotation draws (looked up only then). */
interface Subject {
  target: CaptureTarget;
  what: string;
  app: () => Promise<AppInfo | undefined>;
  /** A window's capture: the frames of the windows of other apps in front of it that overlap it. */
  covering?: Bounds[];
}

/** A window kept from agents, as the parts of it on screen that its pixels show. */
interface HiddenArea {
  pieces: Bounds[];
  /** It is the person's own (macpilot's console): painted black in every screenshot. */
  personsOwn: boolean;
}

export class Screen {
  /**
   * `blackOutHidden`: paint black, in every capture, the windows of apps the person's app lists hide (their
   * pixels would show what the lists keep from agents); a screenshot may ask otherwise.
   */
  constructor(
    private readonly kernel: Kernel,
    private readonly windows: Windows,
    private readonly blackOutHidden = false,
  ) {}

  async listDisplays(call?: CallOptions): Promise<DisplaysResult> {
    return this.kernel.guard('list the displays', async () => ({
      kind: 'displays',
      displays: await this.kernel.displays.list(call),
    }));
  }

  async take(options: ScreenshotOptions, call?: CallOptions): Promise<Screenshot> {
    return this.kernel.guard('take a screenshot', async () => {
      const file =
        options.filePath === undefined ? undefined : await checkFile(options.filePath, options.format);
      const format = options.format ?? file?.format ?? 'png';
      const subject = await this.subject(options, call);
      const maxLongEdge = options.maxWidth ?? (file ? FILE_MAX_EDGE : SCREENSHOT_DEFAULTS.maxWidth);
      const quality = options.quality ?? SCREENSHOT_DEFAULTS.quality;
      const blackOutAll = options.blackOutHidden ?? this.blackOutHidden;
      // A window captured alone (macOS) holds no other window's pixels.
      const alone = 'window' in subject.target && (await this.kernel.platform(call)) === 'darwin';
      const areas = alone ? [] : await this.hiddenAreas(call);
      // The console's windows are painted black whatever was asked: they are the person's.
      const mayPaint = areas.some((area) => blackOutAll || area.personsOwn);
      // Annotations and black areas are drawn on a lossless image, then encoded once in the format asked for.
      const captureFormat = options.annotate || mayPaint ? 'png' : format;
      const shot = await this.kernel.port.call(
        'screen.capture',
        { target: subject.target, format: captureFormat, quality, maxLongEdge },
        call,
      );
      const inShot = areas.filter((area) => area.pieces.some((piece) => overlaps(piece, shot.bounds)));
      const toPaint = inShot.filter((area) => blackOutAll || area.personsOwn);
      // The helper's base64 goes out as it came, unless something is drawn on the image.
      let base64 = shot.data;
      let legend = '';
      let drawn: Drawn | undefined;
      const covered =
        toPaint.length > 0
          ? await paintBlack(
              shot,
              toPaint.flatMap((area) => area.pieces),
            )
          : undefined;
      if (options.annotate) {
        const png = covered ?? Buffer.from(shot.data, 'base64');
        const annotated = await this.annotated(png, shot, subject, format, quality, call);
        base64 = annotated.data.toString('base64');
        legend = `\n${annotated.legend}`;
        drawn = annotated.drawn;
      } else if (covered) {
        base64 = (await encode(covered, format, quality)).toString('base64');
      }
      const consoleIn = inShot.filter((area) => area.personsOwn).length;
      const listsIn = inShot.length - consoleIn;
      const listsPainted = blackOutAll ? listsIn : 0;
      const listsShown = listsIn - listsPainted;
      const hiddenNote = [
        listsPainted > 0
          ? `${plural(listsPainted, 'window')} of apps the person's app lists hide ${listsPainted === 1 ? 'is' : 'are'} painted black.`
          : '',
        listsShown > 0
          ? `${plural(listsShown, 'window')} of apps the person's app lists hide may show in its pixels (black_out_hidden: true paints them black).`
          : '',
        consoleIn > 0 ? "macpilot's console, the person's own, is painted black." : '',
      ]
        .filter(Boolean)
        .map((note) => ` ${note}`)
        .join('');
      // Linux reads the screen's pixels over the window's area; macOS captures the window alone.
      const coveredBy = (await this.coveringPixels(subject, call)).length;
      const coveredNote =
        coveredBy > 0
          ? ` ${plural(coveredBy, 'window')} of other apps ${coveredBy === 1 ? 'is' : 'are'} in front of it and show${coveredBy === 1 ? 's' : ''} in its pixels (focus_window brings it to the front).`
          : '';
      const head =
        `${shot.width}x${shot.height} ${format.toUpperCase()} of ${subject.what}, screen area ${geometry(shot.bounds)}, ` +
        `scale ${round(shot.scale)} image ${shot.scale === 1 ? 'pixel' : 'pixels'} per screen point. ${toScreen(shot)}${coveredNote}${hiddenNote}`;
      const facts: ScreenshotFacts = {
        width: shot.width,
        height: shot.height,
        format,
        of: subject.what,
        area: shot.bounds,
        scale: shot.scale,
        hiddenWindows: inShot.length,
        paintedBlack: covered !== undefined,
        coveredBy,
        annotated: drawn?.labels.length ?? 0,
      };
      if (file) {
        const data = Buffer.from(base64, 'base64');
        await writeNew(file.path, data);
        return {
          text: `Saved a ${head}\nFile: ${file.path} (${kilobytes(data.length)})${legend}`,
          facts: { ...facts, file: file.path, bytes: data.length },
        };
      }
      return {
        text: `Screenshot: ${head}${legend}`,
        facts,
        image: { data: base64, mimeType: `image/${format}` },
        ...(drawn ? { drawn } : {}),
      };
    });
  }

  /**
   * The area as a PNG at full resolution (not scaled for a model): what text recognition and pixel comparisons
   * read. Windows of apps the person's lists hide are always painted black here: reading their text is reading
   * the app.
   */
  async capture(area: CaptureArea, call?: CallOptions): Promise<Capture> {
    const subject = await this.subject(area, call);
    const shot = await this.kernel.port.call(
      'screen.capture',
      { target: subject.target, format: 'png', quality: 100, maxLongEdge: FILE_MAX_EDGE },
      call,
    );
    const { width, height, bounds, scale } = shot;
    const inShot = (await this.hiddenAreas(call)).filter((area) =>
      area.pieces.some((piece) => overlaps(piece, bounds)),
    );
    // Text read from a window is that app's text: what other apps' windows in front show over it is left out.
    const covering = await this.coveringPixels(subject, call);
    const hiddenShare = covering.length > 0 ? coveredShare(bounds, covering) : 0;
    if (hiddenShare >= 1) throw coveredWhole(subject.what);
    const pieces = [...inShot.flatMap((area) => area.pieces), ...covering];
    const png = pieces.length > 0 ? await paintBlack(shot, pieces) : Buffer.from(shot.data, 'base64');
    // Said with what was read, so that an agent does not take a blacked-out window for an empty area.
    const lists = inShot.filter((area) => !area.personsOwn).length;
    const painted = [
      lists > 0
        ? `${plural(lists, 'window')} of apps the person's app lists hide ${lists === 1 ? 'is' : 'are'} painted black`
        : '',
      lists < inShot.length ? "macpilot's console, the person's own, is painted black" : '',
      covering.length > 0
        ? `${plural(covering.length, 'window')} of other apps in front of it ${covering.length === 1 ? 'is' : 'are'} painted black, ${percent(hiddenShare)} of it (focus_window brings it to the front)`
        : '',
    ].filter(Boolean);
    const what = painted.length === 0 ? subject.what : `${subject.what} (where ${painted.join('; ')})`;
    return { png, width, height, bounds, scale, what };
  }

  /**
   * The windows on screen whose apps the person's app lists hide, and those that are the person's own (macpilot's
   * console): each as the parts of its frame, in screen points, that no window in front of it covers (what its
   * pixels can show), with whether it is the person's own. Windows covered whole are left out.
   */
  private async hiddenAreas(call?: CallOptions): Promise<HiddenArea[]> {
    const { every, hidden, personsOwn } = await this.kernel.resolver.visibleWindows(false, call);
    const onScreen = every.filter((w) => !w.minimized);
    return hidden
      .filter((w) => !w.minimized)
      .map((w) => ({
        pieces: uncovered(
          w.bounds,
          onScreen.slice(0, onScreen.indexOf(w)).map((front) => front.bounds),
        ),
        personsOwn: personsOwn.includes(w),
      }))
      .filter((area) => area.pieces.length > 0);
  }

  /** The frames of other apps' windows whose pixels show in a window's capture: on Linux, which reads the screen. */
  private async coveringPixels(subject: Subject, call?: CallOptions): Promise<Bounds[]> {
    if (!subject.covering?.length) return [];
    return (await this.kernel.platform(call)) === 'linux' ? subject.covering : [];
  }

  // --- what to capture ---

  private async subject(options: CaptureArea, call?: CallOptions): Promise<Subject> {
    const { region, display } = options;
    const byWindow = options.app !== undefined || options.window !== undefined;
    if ([region !== undefined, display !== undefined, byWindow].filter(Boolean).length > 1) {
      throw new MacpilotError({
        what: 'More than one thing to capture was named',
        why: 'a screenshot covers one of: a region, a display, or an app / window',
        next: 'give only one of region, display, or app (with window)',
        kind: 'invalid_arguments',
      });
    }
    if (region) {
      await this.kernel.displays.overlapping(region, call);
      return { target: { region }, what: `the region ${geometry(region)}`, app: () => this.activeApp(call) };
    }
    if (byWindow) return this.windowSubject(options.app, options.window, call);
    const displays = await this.kernel.displays.list(call);
    const chosen =
      display === undefined ? displays.find((d) => d.primary) : displays.find((d) => d.id === display);
    if (!chosen) {
      throw new MacpilotError({
        what: `No display ${JSON.stringify(display)}`,
        kind: 'display_not_found',
        concerns: ['display'],
        why: `the displays are: ${displays.map((d) => d.id).join(', ') || 'none'}`,
        next: 'use an id from list_displays, or leave display out for the primary display',
        person: {
          next: 'give --display an id `macpilot displays` lists, or leave --display out for the primary display',
        },
      });
    }
    return {
      target: { display: chosen.id },
      what: `display ${JSON.stringify(chosen.id)}`,
      app: () => this.activeApp(call),
    };
  }

  /** The app annotations walk when the capture names none; none when no app is active. */
  private async activeApp(call?: CallOptions): Promise<AppInfo | undefined> {
    return this.kernel.resolver.app(undefined, call).catch(() => undefined);
  }

  private async windowSubject(
    appName: string | undefined,
    wanted: string | number | undefined,
    call?: CallOptions,
  ): Promise<Subject> {
    const app = appName === undefined ? undefined : await this.kernel.resolver.app(appName, call);
    const found = await this.window(app, wanted, call);
    if (found) {
      const { window, windows } = found;
      if (window.minimized) {
        throw new MacpilotError({
          what: `The window ${window.id} ${JSON.stringify(clip(window.title, 80))} is minimized`,
          why: 'a minimized window is not on screen',
          next: 'restore it with restore_window, then call again',
          kind: 'window_minimized',
          person: { next: 'restore the window (from the task bar or its app), then run the command again' },
        });
      }
      return {
        target: { window: window.id },
        what: `window ${window.id} ${JSON.stringify(clip(window.title, 80))} of ${window.app} (pid ${window.pid})`,
        app: async () => app ?? this.kernel.resolver.appOf(window.pid, call).catch(() => undefined),
        covering: inFrontOf(window, windows),
      };
    }
    // No window manager list: the app's top-level frame from the accessibility tree, captured as a region.
    const target = app ?? (await this.kernel.resolver.app(undefined, call));
    return this.frameSubject(target, wanted, call);
  }

  /**
   * The window named, with the windows listed (front to back, minimized ones included), from the window
   * manager's list; undefined when there is no list (no window manager).
   */
  private async window(
    app: AppInfo | undefined,
    wanted: string | number | undefined,
    call?: CallOptions,
  ): Promise<{ window: WindowInfo; windows: WindowInfo[] } | undefined> {
    const { windows, hidden } = await this.kernel.resolver.visibleWindows(true, call);
    if (windows.length === 0 && hidden.length === 0) return undefined;
    // A window id list_windows shows as digits may come as a JSON number: taken as the id where one is listed.
    const byId = windows.find((w) => w.id === (typeof wanted === 'number' ? String(wanted) : wanted));
    if (byId) return { window: byId, windows };
    const scope = app === undefined ? {} : { app: String(app.pid) };
    // A title, else an index (a number past every window's index is an id); the front-most window of the app
    // when neither is given. Digits no window's title holds are an id no window has (said so, not as a title).
    const unknownId =
      typeof wanted === 'string' &&
      /^\d+$/.test(wanted) &&
      windowsMatching(windows, { title: wanted }).length === 0;
    const named =
      typeof wanted === 'string'
        ? unknownId
          ? { id: wanted }
          : { ...scope, title: wanted }
        : wanted !== undefined && wanted >= windows.length + hidden.length
          ? { id: String(wanted) }
          : { ...scope, index: wanted ?? 0 };
    try {
      return { window: await this.windows.resolve(named, call), windows };
    } catch (error) {
      // The id of a window the lists keep from the call (as text or as a number) is refused in the words of one
      // no title matches.
      if (wanted !== undefined && error instanceof MacpilotError && !isCallProblem(error)) {
        await this.kernel.resolver.refuseDeniedWindow(String(wanted), error, call);
      }
      // An app with no window at all is said so, by its name (the look-up went by its pid).
      if (
        app !== undefined &&
        wanted === undefined &&
        error instanceof MacpilotError &&
        error.kind === 'window_not_found' &&
        !windows.some((w) => w.pid === app.pid)
      ) {
        throw new MacpilotError({
          what: `${JSON.stringify(app.name)} (pid ${app.pid}) has no window to capture`,
          why: 'the window manager lists no window of it (it may run in the background, or in the tray only)',
          next: 'take a screenshot of the screen or of a region instead',
          kind: 'window_not_found',
          concerns: ['app'],
          person: { next: 'capture the whole screen (leave out --app), or a --region' },
        });
      }
      // The call named the window by its own argument, `window`.
      if (error instanceof MacpilotError && error.kind.startsWith('window_'))
        throw error.concerning(['window']);
      throw error;
    }
  }

  private async frameSubject(
    app: AppInfo,
    wanted: string | number | undefined,
    call?: CallOptions,
  ): Promise<Subject> {
    const frames = await this.kernel.resolver.children(app.id, false, call);
    const picked =
      typeof wanted === 'string'
        ? matchTitle(frames, (f) => f.name, wanted)
        : frames.slice(wanted ?? 0, (wanted ?? 0) + 1);
    const frame = picked[0];
    const bounds =
      frame &&
      (await this.kernel.port.call('ax.element', { id: frame.id, maxValueLength: 0 }, call)).element.bounds;
    if (!frame || !bounds) {
      throw new MacpilotError({
        what: `No window of "${app.name}" to capture${wanted === undefined ? '' : ` matches ${JSON.stringify(wanted)}`}`,
        why: `its windows on screen are: ${frames.map((f, i) => `[${i}] ${labelOf(roleOf(f), f.name)}`).join(', ') || 'none'}`,
        next: 'name a window by a title or index it has, or capture a region or the display',
        kind: 'window_not_found',
        concerns: ['window'],
      });
    }
    return {
      target: { region: bounds },
      what: `${labelOf(roleOf(frame), frame.name)} of "${app.name}" (pid ${app.pid})`,
      app: async () => app,
    };
  }

  // --- annotation ---

  private async annotated(
    png: Buffer,
    shot: { width: number; height: number; bounds: Bounds; scale: number },
    subject: Subject,
    format: ImageFormat,
    quality: number,
    call?: CallOptions,
  ): Promise<{ data: Buffer; legend: string; drawn: Drawn }> {
    const app = await subject.app();
    const found = app ? await this.labels(app, shot.bounds, call) : undefined;
    const svg = overlay(found?.shown ?? [], shot, shot.bounds, shot.scale);
    const sharp = await loadSharp();
    const image = sharp(png).composite([{ input: Buffer.from(svg), top: 0, left: 0 }]);
    const data = await encoded(image, format, quality);
    const mapping = { width: shot.width, height: shot.height, bounds: shot.bounds, scale: shot.scale };
    if (!app || !found) {
      return {
        data,
        legend: 'No app is active: no refs drawn.',
        drawn: { labels: [], legend: '', ...mapping },
      };
    }
    const { shown, total } = found;
    const cut =
      shown.length < total ? ` (the first ${shown.length} of ${total}: interactive elements first)` : '';
    const lines = shown.map(({ node }) => `- ${node.ref} ${labelOf(node.role, node.info.name)}`).join('\n');
    return {
      data,
      legend:
        `Refs drawn for "${app.name}"${cut}; use them with click_element, get_element and the other ui tools ` +
        `${dataNote()}:\n${lines || '(no visible named or interactive elements)'}`,
      drawn: { app, labels: shown, legend: lines, ...mapping },
    };
  }

  /** The app's elements to label in `area`, walked with bounds; their refs are the session's refs. */
  private async labels(app: AppInfo, area: Bounds, call?: CallOptions) {
    const limits = {
      depth: SCREENSHOT_DEFAULTS.walkDepth,
      maxNodes: SCREENSHOT_DEFAULTS.walkMaxNodes,
      includeHidden: false,
      maxValueLength: 0,
      includeBounds: true,
    };
    const { tree } = await this.kernel.walk(
      appWalkStart(app, this.kernel.resolver.rootPath(app)),
      limits,
      call,
    );
    return labelled(tree, area);
  }
}

const round = (n: number): number => Math.round(n * 10000) / 10000;

type SharpImage = ReturnType<Awaited<ReturnType<typeof loadSharp>>>;

const encoded = (image: SharpImage, format: ImageFormat, quality: number): Promise<Buffer> =>
  (format === 'png' ? image.png(SCREEN_PNG) : image.jpeg({ quality })).toBuffer();

async function encode(png: Buffer, format: ImageFormat, quality: number): Promise<Buffer> {
  return encoded((await loadSharp())(png), format, quality);
}

/** The share of `area` that `covers` hide, from 0 to 1. */
function coveredShare(area: Bounds, covers: readonly Bounds[]): number {
  const size = (b: Bounds) => b.width * b.height;
  if (size(area) === 0) return 0;
  const shown = uncovered(area, covers).reduce((sum, piece) => sum + size(piece), 0);
  return 1 - shown / size(area);
}

/** Some of a share, in words: "37%", never "0%" or "100%" for a part. */
const percent = (share: number): string =>
  `${share > 0 && share < 0.01 ? '<1' : share > 0.99 && share < 1 ? '>99' : Math.round(share * 100)}%`;

/** A window other apps' windows cover whole: its pixels are theirs, and none of it can be read or compared. */
const coveredWhole = (what: string) =>
  new MacpilotError({
    what: `Nothing of ${what} is on screen`,
    why: "other apps' windows in front of it cover it whole, and what the screen shows there is theirs",
    next: 'bring it to the front with focus_window, then call again',
    kind: 'window_covered',
    person: { next: 'bring the window to the front, then run the command again' },
  });

/** A capture's PNG with `areas` (screen points) painted black, clipped to the image. */
async function paintBlack(
  shot: { data: string; width: number; height: number; bounds: Bounds; scale: number },
  areas: readonly Bounds[],
): Promise<Buffer> {
  const sharp = await loadSharp();
  const boxes = areas.flatMap((area) => {
    const left = Math.max(0, Math.floor((area.x - shot.bounds.x) * shot.scale));
    const top = Math.max(0, Math.floor((area.y - shot.bounds.y) * shot.scale));
    const right = Math.min(shot.width, Math.ceil((area.x + area.width - shot.bounds.x) * shot.scale));
    const bottom = Math.min(shot.height, Math.ceil((area.y + area.height - shot.bounds.y) * shot.scale));
    if (right <= left || bottom <= top) return [];
    const create = { width: right - left, height: bottom - top, channels: 3 as const, background: 'black' };
    return [{ input: { create }, left, top }];
  });
  return sharp(Buffer.from(shot.data, 'base64')).composite(boxes).png(SCREEN_PNG).toBuffer();
}
const kilobytes = (bytes: number): string => `${Math.max(1, Math.round(bytes / 1024))} KB`;

/** How many windows on screen, of other apps, are in front of `window` and overlap it (`windows`: front to back). */
function inFrontOf(window: WindowInfo, windows: readonly WindowInfo[]): Bounds[] {
  const at = windows.findIndex((w) => w.id === window.id);
  return windows
    .slice(0, Math.max(at, 0))
    .filter((w) => !w.minimized && w.pid !== window.pid && overlaps(w.bounds, window.bounds))
    .map((w) => w.bounds);
}

/** The file's path and format, checked before anything is captured. */
async function checkFile(
  path: string,
  format: ImageFormat | undefined,
): Promise<{ path: string; format: ImageFormat }> {
  // A path of the wrong form is the call's mistake; what is (or is not) on the disk there is the disk's state.
  const refuse = (
    why: string,
    next: string,
    kind: 'invalid_arguments' | 'file_unusable' = 'invalid_arguments',
  ) =>
    new MacpilotError({
      what: `Cannot save the screenshot to ${JSON.stringify(path)}`,
      why,
      next,
      kind,
      concerns: ['file_path'],
    });
  if (!isAbsolute(path))
    throw refuse('the path is not absolute', 'give an absolute path, e.g. /tmp/shot.png');
  const isFolder = await stat(path).then(
    (found) => found.isDirectory(),
    () => false,
  );
  if (isFolder || path.endsWith('/')) {
    throw refuse('it is a folder', `give the path of a new file in it, e.g. ${join(path, 'screenshot.png')}`);
  }
  const extension = extname(path).toLowerCase();
  const byExtension = (Object.keys(EXTENSIONS) as ImageFormat[]).find((f) =>
    EXTENSIONS[f].includes(extension),
  );
  if (!byExtension) {
    throw refuse(
      extension === ''
        ? 'it has no extension to tell the format'
        : `screenshots are PNG or JPEG, not ${extension}`,
      'end the path with .png, .jpg or .jpeg',
    );
  }
  if (format !== undefined && format !== byExtension) {
    throw refuse(
      `its extension is ${extension}, and the format asked is ${format}`,
      `end the path with ${EXTENSIONS[format].join(' or ')}, or leave format out`,
    );
  }
  const folder = await stat(dirname(path)).catch((error: NodeJS.ErrnoException) => error.code ?? 'ENOENT');
  if (typeof folder === 'string' || !folder.isDirectory()) {
    throw refuse(
      typeof folder !== 'string'
        ? `${dirname(path)} is a file, not a folder`
        : folder === 'ENOTDIR'
          ? 'a file stands where one of its folders should be'
          : 'its folder does not exist',
      'save into an existing folder',
      'file_unusable',
    );
  }
  if (
    await stat(path).then(
      () => true,
      () => false,
    )
  ) {
    throw refuse(
      'a file is already there, and screenshots never overwrite files',
      'choose a new file name',
      'file_unusable',
    );
  }
  return { path, format: byExtension };
}

async function writeNew(path: string, data: Buffer): Promise<void> {
  try {
    // A screenshot may show what the person would not share: readable by its owner only, as the audit log is.
    await writeFile(path, data, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new MacpilotError(
      {
        what: `Cannot save the screenshot to ${JSON.stringify(path)}`,
        why:
          code === 'EEXIST'
            ? 'a file appeared there meanwhile; screenshots never overwrite files'
            : String(error),
        next: code === 'EEXIST' ? 'choose a new file name' : 'check that the folder is writable',
        kind: 'file_unusable',
        concerns: ['file_path'],
      },
      { cause: error },
    );
  }
}

/** How an image point maps to the screen, in the fewest words that are exact. */
function toScreen(shot: { scale: number; bounds: { x: number; y: number } }): string {
  const scaled = shot.scale === 1 ? 'image' : `image / ${round(shot.scale)}`;
  const moved = shot.bounds.x === 0 && shot.bounds.y === 0 ? '' : ` + (${shot.bounds.x}, ${shot.bounds.y})`;
  if (scaled === 'image' && moved === '') return 'Image points are screen points.';
  return `To map an image point to the screen: screen = ${scaled}${moved}.`;
}

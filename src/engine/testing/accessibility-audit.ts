/**
 * audit_accessibility: gathers what the rules of audit-rules.ts read (the scope walked with bounds, the screen's
 * pixels over it, and a Tab tour of its window, watching focus events) and answers their issues with a score.
 */
import { MacpilotError } from '../../errors.js';
import type { CallOptions } from '../../helper-client/errors.js';
import type { Bounds } from '../../helper-client/protocol.js';
import {
  auditScore,
  checkedElements,
  readTour,
  runRules,
  type TabTour,
  tabStops,
  textContrasts,
} from './accessibility-rules.js';
import type { Elements } from '../features/elements.js';
import type { Input } from '../features/input.js';
import type { Kernel, WalkStart } from '../kernel/kernel.js';
import { pause } from '../kernel/observer.js';
import type { AuditResult, Level } from '../kernel/results.js';
import type { Screen } from '../features/screen.js';
import { type Walked, walk } from '../kernel/tree.js';
import { decodePng } from './raster.js';

export const AUDIT_SCOPES = ['window', 'focused_window', 'ref'] as const;
export type AuditScope = (typeof AUDIT_SCOPES)[number];
export const AUDIT_STANDARDS = ['wcag_a', 'wcag_aa', 'wcag_aaa'] as const;
export type AuditStandard = (typeof AUDIT_STANDARDS)[number];

export interface AuditOptions {
  app?: string;
  /** Default focused_window. */
  scope?: AuditScope;
  /** scope window: a title (or part of it) or an index among the app's windows; default 0. */
  window?: string | number;
  /** scope ref: the element whose subtree is audited. */
  ref?: string;
  /** Default wcag_aa; the highest level given is the one checked. */
  standards?: readonly AuditStandard[];
  /** Tab through the window (default true). */
  keyboard?: boolean;
  /** Measure text contrast on a capture (default true). */
  contrast?: boolean;
  /** Called as the audit advances: steps done of all. */
  progress?: (done: number, total: number, message: string) => void;
}

export const AUDIT_DEFAULTS = {
  walkDepth: 64,
  walkMaxNodes: 5_000,
  /** Tab presses at most: twice the Tab stops, plus a few, up to this. */
  maxPresses: 200,
  /** How long a Tab press may take to move focus to another element. */
  focusWaitMs: 500,
  /** Between looks at the focus when the app reports no changes. */
  focusPollMs: 50,
} as const;

const LEVEL_OF: Record<AuditStandard, Level> = { wcag_a: 'A', wcag_aa: 'AA', wcag_aaa: 'AAA' };

export class Audits {
  constructor(
    private readonly kernel: Kernel,
    private readonly elements: Elements,
    private readonly screen: Screen,
    private readonly input: Input,
  ) {}

  async audit(options: AuditOptions, call?: CallOptions): Promise<AuditResult> {
    return this.kernel.guard('audit accessibility', async () => {
      const started = performance.now();
      const report = options.progress ?? (() => {});
      const levels = (options.standards ?? ['wcag_aa']).map((s) => LEVEL_OF[s]);
      const level: Level = levels.includes('AAA') ? 'AAA' : levels.includes('AA') ? 'AA' : 'A';
      const { start, title } = await this.scope(options, call);
      report(0, 3, `walking ${title}`);
      const limits = {
        depth: AUDIT_DEFAULTS.walkDepth,
        maxNodes: AUDIT_DEFAULTS.walkMaxNodes,
        includeHidden: false,
        maxValueLength: 0,
        includeBounds: true,
      };
      const { tree: root } = await this.kernel.walk(start, limits, call);
      const area = sized(root.info.bounds) ? root.info.bounds : undefined;
      report(1, 3, 'measuring text contrast');
      const pixels =
        options.contrast !== false && level !== 'A' && area ? await this.pixels(area, call) : undefined;
      const keyboard =
        options.keyboard === false
          ? { skipped: 'keyboard: false was given' }
          : await this.keyboard(options.scope ?? 'focused_window', root, report, call);
      const tour = 'tour' in keyboard ? keyboard.tour : undefined;
      const skipped = 'skipped' in keyboard ? keyboard.skipped : '';
      const issues = runRules({ root, level, area, pixels, tour });
      const checked = checkedElements(root);
      report(3, 3, 'done');
      return {
        kind: 'audit',
        title,
        level,
        issues,
        score: auditScore(issues, checked),
        checked,
        contrastMeasured: pixels && textContrasts(root, pixels).length,
        keyboard: tour ? { presses: tour.stops.length, complete: readTour(tour).complete } : { skipped },
        elapsedMs: performance.now() - started,
      };
    });
  }

  /** Where the walk starts: the ref, the window named, or the app's active window. */
  private async scope(
    options: AuditOptions,
    call?: CallOptions,
  ): Promise<{ start: WalkStart; title: string }> {
    const scope = options.scope ?? 'focused_window';
    if (scope === 'ref') {
      if (options.ref === undefined) {
        throw new MacpilotError({
          what: 'No element to audit',
          why: 'scope "ref" audits the subtree of the element given as ref, and no ref was given',
          next: 'give ref (from snapshot_ui or find_elements), or use scope "window" or "focused_window"',
          kind: 'invalid_arguments',
          concerns: ['ref'],
        });
      }
      return this.elements.start({ ref: options.ref }, call);
    }
    const app = await this.kernel.resolver.app(options.app, call);
    let window = options.window ?? 0;
    if (scope === 'focused_window') {
      const windows = await this.kernel.resolver.children(app.id, false, call);
      const active = windows.findIndex((w) => w.states.includes('active'));
      if (windows.length === 0) {
        throw new MacpilotError({
          what: `"${app.name}" has no window to audit`,
          why: 'it shows no window on screen',
          next: 'open one of its windows, or audit a ref',
          kind: 'window_not_found',
        });
      }
      window = Math.max(0, active);
    }
    return this.elements.start({ app: String(app.pid), window }, call);
  }

  private async pixels(area: Bounds, call?: CallOptions) {
    const shot = await this.screen.capture({ region: area }, call);
    return { raster: await decodePng(shot.png, 'the capture'), bounds: shot.bounds, scale: shot.scale };
  }

  /** The Tab tour, or why there is none: it needs the audited window in front with keyboard focus. */
  private async keyboard(
    scope: AuditScope,
    root: Walked,
    report: NonNullable<AuditOptions['progress']>,
    call?: CallOptions,
  ): Promise<{ tour: TabTour } | { skipped: string }> {
    if (scope === 'ref')
      return { skipped: 'a ref is audited, not a window: Tab moves through whole windows' };
    if (!root.info.states.includes('active')) {
      return {
        skipped:
          'the window is not the active one, and Tab presses go to the active window; bring it to the front first (focus_window)',
      };
    }
    return { tour: await this.tour(root, report, call) };
  }

  /**
   * The element focused once a Tab press has moved focus: read after each change the app reports (polled when it
   * reports none) until focus is on an element other than `previous`; what is focused at the time limit
   * otherwise (the same element: Tab did not move focus). Focus passes through "nothing" between two elements.
   */
  private async moved(
    pid: number,
    before: number,
    previous: Walked | undefined,
    events: boolean,
    focused: () => Promise<Walked | undefined>,
    call?: CallOptions,
  ): Promise<Walked | undefined> {
    const { observer } = this.kernel;
    const deadline = performance.now() + AUDIT_DEFAULTS.focusWaitMs;
    let counter = before;
    for (;;) {
      const left = deadline - performance.now();
      if (events) {
        await observer.waitForChange(pid, {
          sinceCounter: counter,
          timeoutMs: Math.max(0, left),
          signal: call?.signal,
        });
        counter = observer.counter(pid);
      } else {
        await pause(Math.max(0, Math.min(left, AUDIT_DEFAULTS.focusPollMs)), call?.signal);
      }
      const now = await focused();
      if ((now && now.ref !== previous?.ref) || performance.now() >= deadline) return now;
    }
  }

  /**
   * Presses Tab (Ctrl+Tab out of a multi-line text, where Tab types a tab) until focus comes back to an element
   * it reached before, reading the focused element after each press once the app reports the change; focus is
   * put back where it was at the end.
   */
  private async tour(
    root: Walked,
    report: NonNullable<AuditOptions['progress']>,
    call?: CallOptions,
  ): Promise<TabTour> {
    const { observer, port, resolver } = this.kernel;
    const pid = root.info.pid;
    const events = await observer.available();
    // Elements of the walk are known by handle; only focus outside it is located (a path read upwards).
    const walked = new Map([...walk(root)].map((node) => [node.info.id, node]));
    const focused = async (): Promise<Walked | undefined> => {
      const { element } = await port.call('ax.focused', { pid }, call);
      if (!element) return undefined;
      return walked.get(element.id) ?? (await resolver.locate(element, call));
    };
    const first = await focused();
    const seen = new Map<string, Walked>(first ? [[first.ref, first]] : []);
    const stops: (string | undefined)[] = [];
    const presses = Math.min(AUDIT_DEFAULTS.maxPresses, tabStops(root).length * 2 + 4);
    const order = new Set<string | undefined>([first?.ref]);
    let current = first;
    let finished = false;
    try {
      for (let i = 0; i < presses; i++) {
        const inText = current !== undefined && typesTab(current);
        const before = observer.counter(pid);
        await this.input.tap(inText ? 'ctrl+Tab' : 'Tab', call);
        current = await this.moved(pid, before, current, events, focused, call);
        if (current) seen.set(current.ref, current);
        stops.push(current?.ref);
        report(1 + (i + 1) / presses, 3, `Tab ${i + 1}: ${current ? current.role : 'nothing'} focused`);
        // Back at an element met before: focus has gone round (the whole window, or a loop).
        if (current && order.has(current.ref)) break;
        order.add(current?.ref);
      }
      finished = true;
    } finally {
      // Also when the tour failed or was cancelled (a press may have moved focus since it was read), and
      // without the call's signal, which may be what ended it.
      if (first && (!finished || current?.ref !== first.ref)) {
        await port.call('ax.focus', { id: first.info.id }).catch(() => {});
      }
    }
    return { start: first?.ref, stops, seen };
  }
}

/** A multi-line text or a terminal: Tab there types a tab, and Ctrl+Tab moves focus on. */
const typesTab = (node: Walked): boolean =>
  node.role === 'textbox' &&
  (node.info.states.includes('multiline') || node.info.nativeRole.toLowerCase() === 'terminal');

const sized = (b: Bounds | undefined): b is Bounds => b !== undefined && b.width > 0 && b.height > 0;

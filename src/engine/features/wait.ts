/**
 * wait_for: wait until a condition about an app's UI holds. The condition is looked at again whenever the app
 * reports a change (observe.changed), on a timer when it reports none; the wait ends when the condition holds,
 * at the timeout (with what was last seen), or when the request is cancelled.
 */
import { MacpilotError } from '../../errors.js';
import type { AppInfo, ElementDetail } from '../../helper-client/protocol.js';
import { isAppNotFound, isGone } from '../kernel/failures.js';
import { FIND_DEFAULTS, findMatches, type Query } from '../reading/find.js';
import { appWalkStart, type Kernel, type Target } from '../kernel/kernel.js';
import { isCallProblem } from '../kernel/resolve.js';
import { pause } from '../kernel/observer.js';
import type { CallOptions } from '../../helper-client/errors.js';
import type { RefEntry } from '../kernel/refs.js';
import { parseRole, roleOf } from '../kernel/roles.js';
import type { WaitResult } from '../kernel/results.js';
import { capitalize, clip, duration, matchTitle, plural } from '../../text.js';
import { isSecure, type Walked } from '../kernel/tree.js';
import { WAIT_DEFAULTS, type WaitCondition } from './wait-conditions.js';
import {
  appText,
  appWords,
  entryWords,
  mention,
  own,
  plainText,
  words,
  type Words,
} from '../kernel/words.js';

export interface WaitOptions {
  condition: WaitCondition;
  app?: string;
  ref?: string;
  path?: string;
  /** value_*: the value; text_appears and window_title: the text; appears / disappears: text of a query. */
  text?: string;
  /** appears / disappears: role and name of a query. */
  role?: string;
  name?: string;
  timeoutMs?: number;
  /** app_idle: how long the app must go without a change. */
  idleMs?: number;
}

/** Values are read up to this length for value_equals / value_contains. */
const VALUE_CHARS = 100_000;
const SHOWN_CHARS = 80;
const WALK_VALUE_CHARS = 1_000;

/** One look at the UI. */
export interface Look {
  met: boolean;
  /** What was seen: the element on success, the last state on timeout. */
  seen: Words;
  /** The element the condition is about, when one was seen. */
  element?: Walked;
  /** The app looked at, when known: its changes prompt the next look. */
  pid?: number;
}

export type Probe<L extends Look = Look> = (call?: CallOptions) => Promise<L>;

export type Found =
  | { entry: RefEntry; detail: ElementDetail }
  /** Why it is not there; `label` names the element when it was known (by ref). */
  | { missing: string; label?: Words; pid?: number };

const quote = (text: string) => JSON.stringify(clip(text, SHOWN_CHARS));

const idleWords = (app: AppInfo): Words => words`${appWords(app)} is idle.`;

const elapsed = (started: number) => duration(performance.now() - started);

export class Waits {
  constructor(private readonly kernel: Kernel) {}

  async waitFor(options: WaitOptions, call?: CallOptions): Promise<WaitResult> {
    const awaited = describeWait(options);
    return this.kernel.guard(`wait for ${awaited}`, async () => {
      const timeoutMs = options.timeoutMs ?? WAIT_DEFAULTS.timeoutMs;
      if (!(timeoutMs >= 0 && timeoutMs <= WAIT_DEFAULTS.maxTimeoutMs)) {
        const most = WAIT_DEFAULTS.maxTimeoutMs;
        throw invalid(
          options.condition,
          `timeout_ms must be between 0 and ${most}`,
          `--timeout must be between 0 and ${most}`,
        );
      }
      const started = performance.now();
      const { condition } = options;
      const last =
        condition === 'app_idle'
          ? await this.idle(options, timeoutMs, call)
          : await this.until(this.probe(condition, options), started + timeoutMs, call);
      if (last.met) {
        const elapsedMs = performance.now() - started;
        return { kind: 'wait', awaited, elapsedMs, timeoutMs, seen: last.seen, element: last.element };
      }
      throw new MacpilotError({
        what:
          timeoutMs === 0
            ? `Not so when looked at once (a timeout of 0 looks once; the look took ${elapsed(started)}): waited for ${awaited}`
            : `Timed out after ${duration(timeoutMs)} waiting for ${awaited}${performance.now() - started > timeoutMs + 500 ? ` (the last look ended at ${elapsed(started)}: the app answered slowly)` : ''}`,
        why: `last seen: ${plainText(last.seen)}`,
        next: nextStep(options.condition),
        kind: 'condition_not_met',
      });
    });
  }

  /**
   * Looks until the probe's condition holds or the deadline passes, again whenever the looked-at app reports a
   * change (on a timer when it reports none); returns the last look.
   */
  async until<L extends Look>(probe: Probe<L>, deadline: number, call?: CallOptions): Promise<L> {
    const { observer } = this.kernel;
    const events = await observer.available();
    let pid: number | undefined;
    for (;;) {
      const before = pid === undefined ? undefined : observer.counter(pid);
      const look = await probe(call);
      pid = look.pid ?? pid;
      const left = deadline - performance.now();
      if (look.met || left <= 0) return look;
      if (!events || pid === undefined) {
        await pause(Math.min(left, WAIT_DEFAULTS.pollMs), call?.signal);
        continue;
      }
      // A change during the first look (its app was unknown before it) is caught by the shorter poll.
      const sure = before !== undefined && observer.reportsChanges(pid);
      const timeoutMs = Math.min(left, sure ? WAIT_DEFAULTS.recheckMs : WAIT_DEFAULTS.pollMs);
      const sinceCounter = before ?? observer.counter(pid);
      await observer.waitForChange(pid, { sinceCounter, timeoutMs, signal: call?.signal });
    }
  }

  /** app_idle: no change events for idleMs; without events, two walks idleMs apart that agree. */
  private async idle(options: WaitOptions, timeoutMs: number, call?: CallOptions): Promise<Look> {
    const { observer } = this.kernel;
    const idleMs = options.idleMs ?? WAIT_DEFAULTS.idleMs;
    const app = await this.kernel.resolver.app(options.app, call);
    const signal = call?.signal;
    if (await observer.available()) {
      const mark = observer.counter(app.pid);
      // Quiet means quiet while watched: changes from before this wait (or before events started) are unknown.
      await pause(Math.min(idleMs, timeoutMs), signal);
      const maxMs = Math.max(0, timeoutMs - idleMs);
      const met = await observer.waitForQuiet(app.pid, { quietMs: idleMs, maxMs, signal });
      const changes = plural(observer.counter(app.pid) - mark, 'change');
      return { met, seen: met ? idleWords(app) : own(`it kept changing (${changes})`) };
    }
    const deadline = performance.now() + timeoutMs;
    let before = JSON.stringify(await this.walkApp(app, FIND_DEFAULTS.depth, call));
    for (;;) {
      await pause(Math.min(idleMs, Math.max(0, deadline - performance.now())), signal);
      const now = JSON.stringify(await this.walkApp(app, FIND_DEFAULTS.depth, call));
      if (now === before) return { met: true, seen: idleWords(app) };
      if (performance.now() >= deadline) return { met: false, seen: own('its UI kept changing') };
      before = now;
    }
  }

  /** The probe for a condition; inputs that can never work are refused here, before any waiting. */
  private probe(condition: Exclude<WaitCondition, 'app_idle'>, o: WaitOptions): Probe {
    const target = targetOf(o);
    const query = queryOf(o);
    const needs = (what: string, flags: string, ok: boolean) => {
      if (!ok) throw invalid(condition, `${condition} needs ${what}`, `${condition} needs ${flags}`);
    };
    switch (condition) {
      case 'appears':
      case 'disappears': {
        const want = condition === 'appears';
        const both = target !== undefined && !!query;
        needs(
          `exactly one of ref, path, or a query (text, role, name)${both ? ', not both' : ''}`,
          `a path or --text / --role / --name${both ? ', not both' : ''}`,
          (target !== undefined) !== !!query,
        );
        return query ? (call) => this.lookForMatches(o.app, query, want, call) : this.elementProbe(target, o);
      }
      case 'value_equals':
      case 'value_contains':
      case 'enabled':
      case 'focused':
        needs('exactly one of ref or path', 'a path', target !== undefined);
        if (condition.startsWith('value_')) {
          needs('text (the value to wait for)', '--text (the value to wait for)', o.text !== undefined);
        }
        return this.elementProbe(target, o);
      case 'text_appears':
        needs('text', '--text', o.text !== undefined);
        return (call) => this.lookForMatches(o.app, { text: o.text, match: 'contains' }, true, call);
      case 'window_title':
        needs('text (part of the title)', '--text (part of the title)', o.text !== undefined);
        return (call) => this.lookAtWindows(o.app, o.text ?? '', call);
    }
  }

  private elementProbe(target: Target | undefined, o: WaitOptions): Probe {
    let looked = false;
    return async (call) => {
      const found = await this.element(target ?? {}, call);
      const first = !looked;
      looked = true;
      if ('missing' in found) {
        const gone = o.condition === 'disappears';
        // Not there at the first look: gone already, or a path that never led anywhere (a typo): said so.
        const seen = !gone
          ? [appText(found.missing)]
          : first && !found.label
            ? words`${own(`${capitalize(describeTarget(o))} was not there when the wait began`)} (${appText(found.missing)}).`
            : found.label
              ? words`${found.label} is gone.`
              : words`${own(`${capitalize(describeTarget(o))} is gone.`)}`;
        return { met: gone, seen, pid: found.pid };
      }
      const { entry, detail } = found;
      const element = walkedOf(entry, detail);
      const pid = entry.app.pid;
      const shown = (): Words => [mention(element)];
      const offscreen = detail.states.includes('offscreen');
      const value = () => {
        if (isSecure(detail)) {
          throw new MacpilotError({
            what: `${entry.label} [ref=${entry.ref}] is a secure field`,
            why: 'secure values are never read, so a wait cannot compare them',
            next: 'wait for something the field changes instead (e.g. a button becoming enabled)',
            kind: 'secure_field',
          });
        }
        return detail.value === undefined || typeof detail.value === 'boolean' ? '' : String(detail.value);
      };
      switch (o.condition) {
        case 'appears':
          return {
            met: !offscreen,
            seen: offscreen ? words`${shown()} (there, but not on screen)` : shown(),
            pid,
            element,
          };
        case 'disappears':
          return {
            met: offscreen,
            seen: offscreen ? words`${shown()} (not on screen)` : words`still there: ${shown()}`,
            pid,
            element,
          };
        case 'value_equals':
        case 'value_contains': {
          const now = value();
          const met = o.condition === 'value_equals' ? now === o.text : now.includes(o.text ?? '');
          const seen = met ? shown() : words`${shown()} with the value ${appText(JSON.stringify(now))}`;
          return { met, seen, pid, element };
        }
        case 'enabled': {
          const met = !detail.states.includes('disabled');
          return { met, seen: met ? shown() : words`${shown()} (disabled)`, pid, element };
        }
        default: {
          const met = detail.states.includes('focused');
          return { met, seen: met ? shown() : words`${shown()} (not focused)`, pid, element };
        }
      }
    };
  }

  /** The element now, or why it is not there (gone, no match for its path, its app not running). */
  async element(target: Target, call?: CallOptions): Promise<Found> {
    // An unknown ref is a mistake to report now, not a state to wait out.
    const known = target.ref === undefined ? undefined : await this.kernel.entry(target, call);
    try {
      return await this.kernel.detail(target, VALUE_CHARS, call);
    } catch (error) {
      const pid = known?.app.pid;
      const label = known && entryWords(known);
      // A path that names several elements, or none that could ever be (malformed), is a mistake in the call, as
      // for an action: not a state to wait out, nor an absence to report as met.
      const mistake =
        error instanceof MacpilotError && ['path_ambiguous', 'malformed_path'].includes(error.kind);
      if (error instanceof MacpilotError && !isCallProblem(error) && !mistake) {
        return { missing: `${error.what}: ${error.why}`, label, pid };
      }
      if (isGone(error) || isAppNotFound(error)) {
        return { missing: `${label ? plainText(label) : 'the element'} is gone`, label, pid };
      }
      throw error;
    }
  }

  private async app(name: string | undefined, call?: CallOptions): Promise<AppInfo | string> {
    try {
      return await this.kernel.resolver.app(name, call);
    } catch (error) {
      // Not running (yet) is a state to wait out; a refused app or an ambiguous name is not.
      if (error instanceof MacpilotError && !isCallProblem(error)) return `${error.what}: ${error.why}`;
      throw error;
    }
  }

  private async lookForMatches(appName: string | undefined, query: Query, want: boolean, call?: CallOptions) {
    const app = await this.app(appName, call);
    if (typeof app === 'string') return { met: !want, seen: [appText(app)] };
    const tree = await this.walkApp(app, FIND_DEFAULTS.depth, call).catch(notThere);
    if (!tree)
      return {
        met: !want,
        seen: words`${appWords(app)} closed`,
        pid: app.pid,
      };
    const found = findMatches(tree, query).filter((n) => !n.info.states.includes('offscreen'));
    const [first] = found;
    if (!first) {
      return {
        met: !want,
        seen: words`no element on screen matches in "${appText(app.name)}"`,
        pid: app.pid,
      };
    }
    const more = found.length > 1 ? `\n(${plural(found.length - 1, 'more element')} matched)` : '';
    const lines = words`${mention(first)}${own(more)}`;
    return { met: want, seen: want ? lines : words`still there: ${lines}`, pid: app.pid, element: first };
  }

  private async lookAtWindows(appName: string | undefined, text: string, call?: CallOptions): Promise<Look> {
    const app = await this.app(appName, call);
    if (typeof app === 'string') return { met: false, seen: [appText(app)] };
    const tree = await this.walkApp(app, 1, call).catch(notThere);
    const windows = tree?.children ?? [];
    const [match] = matchTitle(windows, (w) => w.info.name, text);
    if (match) return { met: true, seen: [mention(match)], pid: app.pid, element: match };
    const titles = windows.map((w) => quote(w.info.name)).join(', ') || 'none';
    return {
      met: false,
      seen: words`the windows of "${appText(app.name)}" are: ${appText(titles)}`,
      pid: app.pid,
    };
  }

  private async walkApp(app: AppInfo, depth: number, call?: CallOptions): Promise<Walked> {
    const limits = {
      depth,
      maxNodes: FIND_DEFAULTS.walkMaxNodes,
      includeHidden: false,
      maxValueLength: WALK_VALUE_CHARS,
    };
    return (await this.kernel.walk(appWalkStart(app, this.kernel.resolver.rootPath(app)), limits, call)).tree;
  }
}

/** A walk of an app that closed meanwhile: undefined; any other failure stands. */
function notThere(error: unknown): undefined {
  if (isGone(error) || isAppNotFound(error)) return undefined;
  throw error;
}

/** An element read on its own, as a walk would have labelled it. */
export const walkedOf = (entry: RefEntry, detail: ElementDetail): Walked => ({
  info: detail,
  role: roleOf(detail),
  ref: entry.ref,
  path: entry.path,
  depth: 0,
  children: [],
  unexpanded: false,
});

function targetOf(o: WaitOptions): Target | undefined {
  if (o.ref !== undefined && o.path !== undefined) {
    throw invalid(o.condition, 'give ref or path, not both', 'give one path');
  }
  if (o.ref !== undefined) return { ref: o.ref };
  if (o.path !== undefined) return { path: o.path };
  return undefined;
}

/** appears / disappears by query: text, role and name (contains, case-insensitive), as find_elements. */
function queryOf(o: WaitOptions): Query | undefined {
  if (o.condition !== 'appears' && o.condition !== 'disappears') return undefined;
  if (o.text === undefined && o.role === undefined && o.name === undefined) return undefined;
  const role = o.role === undefined ? undefined : parseRole(o.role);
  return { text: o.text, role, name: o.name, match: 'contains' };
}

function describeTarget(o: WaitOptions): string {
  if (o.ref !== undefined) return o.ref;
  if (o.path !== undefined) return `the element at ${o.path}`;
  const parts = [
    o.role === undefined ? 'an element' : `a ${o.role}`,
    o.name === undefined ? '' : `named ${quote(o.name)}`,
    o.text === undefined ? '' : `with text ${quote(o.text)}`,
  ];
  return `${parts.filter(Boolean).join(' ')} in ${describeApp(o)}`;
}

const describeApp = (o: WaitOptions) =>
  o.app === undefined ? 'the active app' : /^\d+$/.test(o.app) ? `the app with pid ${o.app}` : quote(o.app);

export function describeWait(o: WaitOptions): string {
  const text = quote(o.text ?? '');
  switch (o.condition) {
    case 'appears':
      return `${describeTarget(o)} to appear`;
    case 'disappears':
      return `${describeTarget(o)} to disappear`;
    case 'value_equals':
      return `the value of ${describeTarget(o)} to be ${text}`;
    case 'value_contains':
      return `the value of ${describeTarget(o)} to contain ${text}`;
    case 'text_appears':
      return `text ${text} to appear in ${describeApp(o)}`;
    case 'enabled':
      return `${describeTarget(o)} to be enabled`;
    case 'focused':
      return `${describeTarget(o)} to have keyboard focus`;
    case 'window_title':
      return `a window of ${describeApp(o)} with ${text} in its title`;
    case 'app_idle':
      return `${describeApp(o)} to be idle for ${o.idleMs ?? WAIT_DEFAULTS.idleMs} ms`;
  }
}

/** Inputs a wait can never work with, in an agent's words (arguments) and a person's (`macpilot wait` flags). */
function invalid(condition: WaitCondition, why: string, personWhy: string): MacpilotError {
  return new MacpilotError({
    what: `Cannot wait for ${condition}`,
    why,
    next:
      'appears / disappears take a ref, a path, or text / role / name; value_equals and value_contains take a ' +
      'ref or path and text; enabled and focused a ref or path; text_appears and window_title text; app_idle ' +
      'optionally the app and idle_ms',
    kind: 'invalid_arguments',
    person: {
      why: personWhy,
      next:
        'appears / disappears take a path, or --text / --role / --name; value_equals and value_contains a path ' +
        'and --text; enabled and focused a path; text_appears and window_title --text; app_idle optionally --app and --idle ' +
        '(`macpilot wait --help` shows them all)',
    },
  });
}

function nextStep(condition: WaitCondition): string {
  const longer = `wait again with a larger timeout_ms (at most ${WAIT_DEFAULTS.maxTimeoutMs})`;
  switch (condition) {
    case 'disappears':
      return `it may be waiting for input: snapshot_ui shows what it asks; or ${longer}`;
    case 'app_idle':
      return `the app keeps updating its UI (a clock, a progress bar); act without waiting, or ${longer}`;
    default:
      return `take a snapshot_ui (or find_elements) to see what the app shows now; or ${longer}`;
  }
}

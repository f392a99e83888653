/**
 * assert_element: whether an element (by ref or path, or the first match of a query) is as a test expects.
 * Each assertion is compared against the element as read now; with a timeout, the comparison runs again whenever
 * the app reports a change (Waits.until), and the answer is the last comparison: passed, or what differed.
 */
import { MacpilotError } from '../../errors.js';
import type { CallOptions } from '../../helper-client/errors.js';
import type { Elements } from '../features/elements.js';
import type { MatchMode } from '../reading/find.js';
import type { Kernel, Target } from '../kernel/kernel.js';
import { isAppNotFound, isGone } from '../kernel/failures.js';
import { isCallProblem } from '../kernel/resolve.js';
import type { AssertFailure, AssertResult, AssertValue } from '../kernel/results.js';
import { parseRole } from '../kernel/roles.js';
import { isSecure, type Walked } from '../kernel/tree.js';
import { normalizeName } from '../../text.js';
import { type Look, walkedOf, type Waits } from '../features/wait.js';
import { WAIT_DEFAULTS } from '../features/wait-conditions.js';
import { appText, mention, plainText } from '../kernel/words.js';

/** What a test may expect of an element, as assert_element takes it. */
export interface Expectations {
  exists?: boolean;
  enabled?: boolean;
  focused?: boolean;
  checked?: boolean;
  selected?: boolean;
  /** The whole value (numbers and toggles as their text). */
  value?: string;
  /** The whole name, after whitespace is collapsed. */
  name?: string;
  role?: string;
  /** On screen: not offscreen, with an area. */
  visible?: boolean;
  /** Part of its name, value or description (case-sensitive). */
  contains_text?: string;
  /** How many elements match the query (a ref or path names one, or none). */
  count?: number;
}

export const EXPECTATION_NAMES = [
  'exists',
  'enabled',
  'focused',
  'checked',
  'selected',
  'value',
  'name',
  'role',
  'visible',
  'contains_text',
  'count',
] as const satisfies readonly (keyof Expectations)[];

export interface AssertOptions {
  target?: Target;
  /** A query instead of a target: the first match (on-screen ones first) is the element checked. */
  query?: {
    app?: string;
    role?: string;
    name?: string;
    text?: string;
    match?: MatchMode;
    includeHidden?: boolean;
  };
  expect: Expectations;
  timeoutMs?: number;
}

/** The element as one look found it: absent, or present with how many matched. */
export type Seen = { element: Walked; count: number } | { element?: undefined; count: 0; why: string };

const stateOf = (node: Walked, state: 'disabled' | 'focused' | 'checked' | 'selected' | 'offscreen') =>
  node.info.states.includes(state);

/** The element's value as text, or undefined for a secure field (never read) or none. */
function valueText(node: Walked): string | undefined {
  const { value } = node.info;
  if (isSecure(node.info) || value === undefined) return undefined;
  return String(value);
}

function isVisible(node: Walked): boolean {
  const { bounds } = node.info;
  const sized = bounds === undefined || (bounds.width > 0 && bounds.height > 0);
  return !stateOf(node, 'offscreen') && sized;
}

/**
 * What differs between the element seen and the expectations, one failure per property; none: it holds. An
 * absent element fails `exists` (expected or not) and nothing else is compared.
 */
export function compareExpectations(seen: Seen, expect: Expectations): AssertFailure[] {
  const failures: AssertFailure[] = [];
  const check = (property: AssertFailure['property'], expected: AssertValue, actual: AssertValue | null) => {
    if (expected !== actual) failures.push({ property, expected, actual });
  };
  if (expect.count !== undefined) check('count', expect.count, seen.count);
  const { element } = seen;
  if (!element) {
    const rest = Object.keys(expect).filter((key) => key !== 'count' && key !== 'exists');
    if (expect.exists !== false && (expect.exists === true || rest.length > 0)) check('exists', true, false);
    return failures;
  }
  if (expect.exists !== undefined) check('exists', expect.exists, true);
  if (expect.enabled !== undefined) check('enabled', expect.enabled, !stateOf(element, 'disabled'));
  if (expect.focused !== undefined) check('focused', expect.focused, stateOf(element, 'focused'));
  if (expect.checked !== undefined) check('checked', expect.checked, stateOf(element, 'checked'));
  if (expect.selected !== undefined) check('selected', expect.selected, stateOf(element, 'selected'));
  if (expect.visible !== undefined) check('visible', expect.visible, isVisible(element));
  if (expect.role !== undefined) check('role', parseRole(expect.role), element.role);
  if (expect.name !== undefined) check('name', normalizeName(expect.name), normalizeName(element.info.name));
  if (expect.value !== undefined) check('value', expect.value, valueText(element) ?? null);
  if (expect.contains_text !== undefined) {
    const texts = [element.info.name, valueText(element), element.info.description];
    const found = texts.some((text) => text?.includes(expect.contains_text as string));
    if (!found) {
      const shown = texts.filter((text) => text !== undefined && text !== '').join(' | ');
      failures.push({ property: 'contains_text', expected: expect.contains_text, actual: shown });
    }
  }
  return failures;
}

interface AssertLook extends Look {
  failures: AssertFailure[];
}

export class Asserts {
  constructor(
    private readonly kernel: Kernel,
    private readonly waits: Waits,
    private readonly elements: Elements,
  ) {}

  async assert(options: AssertOptions, call?: CallOptions): Promise<AssertResult> {
    const { target, query, expect } = options;
    if ((target === undefined) === (query === undefined)) {
      throw new MacpilotError({
        what: 'No single element to assert on',
        why: 'an assertion is about one element: a ref, a path, or a query (app with role, name or text)',
        next: 'give exactly one of ref, path, or a query',
        kind: 'no_single_target',
      });
    }
    const checked = Object.values(expect).filter((value) => value !== undefined).length;
    if (checked === 0) {
      throw new MacpilotError({
        what: 'No assertions given',
        why: 'assertions is empty, so there is nothing to check',
        next: `give at least one of: ${EXPECTATION_NAMES.join(', ')}`,
        kind: 'invalid_arguments',
        concerns: ['assertions'],
      });
    }
    if (expect.role !== undefined) parseRole(expect.role); // an unknown role is a mistake, not a failure
    const timeoutMs = options.timeoutMs ?? 0;
    const started = performance.now();
    const probe = async (look?: CallOptions): Promise<AssertLook> => {
      const seen = target ? await this.byTarget(target, look) : await this.byQuery(query ?? {}, look);
      if (seen.element && isSecure(seen.element.info) && expect.value !== undefined) {
        throw new MacpilotError({
          what: `${plainText([mention(seen.element)])} is a secure field`,
          why: 'secure values are never read, so an assertion cannot compare them',
          next: 'assert something the field changes instead (e.g. a button becoming enabled), or leave value out',
          kind: 'secure_field',
          concerns: ['assertions'],
        });
      }
      const failures = compareExpectations(seen, expect);
      return {
        met: failures.length === 0,
        seen: seen.element ? [mention(seen.element)] : [appText(seen.why)],
        element: seen.element,
        pid: seen.element?.info.pid,
        failures,
      };
    };
    const subject = describeSubject(options);
    const deadline = started + Math.min(timeoutMs, WAIT_DEFAULTS.maxTimeoutMs);
    const last = await this.kernel.guard(`assert on ${subject}`, () =>
      this.waits.until(probe, deadline, call),
    );
    return {
      kind: 'assert',
      subject,
      element: last.element,
      missing: last.element ? undefined : plainText(last.seen),
      checked,
      failures: last.failures,
      elapsedMs: performance.now() - started,
      timeoutMs,
    };
  }

  private async byTarget(target: Target, call?: CallOptions): Promise<Seen> {
    const found = await this.waits.element(target, call);
    if ('missing' in found) return { count: 0, why: found.missing };
    return { element: walkedOf(found.entry, found.detail), count: 1 };
  }

  private async byQuery(query: NonNullable<AssertOptions['query']>, call?: CallOptions): Promise<Seen> {
    const app = await this.kernel.resolver.app(query.app, call).catch((error: unknown) => {
      // An app that is not running has no such element; one the policy refuses, or a name several apps
      // answer to, is an error.
      if (error instanceof MacpilotError && !isCallProblem(error)) return `${error.what}: ${error.why}`;
      throw error;
    });
    if (typeof app === 'string') return { count: 0, why: app };
    let matches: Walked[];
    try {
      const found = { ...query, app: String(app.pid), match: query.match ?? 'contains' };
      matches = (await this.elements.find(found, call)).found;
    } catch (error) {
      const cause = error instanceof Error ? error.cause : undefined;
      if (isAppNotFound(cause) || isGone(cause)) return { count: 0, why: `"${app.name}" closed` };
      throw error;
    }
    const [first] = matches;
    if (!first) return { count: 0, why: 'no element matches the query' };
    // The walk cuts long values: the first match is read again in full.
    const found = await this.waits.element({ ref: first.ref }, call);
    const element = 'missing' in found ? first : walkedOf(found.entry, found.detail);
    return { element: { ...element, path: first.path }, count: matches.length };
  }
}

function describeSubject(o: AssertOptions): string {
  if (o.target?.ref !== undefined) return o.target.ref;
  if (o.target?.path !== undefined) return `the element at ${o.target.path}`;
  const q = o.query ?? {};
  const parts = [
    q.role === undefined ? 'the first element' : `the first ${q.role}`,
    q.name === undefined ? '' : `named ${JSON.stringify(q.name)}`,
    q.text === undefined ? '' : `with text ${JSON.stringify(q.text)}`,
    q.app === undefined ? 'in the active app' : `in ${JSON.stringify(q.app)}`,
  ];
  return parts.filter(Boolean).join(' ');
}

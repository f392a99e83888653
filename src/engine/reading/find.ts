/**
 * Queries over a walked tree. Strings match "contains" (case-insensitive, the default), "exact" (after name
 * normalization) or "regex" (case-insensitive, against the normalized text; patterns that could backtrack catastrophically are refused and
 * the text tried against them is capped). Secure values never take part in matching.
 */

import { MacpilotError } from '../../errors.js';
import type { ElementInfo } from '../../helper-client/protocol.js';
import type { Role } from '../kernel/roles.js';
import { normalizeName } from '../../text.js';
import { isSecure, type Walked, walk } from '../kernel/tree.js';

export type MatchMode = 'contains' | 'exact' | 'regex';

export const FIND_DEFAULTS = {
  maxResults: 25,
  /** find walks deeper and wider than a snapshot shows. */
  depth: 40,
  walkMaxNodes: 5_000,
} as const;

export interface Query {
  /** Name, value or description. */
  text?: string;
  role?: Role;
  name?: string;
  value?: string;
  identifier?: string;
  match: MatchMode;
}

type Test = (subject: string) => boolean;

const MAX_PATTERN = 500;
const MAX_SUBJECT = 2_000;
/** A quantified group that itself holds a quantifier, e.g. (a+)+ or (\w*\s?)*: exponential backtracking. */
const NESTED_QUANTIFIER = /\((?:[^()\\]|\\.)*[*+}](?:[^()\\]|\\.)*\)[*+{]/;

export function compileTest(pattern: string, mode: MatchMode): Test {
  if (mode === 'exact') {
    const wanted = normalizeName(pattern);
    return (subject) => normalizeName(subject) === wanted;
  }
  if (mode === 'contains') {
    const wanted = normalizeName(pattern).toLowerCase();
    return (subject) => normalizeName(subject).toLowerCase().includes(wanted);
  }
  const regex = compileRegex(pattern);
  return (subject) => regex.test(normalizeName(subject.slice(0, MAX_SUBJECT)));
}

function compileRegex(pattern: string): RegExp {
  const refuse = (why: string): never => {
    throw new MacpilotError({
      what: `Invalid regular expression ${JSON.stringify(pattern.slice(0, 80))}`,
      why,
      next: 'fix the pattern, or use match "contains" (the default) or "exact"',
      kind: 'invalid_regex',
    });
  };
  if (pattern.length > MAX_PATTERN) refuse(`it is longer than ${MAX_PATTERN} characters`);
  if (NESTED_QUANTIFIER.test(pattern)) {
    refuse('a quantified group holds another quantifier (like (a+)+), which can take exponential time');
  }
  try {
    return new RegExp(pattern, 'i');
  } catch (error) {
    return refuse((error as Error).message);
  }
}

interface CompiledQuery {
  text?: Test;
  role?: Role;
  name?: Test;
  value?: Test;
  identifier?: Test;
}

function compileQuery(query: Query): CompiledQuery {
  const test = (pattern: string | undefined) =>
    pattern === undefined ? undefined : compileTest(pattern, query.match);
  return {
    text: test(query.text),
    role: query.role,
    name: test(query.name),
    value: test(query.value),
    identifier: test(query.identifier),
  };
}

const searchableValue = (info: ElementInfo): string | undefined =>
  isSecure(info) || typeof info.value === 'boolean' || info.value === undefined
    ? undefined
    : String(info.value);

function matches(node: Walked, q: CompiledQuery): boolean {
  const { info } = node;
  const value = searchableValue(info);
  const hit = (test: Test | undefined, subject: string | undefined) =>
    test === undefined || (subject !== undefined && test(subject));
  return (
    (q.role === undefined || node.role === q.role) &&
    hit(q.name, info.name) &&
    hit(q.value, value) &&
    hit(q.identifier, info.identifier) &&
    (q.text === undefined ||
      [info.name, value, info.description].some((s) => s !== undefined && hit(q.text, s)))
  );
}

/** Whether a match's text was found in its description alone, which its line shows only when it has no name. */
export function matchedByDescriptionAlone(node: Walked, query: Query): boolean {
  const test = compileQuery(query).text;
  const { info } = node;
  const value = searchableValue(info);
  return (
    test !== undefined &&
    info.description !== undefined &&
    test(info.description) &&
    ![info.name, value].some((s) => s !== undefined && test(s))
  );
}

/** Matching elements, on-screen ones first, each in document order. */
export function findMatches(root: Walked, query: Query): Walked[] {
  const compiled = compileQuery(query);
  const found = [...walk(root)].filter((node) => matches(node, compiled));
  const offscreen = (node: Walked) => node.info.states.includes('offscreen');
  return [...found.filter((n) => !offscreen(n)), ...found.filter(offscreen)];
}

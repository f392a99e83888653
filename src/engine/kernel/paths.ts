/**
 * Replayable element paths: `app("mousepad")/window[0]/menubar/menu["File"]/menuitem["Save As..."]`.
 *
 *   path    := 'app(' ( string | pid ) ')' ( '/' segment )*
 *   segment := role [ '[' string ']' ] [ '[' index ']' ]
 *
 * `string` is a JSON string literal, `index` is 0-based among the siblings that match the role (and the name,
 * when given). Role tokens accept the aliases roleOf/parseRole know (menu_bar, menu_item, AXButton, ...).
 *
 * Paths follow the tree an agent sees: unnamed structural containers (generic, group, scrollarea without a
 * name) are transparent, so an element's siblings are those of its nearest named-or-meaningful ancestor, e.g.
 * `window[0]/menubar` although a toolkit puts two unnamed panels between them. A transparent element itself is
 * addressed among the transparent children of its own parent (`window[0]/generic[1]`).
 * Siblings on screen come first: indexes count the visible siblings before the hidden ones (items of closed
 * menus, a toolkit's hidden twins), so a visible element has the same index whether or not a walk saw the
 * hidden ones. A segment without an index that matches several elements, only one of them visible, means that one.
 * Names include those elements take from their content (names.ts); a name without an index that one element
 * carries itself means that one, even when a sibling's labels say the same.
 */
import { MacpilotError } from '../../errors.js';
import { CHROME_ROLES, parseRole, type Role, roleOf } from './roles.js';
import { matchByName, normalizeName } from '../../text.js';

export interface Segment {
  role: Role;
  name?: string;
  index?: number;
}

export interface ElementPath {
  /** The app's name; with a pid, the pid's digits. */
  app: string;
  /** The app by its process id: `app(1118)`, what a path names when several running apps share a name. */
  pid?: number;
  segments: Segment[];
}

/** The root of an app's paths: by name, or by pid when another running app has the same name. */
export const appPath = (app: { name: string; pid: number }, nameShared: boolean): ElementPath =>
  nameShared ? { app: String(app.pid), pid: app.pid, segments: [] } : { app: app.name, segments: [] };

/** What paths need of an element. */
export interface PathElement {
  nativeRole: string;
  subrole?: string;
  name: string;
  states?: readonly string[];
}

/** An unnamed structural container: paths pass through it. */
export function isTransparent(element: PathElement): boolean {
  return CHROME_ROLES.has(roleOf(element)) && normalizeName(element.name) === '';
}

/**
 * The children an element has in the tree agents see: transparent children are replaced by their own logical
 * children. Transparent children that were not walked contribute nothing.
 */
export function logicalChildren<T extends PathElement & { children?: T[] }>(node: { children?: T[] }): T[] {
  return (node.children ?? []).flatMap((child) => (isTransparent(child) ? logicalChildren(child) : [child]));
}

/** A segment that names a transparent element: it is matched among its parent's own (raw) children. */
export function isTransparentSegment(segment: Segment): boolean {
  return CHROME_ROLES.has(segment.role) && segment.name === undefined;
}

const isHidden = (element: PathElement): boolean => element.states?.includes('offscreen') === true;

const GRAMMAR =
  'a path is app("Name") (or app(1234), the app by its pid) followed by /role, /role[index], /role["name"] or /role["name"][index] segments ' +
  '(names are JSON strings, indexes count from 0), e.g. app("mousepad")/window[0]/menubar/menu["File"]/menuitem["Save As..."]';

export function formatSegment(segment: Segment): string {
  const name = segment.name === undefined ? '' : `[${JSON.stringify(segment.name)}]`;
  const index = segment.index === undefined ? '' : `[${segment.index}]`;
  return `${segment.role}${name}${index}`;
}

export function formatPath(path: ElementPath): string {
  const app = path.pid === undefined ? JSON.stringify(path.app) : String(path.pid);
  return [`app(${app})`, ...path.segments.map(formatSegment)].join('/');
}

export function childPath(parent: ElementPath, segment: Segment): ElementPath {
  return { ...parent, segments: [...parent.segments, segment] };
}

/** Siblings in the order indexes count them: visible ones first, each group in document order. */
function visibleFirst<T extends PathElement>(siblings: readonly T[]): T[] {
  return [...siblings.filter((s) => !isHidden(s)), ...siblings.filter(isHidden)];
}

/** The children that a segment selects, in order (the index, if any, applied last). */
export function matchSegment<T extends PathElement>(children: readonly T[], segment: Segment): T[] {
  const sameRole = visibleFirst(children).filter((child) => roleOf(child) === segment.role);
  const named = segment.name === undefined ? sameRole : matchByName(sameRole, (c) => c.name, segment.name);
  if (segment.index !== undefined) {
    const picked = named[segment.index];
    return picked ? [picked] : [];
  }
  const visible = named.filter((child) => !isHidden(child));
  return named.length > 1 && visible.length === 1 ? visible : named;
}

/**
 * For each sibling, the least segment that selects it alone among them: the role, else the name, else the name
 * and an index, else an index. Windows always get an index: their titles change with the document. A status
 * bar's name is the text it shows, which changes with every selection: it is named by its role and index.
 * `partial`: the siblings are some of many (a long list's rows on screen, or those a search kept): a named one
 * keeps its name even when it is the only one of its role among them. `'filtered'`: a search kept them, or they
 * are the rows on screen past the list's first, so their places among those read say nothing of their places in
 * the list: an unnamed one gets its role alone (never another row's index), and a path
 * reaches it by the named step that follows (Resolver.path reads that step's name through the list). One pass,
 * since lists can hold thousands of siblings.
 */
export function segmentsFor<T extends PathElement>(
  siblings: readonly T[],
  partial: boolean | 'filtered' = false,
): Segment[] {
  const ordered = visibleFirst(siblings);
  const roles = ordered.map(roleOf);
  const names = ordered.map((s) => normalizeName(s.name));
  const byRole = countUp(roles);
  const byName = countUp(ordered.map((_, i) => `${roles[i]}\u0000${names[i]}`));
  const segments = new Map<T, Segment>();
  ordered.forEach((sibling, i) => {
    const role = roles[i] as Role;
    const name = names[i] as string;
    const [roleIndex, roleTotal] = byRole[i] as [number, number];
    const [nameIndex, nameTotal] = byName[i] as [number, number];
    let segment: Segment;
    if (role === 'window') segment = { role, index: roleIndex };
    // A chrome role without a name is how a path names a transparent element: a named one keeps its name.
    else if (roleTotal === 1 && !(CHROME_ROLES.has(role) && name !== '') && !(partial && name !== ''))
      segment = { role };
    else if (name === '' && partial === 'filtered') segment = { role };
    else if (name === '' || role === 'statusbar') segment = { role, index: roleIndex };
    else segment = nameTotal === 1 ? { role, name } : { role, name, index: nameIndex };
    segments.set(sibling, segment);
  });
  return siblings.map((sibling) => segments.get(sibling) as Segment);
}

/** The least segment for one child among its siblings (which include it). */
export function segmentFor<T extends PathElement>(
  child: T,
  siblings: readonly T[],
  partial: boolean | 'filtered' = false,
): Segment {
  const segment = segmentsFor(siblings, partial)[siblings.indexOf(child)];
  if (!segment) throw new Error('segmentFor: the child is not among its siblings');
  return segment;
}

/** For each key: its index among equal keys before it, and how many equal keys there are. */
function countUp(keys: readonly string[]): [number, number][] {
  const totals = new Map<string, number>();
  const indexes = keys.map((key) => {
    const seen = totals.get(key) ?? 0;
    totals.set(key, seen + 1);
    return seen;
  });
  return keys.map((key, i) => [indexes[i] as number, totals.get(key) as number]);
}

/** An element path, or undefined for text that is none (a menu path, a file path, a malformed path). */
export function elementPathIn(text: string): ElementPath | undefined {
  if (!text.trimStart().startsWith('app(')) return undefined;
  try {
    return parsePath(text);
  } catch {
    return undefined;
  }
}

/** Parse a path typed by an agent; a malformed one is an error that says where and what the grammar is. */
export function parsePath(text: string): ElementPath {
  return new PathParser(text).parse();
}

class PathParser {
  private at = 0;

  constructor(private readonly text: string) {}

  parse(): ElementPath {
    this.skipSpaces();
    this.expect('app(');
    const pid = this.peek('"') ? undefined : this.pid();
    const app = pid === undefined ? this.string() : String(pid);
    this.expect(')');
    const segments: Segment[] = [];
    this.skipSpaces();
    while (this.at < this.text.length) {
      this.expect('/');
      segments.push(this.segment());
      this.skipSpaces();
    }
    return pid === undefined ? { app, segments } : { app, pid, segments };
  }

  private segment(): Segment {
    this.skipSpaces();
    const start = this.at;
    const token = /^[A-Za-z][A-Za-z0-9_-]*/.exec(this.text.slice(this.at))?.[0];
    if (!token) this.fail('a role such as window, menubar or button');
    this.at += token.length;
    const role = this.role(token, start);
    const segment: Segment = { role };
    if (this.peek('[')) {
      this.at++;
      if (this.peek('"')) segment.name = this.string();
      else segment.index = this.index();
      this.expect(']');
    }
    if (segment.name !== undefined && this.peek('[')) {
      this.at++;
      segment.index = this.index();
      this.expect(']');
    }
    return segment;
  }

  private role(token: string, start: number): Role {
    try {
      return parseRole(token);
    } catch (error) {
      if (!(error instanceof MacpilotError)) throw error;
      throw new MacpilotError({
        what: 'Malformed path',
        why: `at character ${start + 1}: ${error.what.toLowerCase()}`,
        next: error.next,
        kind: 'malformed_path',
        concerns: ['path'],
      });
    }
  }

  private string(): string {
    if (!this.peek('"')) this.fail('a JSON string such as "File"');
    const literal = /^"(?:[^"\\]|\\.)*"/.exec(this.text.slice(this.at))?.[0];
    if (!literal) this.fail('a closing " for the string');
    try {
      const value: unknown = JSON.parse(literal);
      this.at += literal.length;
      return value as string;
    } catch {
      this.fail('a valid JSON string (check its escapes)');
    }
  }

  private pid(): number {
    const digits = /^[1-9]\d{0,9}/.exec(this.text.slice(this.at))?.[0];
    if (!digits) this.fail('a JSON string name such as "Mousepad", or a pid such as 1118');
    this.at += digits.length;
    return Number(digits);
  }

  private index(): number {
    const digits = /^\d{1,6}/.exec(this.text.slice(this.at))?.[0];
    if (!digits) this.fail('an index (0, 1, 2, ...) or a JSON string name');
    this.at += digits.length;
    return Number(digits);
  }

  private peek(literal: string): boolean {
    return this.text.startsWith(literal, this.at);
  }

  private expect(literal: string): void {
    if (!this.peek(literal)) this.fail(JSON.stringify(literal));
    this.at += literal.length;
  }

  private skipSpaces(): void {
    while (this.text[this.at] === ' ') this.at++;
  }

  private fail(expected: string): never {
    const found =
      this.at < this.text.length ? JSON.stringify(this.text.slice(this.at, this.at + 12)) : 'the end';
    // `app(mousepad)/…`: the shell took the quotes of app("mousepad") away; `app('mousepad')`: typed so.
    const singleQuoted = /^app\('/.test(this.text);
    const unquoted = !singleQuoted && /^app\([^"\d)]/.test(this.text);
    throw new MacpilotError({
      what: 'Malformed path',
      why: `at character ${this.at + 1}: expected ${expected}, found ${found}`,
      next: `fix it (${GRAMMAR}), or take the path from get_element`,
      kind: 'malformed_path',
      concerns: ['path'],
      person: {
        next: singleQuoted
          ? 'names in a path are in double quotes, and the whole path in single quotes for the shell, e.g. ' +
            `'app("mousepad")/window[0]'`
          : unquoted
            ? 'the shell took away its double quotes: put the whole path in single quotes, e.g. ' +
              `'app("mousepad")/window[0]'`
            : `fix it (${GRAMMAR}), or copy it from what \`macpilot tree\` or \`macpilot find\` prints`,
      },
    });
  }
}

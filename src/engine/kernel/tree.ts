/**
 * A walked tree with what the engine adds to each helper node: normalized role, ref and path. Every node gets a
 * ref (rendered or not), so that find, diff and later actions all speak of the same `eN`.
 */
import { type ElementInfo, type ElementNode, NAME_FILTER_MAX } from '../../helper-client/protocol.js';
import {
  type ElementPath,
  formatPath,
  formatSegment,
  isTransparent,
  logicalChildren,
  type Segment,
  segmentsFor,
} from './paths.js';
import { isConsolePage } from './console-page.js';
import { withContentNames } from './names.js';
import type { AppRef, RefTable } from './refs.js';
import { type Role, roleOf } from './roles.js';
import { clip } from '../../text.js';

/** Values a walk reads are cut here; snapshot lines cut them shorter still. */
export const SNAPSHOT_VALUE_CHARS = 10_000;

export const SNAPSHOT_DEFAULTS = {
  /** Levels the walk goes below its root. */
  depth: 20,
  /** Lines, not counting collapsed chrome. About 50 characters a line: 20 KB, 5,000 tokens. */
  maxNodes: 400,
  /** The most lines a snapshot may ask for. */
  maxNodesLimit: 5000,
  /** A hard stop whatever the lines hold: 40 KB, about 10,000 tokens. */
  maxChars: 40_000,
} as const;

export interface Walked {
  info: ElementInfo;
  role: Role;
  ref: string;
  /** The formatted path. */
  path: string;
  /** Levels below the walk's root (the root is 0). */
  depth: number;
  children: Walked[];
  /** The element has children that the walk did not collect. */
  unexpanded: boolean;
}

export interface WalkRoot {
  node: ElementNode;
  path: ElementPath;
  app: AppRef;
  /** The walk had a nameFilter: of its long lists not walked on screen, it kept only the rows a search may want. */
  filtered?: boolean;
}

/** Secure text never yields its value, whatever a helper sends. */
export function isSecure(info: ElementInfo): boolean {
  return (
    info.states.includes('secure') ||
    info.subrole === 'AXSecureTextField' ||
    info.nativeRole.toLowerCase() === 'password text'
  );
}

/** `button "Save"`: the role and the (clipped) name, as refs and errors show an element. */
export function labelOf(role: Role, name: string): string {
  const shown = clip(name, 80);
  return shown === '' ? role : `${role} ${JSON.stringify(shown)}`;
}

/** A label back to its role and name (labelOf's inverse); one labelOf did not write is all role. */
export function labelParts(label: string): { role: string; name?: string } {
  const space = label.indexOf(' ');
  if (space < 0) return { role: label };
  try {
    const name: unknown = JSON.parse(label.slice(space + 1));
    if (typeof name === 'string') return { role: label.slice(0, space), name };
  } catch {
    // Not labelOf's: the whole of it is the role.
  }
  return { role: label };
}

/** Lists of more children than this are read in part (the rows on screen, or those a search keeps). */
export const LONG_LIST = 64;

/** ax.snapshot's nameFilter for a search's text, when it can take one. */
export const nameFilterOf = (text: string | undefined): { nameFilter?: string } =>
  text !== undefined && text.trim() !== '' && text.length <= NAME_FILTER_MAX ? { nameFilter: text } : {};

/**
 * A web page's document keeps its focused state while the keyboard focus is elsewhere in the browser (Chromium:
 * on the toolbar) or on one of its own elements: where a walk holds another focused element, the document's
 * state is dropped, so that one element is focused, as on screen.
 */
export function dropDocumentFocus(root: ElementNode): void {
  const focused: ElementNode[] = [];
  const visit = (node: ElementNode): void => {
    if (node.states.includes('focused')) focused.push(node);
    node.children?.forEach(visit);
  };
  visit(root);
  const documents = focused.filter((node) => roleOf(node) === 'document');
  if (documents.length === 0 || documents.length === focused.length) return;
  for (const node of documents) node.states = node.states.filter((state) => state !== 'focused');
}

/** Refs and paths for every node of a helper walk, whose elements get the names their content gives them. */
export function annotate(root: WalkRoot, refs: RefTable): Walked {
  /** Paths of the logical children of `node`, whose own path is `path`, by handle. */
  const logicalPaths = (node: ElementNode, path: string): Map<string, string> => {
    const logical = logicalChildren(node);
    // A long list walked in part (the rows on screen, or those a search kept): a row is named by its name, which
    // stays true among all the rows, never by being the only one of its role among those walked.
    const partial =
      node.children !== undefined && node.childCount > node.children.length && node.childCount > LONG_LIST;
    // Rows kept by a search, or on screen past the list's first: their places among those read are not their
    // places in the list, so an unnamed one is named by its role alone.
    const kept = root.filtered === true && node.shownChildren === undefined;
    const filtered = partial && (kept || (node.shownChildren?.from ?? 0) > 0);
    const segments = segmentsFor(logical, filtered ? 'filtered' : partial);
    return new Map(logical.map((child, i) => [child.id, `${path}/${formatSegment(segments[i] as Segment)}`]));
  };
  const visit = (node: ElementNode, path: string, depth: number, above: Map<string, string>): Walked => {
    const { children, ...info } = node;
    const role = roleOf(info);
    const { ref } = refs.issue(info.id, {
      path,
      app: root.app,
      label: labelOf(role, info.name),
      editable: info.states.includes('editable'),
    });
    // The person's console, open in a browser: a leaf to agents (console-page.ts).
    const list = isConsolePage(role, info.name) ? [] : (children ?? []);
    // A transparent node passes its logical parent's paths down; anything else (and the root) starts its own.
    const below = depth > 0 && isTransparent(info) ? above : logicalPaths(node, path);
    const transparent = list.filter(isTransparent);
    const transparentSegments = segmentsFor(transparent);
    const pathOf = (child: ElementNode): string => {
      const i = transparent.indexOf(child);
      if (i >= 0) return `${path}/${formatSegment(transparentSegments[i] as Segment)}`;
      return below.get(child.id) as string; // every non-transparent child is a logical child of `below`'s owner
    };
    return {
      info,
      role,
      ref,
      path,
      depth,
      children: list.map((child) => visit(child, pathOf(child), depth + 1, below)),
      unexpanded: children === undefined && info.childCount > 0 && !isConsolePage(role, info.name),
    };
  };
  return visit(withContentNames(root.node), formatPath(root.path), 0, new Map());
}

/** Every node in document order (pre-order). */
export function* walk(node: Walked): Generator<Walked> {
  yield node;
  for (const child of node.children) yield* walk(child);
}

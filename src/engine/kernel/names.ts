/**
 * Names an element has when its toolkit gave it none, as ARIA's name computation takes them: a control named
 * from content (a button, a cell, a tab, ...) takes the text of its label children. Every walk gets these names
 * (tree.ts annotate), and the resolver gives them to elements met without their children, so snapshots, find,
 * paths and refs all speak of the same names.
 */
import type { ElementInfo, ElementNode } from '../../helper-client/protocol.js';
import { logicalChildren } from './paths.js';
import { NAMED_FROM_CONTENT_ROLES, roleOf } from './roles.js';
import { normalizeName } from '../../text.js';

/** An element without a name, of a role named from content, with children to take a name from. */
export function takesContentName(element: ElementInfo): boolean {
  return (
    element.childCount > 0 &&
    normalizeName(element.name) === '' &&
    NAMED_FROM_CONTENT_ROLES.has(roleOf(element))
  );
}

/**
 * The text of the labels (`text` elements) among an element's logical children, in order, joined by spaces.
 * Labels off screen do not count: a walk of what is on screen does not see them.
 */
export function contentName(logical: readonly ElementInfo[]): string {
  return logical
    .filter((child) => roleOf(child) === 'text' && !child.states.includes('offscreen'))
    .map((child) => normalizeName(child.name))
    .filter((text) => text !== '')
    .join(' ');
}

/** `element` with the name its logical children give it, when it takes one (else `element` itself). */
export function namedBy<T extends ElementInfo>(element: T, logical: readonly ElementInfo[]): T {
  if (!takesContentName(element)) return element;
  const name = contentName(logical);
  return name === '' ? element : { ...element, name };
}

/**
 * A walked tree in which each element that takes a name from its content has it. Elements whose children the
 * walk did not collect keep their own; subtrees where nothing changes are the same objects.
 */
export function withContentNames(node: ElementNode): ElementNode {
  if (!node.children) return node;
  const children = node.children.map(withContentNames);
  const changed = children.some((child, i) => child !== node.children?.[i]);
  const parent = changed ? { ...node, children } : node;
  return namedBy(parent, logicalChildren(parent));
}

/**
 * Names that may be text someone entered: a field's own (a self-labelled field, a combo box named by the item it
 * shows), an editable element's, and those of elements inside a text field (the text of an editable web area).
 * Where typed text and values set are kept as lengths (the audit log, the console), so are these names, in the
 * labels and in the paths that repeat them.
 */
import { elementPathIn, formatPath, formatSegment, type Segment } from './paths.js';
import { ENTERED_NAME_ROLES, type Role, TEXT_INPUT_ROLES } from './roles.js';
import { labelParts } from './tree.js';

/** Whether the element at `path` (its role `role`, editable or not) may be named by entered text. */
export function mayBeNamedByEntry(role: string, path: string | undefined, editable = false): boolean {
  if (ENTERED_NAME_ROLES.has(role as Role) || editable) return true;
  const segments = path === undefined ? [] : (elementPathIn(path)?.segments ?? []);
  return segments.slice(0, -1).some((segment) => TEXT_INPUT_ROLES.has(segment.role));
}

/** A name as its length: `(5 characters)`. */
export const nameLength = (name: string): string => `(${Array.from(name).length} characters)`;

/** A path with the names that may be entered text given as their lengths: `…/textbox[(5 characters)]`. */
export function maskedPath(path: string): string {
  const parsed = elementPathIn(path);
  if (!parsed) return path;
  let inField = false;
  const segments = parsed.segments.map((segment: Segment) => {
    const masked = segment.name !== undefined && (inField || ENTERED_NAME_ROLES.has(segment.role));
    if (TEXT_INPUT_ROLES.has(segment.role)) inField = true;
    if (!masked) return formatSegment(segment);
    const index = segment.index === undefined ? '' : `[${segment.index}]`;
    return `${segment.role}[${nameLength(segment.name ?? '')}]${index}`;
  });
  return [formatPath({ ...parsed, segments: [] }), ...segments].join('/');
}

/** A label (`textbox "hello"`) with a name that may be entered text given as its length: `textbox name=(5 characters)`. */
export function maskedLabel(label: string, path?: string, editable = false): string {
  const { role, name } = labelParts(label);
  return name !== undefined && mayBeNamedByEntry(role, path, editable)
    ? `${role} name=${nameLength(name)}`
    : label;
}

/** What a person is shown of a target named by a label or a path. */
export const maskedTarget = (target: string, path?: string): string =>
  target.trimStart().startsWith('app(') ? maskedPath(target) : maskedLabel(target, path);

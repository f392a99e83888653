/** Element handles: `${busName}${objectPath}`. Bus names never contain '/', so the first '/' splits them. */
import { elementGone } from '../../errors.js';

export interface Ref {
  bus: string;
  path: string;
}

const BUS_NAME =
  /^(:[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)+|[A-Za-z_-][A-Za-z0-9_-]*(\.[A-Za-z_-][A-Za-z0-9_-]*)+)$/;
const OBJECT_PATH = /^\/([A-Za-z0-9_]+(\/[A-Za-z0-9_]+)*)?$/;
export const NULL_PATH = '/org/a11y/atspi/null';

export const handleOf = (ref: Ref): string => `${ref.bus}${ref.path}`;

/** A handle that cannot name a live object is as good as gone. */
export function parseHandle(handle: string): Ref {
  const slash = handle.indexOf('/');
  const ref = { bus: handle.slice(0, slash), path: handle.slice(slash) };
  if (slash <= 0 || !BUS_NAME.test(ref.bus) || !OBJECT_PATH.test(ref.path) || ref.path === NULL_PATH) {
    throw elementGone();
  }
  return ref;
}

/** Narrows a D-Bus `(so)` reference. */
export function asRef(value: unknown): Ref | undefined {
  if (!Array.isArray(value)) return undefined;
  const [bus, path] = value;
  if (typeof bus !== 'string' || typeof path !== 'string' || path === NULL_PATH || bus === '')
    return undefined;
  return { bus, path };
}

export function asRefs(value: unknown): Ref[] {
  if (!Array.isArray(value)) return [];
  return value.map(asRef).filter((r): r is Ref => r !== undefined);
}

/** Input fields shared by several tools, described once. */
import { z } from 'zod';

export const appParam = z
  .string()
  .min(1)
  .max(256)
  .describe('App name (as list_apps shows it), bundle id / desktop id, or pid. Default: the active app.');

export const refParam = z
  .string()
  .regex(/^e\d{1,9}$/, 'a ref looks like "e12": take it from snapshot_ui or find_elements')
  .describe('Element ref from snapshot_ui or find_elements, e.g. "e12".');

export const pathParam = z
  .string()
  .min(1)
  .max(4000)
  .describe(
    'Element path, e.g. app("Mousepad")/window[0]/menubar/menuitem["File"]. Use when no ref is at hand.',
  );

/** `ref` or `path`, exactly one. */
export const target = {
  ref: refParam.optional(),
  path: pathParam.optional(),
};

export function exactlyOneTarget(value: { ref?: unknown; path?: unknown }): boolean {
  return (value.ref === undefined) !== (value.path === undefined);
}
export const TARGET_MESSAGE = 'give exactly one of "ref" (e.g. "e12") or "path"';

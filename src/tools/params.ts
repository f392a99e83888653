/** Input fields shared by several tools, described once. */
import { z } from 'zod';
import { WAIT_DEFAULTS } from '../engine/features/wait-conditions.js';

export const appParam = z
  .string()
  .min(1)
  .max(256)
  .describe('App name (as list_apps shows it), bundle id / desktop id, or pid. Default: the active app.');

/** A call's own choice of background input (the server's is MACPILOT_INPUT). */
export const backgroundParam = z
  .boolean()
  .optional()
  .describe(
    "true: leave the pointer and the keyboard focus to the person: act through the element's own action or " +
      "the accessibility layer, or refuse, saying why. false: use them. Default: the server's MACPILOT_INPUT " +
      '(foreground unless set).',
  );

export const refParam = z
  .string()
  .regex(/^e\d{1,9}$/, 'a ref looks like "e12": take it from snapshot_ui or find_elements')
  .describe('Element ref from snapshot_ui or find_elements, e.g. "e12".');

export const pathParam = z
  .string()
  .min(1)
  .max(4000)
  .describe('Element path, e.g. app("mousepad")/window[0]/menubar/menu["File"]. Use when no ref is at hand.');

/** `ref` or `path`, exactly one. */
export const target = {
  ref: refParam.optional(),
  path: pathParam.optional(),
};

export function exactlyOneTarget(value: { ref?: unknown; path?: unknown }): boolean {
  return (value.ref === undefined) !== (value.path === undefined);
}
export const TARGET_MESSAGE = 'give exactly one of "ref" (e.g. "e12") or "path"';

const coordinate = z.number().min(-100_000).max(100_000);
const length = z.number().positive().max(100_000);

/** A screen area in points. */
export const screenRegion = z.strictObject({ x: coordinate, y: coordinate, width: length, height: length });

/** What a capture covers: one of a region, a display, or an app's window (take_screenshot, read_text, visual_diff). */
export const captureArea = {
  app: appParam.optional().describe("Capture this app's window (its front-most one unless window says)."),
  window: z
    .union([z.string().min(1).max(512), z.number().int().min(0)])
    .optional()
    .describe(
      "A window: its id from list_windows, its title (or part of it), or its index in list_windows' order (front to back; among the app's windows when app is given).",
    ),
  display: z.string().min(1).max(128).optional().describe('A display id from list_displays.'),
  region: screenRegion
    .optional()
    .describe('A screen area in points: x, y of its top-left corner, width, height.'),
};

/** A refinement that keeps a capture to one area. */
export const oneCaptureArea = [
  (a: { region?: unknown; display?: unknown; app?: unknown; window?: unknown }) =>
    [a.region, a.display, a.app ?? a.window].filter((v) => v !== undefined).length <= 1,
  { message: 'give at most one of region, display, or app / window' },
] as const;

/** A time in milliseconds a call may wait or watch, from `min` up to the longest wait. */
export const waitMs = (min: number) => z.number().int().min(min).max(WAIT_DEFAULTS.maxTimeoutMs).optional();

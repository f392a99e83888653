/**
 * What the X11, sway and GNOME routes check alike of the displays and windows a request names: a display among
 * those the display server lists (X11 RandR, sway's outputs, mutter's monitors), a window id's form, a window
 * that is there.
 */
import {
  type Bounds,
  type DisplayInfo,
  HelperErrorCode,
  WINDOW_ID_PATTERN,
} from '../../../helper-client/protocol.js';
import { HelperFailure } from '../errors.js';

export function displayBounds(all: readonly DisplayInfo[], id: string): Bounds {
  const display = all.find((d) => d.id === id);
  if (!display) {
    throw new HelperFailure(
      HelperErrorCode.InvalidParams,
      `no display ${JSON.stringify(id)}`,
      `the displays are: ${all.map((d) => d.id).join(', ')}`,
    );
  }
  return display.bounds;
}

/** Window ids are decimal numbers on X11, sway and GNOME, UUIDs in braces on KDE Plasma (KWin). */
export function checkWindowId(id: string): void {
  if (!WINDOW_ID_PATTERN.test(id)) {
    throw new HelperFailure(
      HelperErrorCode.InvalidParams,
      `"${id}" is not a window id`,
      'use a window id windows.list gave',
    );
  }
}

/** The window `find` finds by `id` (checked first), or a failure saying it closed. */
export async function existingWindow<W>(id: string, find: () => Promise<W | undefined>): Promise<W> {
  checkWindowId(id);
  const found = await find();
  if (!found) {
    throw new HelperFailure(
      HelperErrorCode.ElementGone,
      `no window has the id ${id}`,
      'the window closed; list the windows for current ids',
    );
  }
  return found;
}

/** What undoes an action, read before it runs (see ToolSpec.inverse): one reader per kind of state. */
import type { WindowTarget } from '../engine/kernel/window-target.js';
import type { Inverse, NothingToUndo } from './history.js';
import type { ToolContext } from './types.js';

/** set_clipboard's largest text: a clipboard is read whole to be put back or compared. */
const CLIPBOARD_MAX_CHARS = 10_000_000;

/** A field's value put back with set_value; none for a secure field, whose value is never read. */
export async function previousValue(
  target: { ref?: string; path?: string },
  { engine, signal }: ToolContext,
): Promise<Inverse | undefined> {
  const { entry, detail } = await engine.elements.getElement(target, { signal });
  if (detail.states.includes('secure')) return undefined;
  const value = detail.value ?? (detail.states.includes('editable') ? '' : undefined);
  if (value === undefined) return undefined;
  const named = target.ref ? { ref: target.ref } : { path: target.path };
  return { tool: 'set_value', args: { ...named, value }, what: `the previous value of ${entry.label}` };
}

/** The value of the element that has keyboard focus now, put back with set_value: keys typed go there. */
export async function previousFocusedValue(context: ToolContext): Promise<Inverse | undefined> {
  const located = await context.engine.elements.focused(undefined, { signal: context.signal });
  return located.node ? previousValue({ ref: located.node.ref }, context) : undefined;
}

/**
 * The clipboard's text put back, or the clipboard emptied when it held none; not when it no longer holds `left`
 * (what the action leaves on it; undefined: nothing), for then someone copied something since.
 */
export async function previousClipboard(
  { engine, signal }: ToolContext,
  left: string | undefined,
): Promise<Inverse> {
  const { text } = await engine.clipboard.get(CLIPBOARD_MAX_CHARS, { signal });
  const changedSince: Inverse['changedSince'] = async (now) => {
    const held = await now.engine.clipboard.get(CLIPBOARD_MAX_CHARS, { signal: now.signal });
    return held.text === left
      ? undefined
      : 'the clipboard changed since (something else was copied): putting the old text back would lose it';
  };
  return text === undefined
    ? { tool: 'clear_clipboard', args: {}, what: 'the empty clipboard', changedSince }
    : { tool: 'set_clipboard', args: { text }, what: 'the previous clipboard text', changedSince };
}

type WindowChange = 'move' | 'resize' | 'minimize' | 'restore';

/** The window's previous frame or state, addressed by its id so that the undo finds the same window. */
export async function previousWindow(
  target: WindowTarget,
  change: WindowChange,
  { engine, signal }: ToolContext,
): Promise<Inverse | NothingToUndo | undefined> {
  const window = await engine.windows.resolve(target, { signal });
  const id = { window_id: window.id };
  const { x, y, width, height } = window.bounds;
  const which = `"${window.title}"`;
  switch (change) {
    case 'move':
      return {
        tool: 'move_window',
        args: { ...id, x: Math.round(x), y: Math.round(y) },
        what: `where ${which} was`,
      };
    case 'resize':
      return {
        tool: 'resize_window',
        args: { ...id, width: Math.round(width), height: Math.round(height) },
        what: `the size ${which} had`,
      };
    case 'minimize':
      return window.minimized
        ? { nothing: `${which} was minimized already` }
        : { tool: 'restore_window', args: id, what: `${which} restored` };
    case 'restore':
      return window.minimized
        ? { tool: 'minimize_window', args: id, what: `${which} minimized again` }
        : { nothing: `${which} was not minimized` };
  }
}

/** Hand-built element trees shaped like real AT-SPI trees (mousepad, a password dialog). */
import type { ElementNode, ElementState } from '../../../src/helper-client/protocol.js';

export interface Extra {
  pid?: number;
  id?: string;
  value?: string | number | boolean;
  states?: ElementState[];
  subrole?: string;
  identifier?: string;
  description?: string;
  bounds?: { x: number; y: number; width: number; height: number };
  valueTruncated?: boolean;
  shortcut?: string;
  /** A long list's: its count of children beyond those given, and which of them are given. */
  childCount?: number;
  shownChildren?: { from: number; count: number };
}

let counter = 0;

/** A node with an automatic handle (`h1`, `h2`, ...) unless `extra.id` names one; childCount follows children. */
export function el(
  nativeRole: string,
  name: string,
  extra: Extra = {},
  children?: ElementNode[],
): ElementNode {
  const { id, ...rest } = extra;
  return {
    id: id ?? `h${++counter}`,
    nativeRole,
    name,
    states: [],
    childCount: children?.length ?? 0,
    pid: 4242,
    ...rest,
    ...(children ? { children } : {}),
  };
}

export const SECRET = 'hunter2-SECRET';

/** A mousepad-like app: a window with a menu bar, an editor, and a password dialog. */
export function mousepad(): ElementNode {
  return el('application', 'mousepad', { id: 'app' }, [
    el('frame', 'Untitled 1 - Mousepad', { id: 'win', states: ['active'] }, [
      el('filler', '', { id: 'filler1' }, [
        el('menu bar', '', { id: 'menubar' }, [
          el('menu', 'File', { id: 'menu-file', states: ['collapsed'] }, [
            el('menu item', 'New      ', { id: 'mi-new' }),
            el('menu item', 'Open...      ', { id: 'mi-open' }),
            el('menu item', 'Save As...      ', { id: 'mi-saveas' }),
            el('separator', '', { id: 'sep' }),
            el('menu item', 'Quit', { id: 'mi-quit' }),
          ]),
          el('menu', 'Edit', { id: 'menu-edit' }, [
            el('menu item', 'Undo', { id: 'mi-undo', states: ['disabled'] }),
            el('check menu item', 'Word Wrap', { id: 'mi-wrap', states: ['checked'] }),
          ]),
        ]),
        el('filler', '', { id: 'filler2' }, [
          el('scroll pane', '', { id: 'scroll' }, [
            el('text', '', {
              id: 'editor',
              value: 'Hello world',
              states: ['focused', 'editable', 'multiline', 'focusable'],
              bounds: { x: 0, y: 40, width: 600, height: 400 },
            }),
          ]),
        ]),
        el('status bar', '', { id: 'status' }),
      ]),
    ]),
    el('dialog', 'Unlock', { id: 'dlg' }, [
      el('label', 'Password:', { id: 'lbl' }),
      el('password text', '', { id: 'pw', value: SECRET, states: ['focusable', 'editable'] }),
      el('push button', 'OK', { id: 'ok' }),
      el('push button', 'Cancel', { id: 'cancel', states: ['disabled'] }),
    ]),
  ]);
}

/** A node found by handle anywhere under `root`. */
export function byId(root: ElementNode, id: string): ElementNode {
  const found = findId(root, id);
  if (!found) throw new Error(`no node ${id}`);
  return found;
}

function findId(node: ElementNode, id: string): ElementNode | undefined {
  if (node.id === id) return node;
  for (const child of node.children ?? []) {
    const found = findId(child, id);
    if (found) return found;
  }
  return undefined;
}

/** The apps most engine tests run against: an active mousepad and a gtk3-demo in the background. */
export function runningApps() {
  const app = { pid: 4242, name: 'mousepad', bundleId: 'org.xfce.mousepad', active: true, root: mousepad() };
  const other = {
    pid: 7,
    name: 'gtk3-demo',
    active: false,
    root: el('application', 'gtk3-demo', { pid: 7 }),
  };
  return { app, other };
}

/**
 * A gnome-calculator-like keypad (GTK4): buttons labelled by a label child, some named after it, some not (π,
 * x², a button of two labels), one icon button with only a description, and a textbox whose label must not name
 * it.
 */
export function calculator(): ElementNode {
  return el('application', 'calc', { id: 'calc', pid: 99 }, [
    el('frame', 'Calculator', { id: 'calc-win', pid: 99 }, [
      el('filler', '', { id: 'keys', pid: 99 }, [
        el('push button', '7', { id: 'b7', pid: 99 }, [el('label', '7', { id: 'l7', pid: 99 })]),
        el('push button', '', { id: 'pi', pid: 99 }, [el('label', 'π', { id: 'lpi', pid: 99 })]),
        el('push button', '', { id: 'sq', pid: 99 }, [
          el('filler', '', { id: 'sq-box', pid: 99 }, [
            el('label', 'x', { id: 'lx', pid: 99 }),
            el('label', '2', { id: 'l2', pid: 99 }),
          ]),
        ]),
        el('push button', '', { id: 'clear', pid: 99, description: 'Clear Display [Escape]' }),
        el('text', '', { id: 'display', pid: 99, value: '0' }, [
          el('label', 'Result', { id: 'lres', pid: 99 }),
        ]),
      ]),
    ]),
  ]);
}

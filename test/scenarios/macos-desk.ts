/**
 * A Mac's own apps for the shared scenarios: TextEdit and Calculator. Written from Apple's documented behaviour and
 * the names their accessibility trees give (docs/macos-apis.md); the macOS workflow runs them.
 */
import { basename, dirname } from 'node:path';
import type { Macpilot } from '../support/mcp.js';
import { eventually, refOf } from '../support/text.js';
import type { Desk } from './desk.js';

/** The focused element once it is a text field, as a sheet that just opened gives it the focus. */
const focusedField = (macpilot: Macpilot, app: string) =>
  eventually('a focused text field', async () => {
    const focused = await macpilot.call('get_focused_element', { app });
    return !focused.isError && /^- textbox /.test(focused.text) ? refOf(focused.text, /textbox/) : undefined;
  });

export const macosDesk: Desk = {
  platform: 'darwin',
  primary: 'cmd',
  editor: {
    launch: 'TextEdit',
    newDocument: async (macpilot, app) => {
      // TextEdit may open on its Open panel (documents in iCloud): closed, then a new document asked for.
      const dialogs = await macpilot.ok('find_elements', { app, role: 'dialog' });
      if (!dialogs.startsWith('0 matches')) await macpilot.ok('press_key', { key: 'escape' });
      await macpilot.ok('click_menu_item', { app, path: 'File > New' });
      // A new document is rich text unless TextEdit's settings say otherwise: plain text saves the bytes typed.
      const plain = await macpilot.call('get_menu_item_state', { app, path: 'Format > Make Plain Text' });
      if (!plain.isError) await macpilot.ok('click_menu_item', { app, path: 'Format > Make Plain Text' });
    },
    saveAs: async (macpilot, app, file) => {
      await macpilot.ok('click_menu_item', { app, path: 'File > Save…' });
      // The Save sheet: Cmd-Shift-G opens "Go to the folder", whose field takes the folder's path.
      await focusedField(macpilot, app);
      await macpilot.ok('press_key', { key: 'cmd+shift+g' });
      await macpilot.ok('set_value', { ref: await focusedField(macpilot, app), value: dirname(file) });
      await macpilot.ok('press_key', { key: 'return' });
      const name = await eventually('the "Save As:" field', async () => {
        const found = await macpilot.ok('find_elements', { app, role: 'textbox', name: 'Save As' });
        return found.startsWith('0 matches') ? undefined : refOf(found, /textbox/);
      });
      await macpilot.ok('set_value', { ref: name, value: basename(file) });
      await macpilot.ok('press_key', { key: 'return' });
    },
  },
  calculator: {
    launch: 'Calculator',
    launchTimeoutMs: 30_000,
    // Calculator names its operator keys in words (its own description), digits by the digit.
    buttons: {
      '7': ['7'],
      '×': ['Multiply', 'multiply', '×'],
      '6': ['6'],
      '=': ['Equals', 'equals', '='],
    },
  },
};

/** The Linux test desktop's apps for the shared scenarios: mousepad and gnome-calculator. */
import { refOf } from '../support/text.js';
import type { Desk } from './desk.js';

export const linuxDesk: Desk = {
  platform: 'linux',
  primary: 'ctrl',
  editor: {
    launch: 'mousepad',
    // mousepad starts with an empty "Untitled" document of plain text.
    newDocument: async () => {},
    saveAs: async (macpilot, app, file) => {
      await macpilot.ok('click_menu_item', { app, path: 'File > Save As…' });
      // GTK's file chooser takes a whole path in its name field, which has the focus.
      const focused = await macpilot.ok('get_focused_element', { app });
      await macpilot.ok('set_value', { ref: refOf(focused, /textbox "Name:"/), value: file });
      await macpilot.ok('press_key', { key: 'enter' });
    },
  },
  calculator: {
    launch: 'Calculator',
    launchTimeoutMs: 30_000,
    buttons: { '7': ['7'], '×': ['×'], '6': ['6'], '=': ['='] },
  },
};

/**
 * Every script macpilot itself runs through osascript. Each source is a constant: user values reach a script only
 * as arguments (`function run(argv)`), never inside its text, so no value can change what a script does.
 * test/unit/platforms/macos/scripts.test.ts fails if a source here is built with a substitution, a concatenation or a call,
 * and if any other module makes a ConstantScript.
 *
 * JXA (JavaScript) wherever it can do the job: its results come back as JSON and Node can parse every source.
 */
import type { ScriptLanguage } from '../../services/types.js';

declare const constantScript: unique symbol;

/** A script from this module: the only kind the runner's runConstant accepts. */
export interface ConstantScript {
  readonly [constantScript]: true;
  readonly name: string;
  readonly language: ScriptLanguage;
  readonly source: string;
  /** What it does, for errors: "Reading the output volume". */
  readonly action: string;
}

function jxa(name: string, action: string, source: string): ConstantScript {
  return { name, language: 'jxa', action, source } as ConstantScript;
}

/** argv: message, title, subtitle ('' for none), sound name ('' for none). */
const notify = jxa(
  'notify',
  'Showing the notification',
  `
function run(argv) {
  const [message, title, subtitle, sound] = argv;
  const app = Application.currentApplication();
  app.includeStandardAdditions = true;
  const options = { withTitle: title };
  if (subtitle) options.subtitle = subtitle;
  if (sound) options.soundName = sound;
  app.displayNotification(message, options);
  return JSON.stringify({ shown: true });
}
`,
);

/** argv: 'get' | 'volume' <0-100> | 'muted' <'true'|'false'>; answers the settings read after any change. */
const audio = jxa(
  'audio',
  'Reading or setting the output volume',
  `
function run(argv) {
  const [action, value] = argv;
  const app = Application.currentApplication();
  app.includeStandardAdditions = true;
  if (action === 'volume') app.setVolume(null, { outputVolume: Number(value) });
  else if (action === 'muted') app.setVolume(null, { outputMuted: value === 'true' });
  else if (action !== 'get') throw new Error('unknown audio action: ' + action);
  const settings = app.getVolumeSettings();
  // A device without volume control (HDMI, some USB interfaces) answers missing value for both.
  return JSON.stringify({
    volume: typeof settings.outputVolume === 'number' ? settings.outputVolume : null,
    muted: settings.outputMuted === true,
  });
}
`,
);

/** argv: an absolute POSIX path that exists. */
const reveal = jxa(
  'reveal',
  'Revealing the item in Finder',
  `
function run(argv) {
  const finder = Application('Finder');
  finder.reveal(Path(argv[0]));
  finder.activate();
  return JSON.stringify({ revealed: true });
}
`,
);

/** The POSIX paths of Finder's selection. */
const finderSelection = jxa(
  'finderSelection',
  "Reading Finder's selection",
  `
ObjC.import('Foundation');
function run() {
  const items = Application('Finder').selection();
  return JSON.stringify(items.map((item) => ObjC.unwrap($.NSURL.URLWithString(item.url()).path)));
}
`,
);

/** The folder of the front Finder window: {window: false}, or {window: true, path: string | null}. */
const finderWindow = jxa(
  'finderWindow',
  "Reading the front Finder window's folder",
  `
ObjC.import('Foundation');
function run() {
  const windows = Application('Finder').finderWindows;
  if (windows.length === 0) return JSON.stringify({ window: false });
  let url = null;
  try {
    url = windows[0].target().url();
  } catch (e) {
    url = null; // Recents, a search, AirDrop: places that are no folder
  }
  return JSON.stringify({ window: true, path: url ? ObjC.unwrap($.NSURL.URLWithString(url).path) : null });
}
`,
);

/**
 * The menu bar's extras, through System Events (needs Accessibility). argv[0] is the action:
 * - 'list': every extra as {pid, process, bar, index, description, title, name, x, y, width, height}: menu bar 2 of
 *   each process that has one, the only menu bar of a process when it holds extras (an agent app without a main menu:
 *   its items have the subrole AXMenuExtra), and every menu bar of SystemUIServer and ControlCenter;
 * - 'click' pid bar index: presses the extra;
 * - 'items' pid bar index name...: opens its menu, waits up to 2 s for a lazily built menu (and each submenu) to
 *   fill, answers {items: [...]} at that level (or {missing, available}), and closes the menu;
 * - 'pick' pid bar index name...: opens the menu and clicks the item at that path (or answers {missing, available}).
 */
const statusBar = jxa(
  'statusBar',
  'Working the menu bar extras',
  `
const SYSTEM_EXTRAS = ['SystemUIServer', 'ControlCenter'];

function attribute(element, name) {
  try {
    const value = element.attributes.byName(name).value();
    return typeof value === 'string' ? value : '';
  } catch (e) {
    return '';
  }
}

// An agent app (LSUIElement) without a main menu has its status items in menu bar 1.
function holdsExtras(bar) {
  try {
    const items = bar.menuBarItems;
    return items.length > 0 && attribute(items[0], 'AXSubrole') === 'AXMenuExtra';
  } catch (e) {
    return false; // a process that quit while being read
  }
}

function barsOfExtras(process, name, bars) {
  if (SYSTEM_EXTRAS.includes(name)) return [...Array(bars).keys()];
  if (bars > 1) return [1];
  return bars === 1 && holdsExtras(process.menuBars[0]) ? [0] : [];
}

function list(events) {
  const processes = events.processes;
  const names = processes.name();
  const pids = processes.unixId();
  const extras = [];
  for (let p = 0; p < names.length; p++) {
    let bars = 0;
    try {
      bars = processes[p].menuBars.length;
    } catch (e) {
      continue; // a process that answers no UI scripting
    }
    for (const bar of barsOfExtras(processes[p], names[p], bars)) {
      const items = processes[p].menuBars[bar].menuBarItems;
      const count = items.length;
      for (let i = 0; i < count; i++) {
        const item = items[i];
        let position = [0, 0];
        let size = [0, 0];
        let name = '';
        try {
          position = item.position();
          size = item.size();
          name = item.name() || '';
        } catch (e) {
          // an extra that vanished while being read keeps zero bounds
        }
        extras.push({
          pid: pids[p],
          process: names[p],
          bar,
          index: i,
          description: attribute(item, 'AXDescription'),
          title: attribute(item, 'AXTitle'),
          name,
          x: position[0],
          y: position[1],
          width: size[0],
          height: size[1],
        });
      }
    }
  }
  return extras;
}

// The first menu of element once it has items, polling for up to 2 s; null when it stays empty.
function filledMenu(element) {
  for (let tries = 0; tries < 20; tries++) {
    try {
      if (element.menus.length > 0 && element.menus[0].menuItems.length > 0) return element.menus[0];
    } catch (e) {
      // not built yet
    }
    delay(0.1);
  }
  return null;
}

function names(menu) {
  return menu.menuItems.name().filter((name) => typeof name === 'string' && name !== '');
}

function close(events, menu) {
  try {
    menu.actions.byName('AXCancel').perform();
  } catch (e) {
    events.keyCode(53); // escape
  }
}

function run(argv) {
  const [action, pid, bar, index, ...path] = argv;
  const events = Application('System Events');
  if (action === 'list') return JSON.stringify(list(events));
  const extra = events.processes.whose({ unixId: Number(pid) })[0].menuBars[Number(bar)].menuBarItems[Number(index)];
  extra.click();
  if (action === 'click') return JSON.stringify({ clicked: true });
  const top = filledMenu(extra);
  if (top === null) return JSON.stringify({ empty: true });
  let menu = top;
  const steps = action === 'pick' ? path.length - 1 : path.length;
  for (let level = 0; level <= steps; level++) {
    const wanted = path[level];
    if (level === steps && action === 'items') {
      const found = names(menu);
      close(events, top);
      return JSON.stringify({ items: found });
    }
    const entry = menu.menuItems.byName(wanted);
    if (!entry.exists()) {
      const available = names(menu);
      close(events, top);
      return JSON.stringify({ missing: wanted, level, available });
    }
    if (level === steps) {
      entry.click();
      return JSON.stringify({ clicked: true });
    }
    let submenu = entry.menus.length > 0 && entry.menus[0].menuItems.length > 0 ? entry.menus[0] : null;
    if (submenu === null) {
      entry.click(); // opens a submenu that is built when shown
      submenu = filledMenu(entry);
    }
    if (submenu === null) {
      close(events, top);
      return JSON.stringify({ notSubmenu: wanted, level });
    }
    menu = submenu;
  }
  throw new Error('unknown status bar action: ' + action);
}
`,
);

/** Every script macpilot runs, by name. */
export const SCRIPTS = { notify, audio, reveal, finderSelection, finderWindow, statusBar } as const;

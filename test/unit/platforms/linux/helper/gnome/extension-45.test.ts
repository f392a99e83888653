/**
 * macpilot's two GNOME Shell extensions: the legacy one (GNOME Shell 42 to 44; the GNOME suite runs it on Debian
 * 12's 43) and its ES-module port for 45 and later, which Debian 12 cannot load. Both parse, share the uuid and
 * the D-Bus interface, and claim disjoint shell versions; run against a stand-in for the shell's API (43's for the
 * legacy one; 45 to 48's, and 49's new maximize calls, for the port), they do the same for the same calls. And the
 * helper's install hint names the folder for the GNOME Shell it asks.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Program, parse } from 'acorn';
import { describe, expect, test } from 'vitest';
import type { Bus } from '../../../../../../src/platforms/linux/dbus/bus.js';
import { DBusCallError, HelperFailure } from '../../../../../../src/platforms/linux/errors.js';
import {
  EXTENSION_UUID,
  GnomeShell,
  WINDOWS_SERVICE,
} from '../../../../../../src/platforms/linux/helper/gnome/gnome-shell.js';

const folder = (path: string) =>
  fileURLToPath(new URL(`../../../../../../gnome-extension/${path}`, import.meta.url));
const LEGACY = folder(`${EXTENSION_UUID}/`);
const PORT = folder(`45/${EXTENSION_UUID}/`);

const source = (dir: string) => readFileSync(`${dir}extension.js`, 'utf8');
const metadata = (dir: string) =>
  JSON.parse(readFileSync(`${dir}metadata.json`, 'utf8')) as { uuid: string; 'shell-version': string[] };
const parsed = (dir: string, sourceType: 'script' | 'module') =>
  parse(source(dir), { ecmaVersion: 'latest', sourceType });

/** The members of the interface's XML, as `method List`, `signal ClipboardChanged`, `property Version`. */
function members(text: string): string[] {
  const xml = /const INTERFACE = `([^`]*)`/.exec(text)?.[1] ?? '';
  expect(xml).toContain(`<interface name="${WINDOWS_SERVICE}">`);
  return [...xml.matchAll(/<(method|signal|property) name="(\w+)"/g)].map(
    ([, kind, name]) => `${kind} ${name}`,
  );
}

// The interface of docs/linux-sessions.md and of the helper (gnome-shell.ts).
const INTERFACE = [
  'List',
  'Activate',
  'MoveResize',
  'Minimize',
  'Unminimize',
  'Close',
  'ReadClipboard',
  'WriteClipboard',
  'ClearClipboard',
  'ClipboardChanged',
  'Version',
];

describe('the two extensions', () => {
  test('the legacy one parses as a script with init(), the port as a module with a default Extension class', () => {
    const legacy = parsed(LEGACY, 'script');
    expect(legacy.body.some((n) => n.type === 'FunctionDeclaration' && n.id.name === 'init')).toBe(true);
    const port = parsed(PORT, 'module');
    const declaration = port.body.find((n) => n.type === 'ExportDefaultDeclaration')?.declaration;
    expect(declaration?.type).toBe('ClassDeclaration');
    if (declaration?.type !== 'ClassDeclaration') return;
    expect(declaration.superClass).toMatchObject({ type: 'Identifier', name: 'Extension' });
    const methods = declaration.body.body.map((m) => (m.type === 'MethodDefinition' ? m.key : null));
    expect(methods).toEqual([
      expect.objectContaining({ name: 'enable' }),
      expect.objectContaining({ name: 'disable' }),
    ]);
    // GNOME 45 and later have no imports.* and call no init().
    expect(JSON.stringify(port)).not.toMatch(/"name":"(imports|init)"/);
    const imports = port.body.flatMap((n) =>
      n.type === 'ImportDeclaration' ? [String(n.source.value)] : [],
    );
    expect(imports).toContain('resource:///org/gnome/shell/extensions/extension.js');
    for (const from of imports)
      expect(from).toMatch(/^(gi:\/\/\w+|resource:\/\/\/org\/gnome\/shell\/.+\.js)$/);
  });

  test('one uuid, the helper’s, and disjoint shell versions: 42 to 44 for the legacy one, 45 on for the port', () => {
    const legacy = metadata(LEGACY);
    const port = metadata(PORT);
    expect(legacy.uuid).toBe(EXTENSION_UUID);
    expect(port.uuid).toBe(EXTENSION_UUID);
    expect(legacy['shell-version'].filter((v) => port['shell-version'].includes(v))).toEqual([]);
    for (const v of legacy['shell-version']) expect(Number(v)).toBeLessThan(45);
    for (const v of port['shell-version']) expect(Number(v)).toBeGreaterThanOrEqual(45);
    expect(port['shell-version']).toContain('45');
  });

  test('the same D-Bus interface in both, every method and property implemented', () => {
    const legacy = members(source(LEGACY));
    expect(members(source(PORT))).toEqual(legacy);
    expect(legacy.map((m) => m.split(' ')[1])).toEqual(INTERFACE);
    for (const dir of [LEGACY, PORT]) {
      const text = source(dir);
      for (const name of INTERFACE) expect(text).toContain(name);
      const program = parsed(dir, dir === PORT ? 'module' : 'script');
      const service = classNamed(program, 'WindowService');
      const implemented = service.map((m) => `${m.kind === 'get' ? 'property' : 'method'} ${m.name}`);
      for (const member of legacy.filter((m) => !m.startsWith('signal'))) {
        // GJS answers a method `Name` from `NameAsync(parameters, invocation)` too.
        expect(
          [member, `${member}Async`].some((m) => implemented.includes(m)),
          member,
        ).toBe(true);
      }
      expect(text).toContain("emit_signal('ClipboardChanged'");
    }
  });
});

function classNamed(program: Program, name: string): { name: string; kind: string }[] {
  const found = program.body.find((n) => n.type === 'ClassDeclaration' && n.id.name === name);
  if (found?.type !== 'ClassDeclaration') throw new Error(`no class ${name}`);
  return found.body.body.flatMap((m) =>
    m.type === 'MethodDefinition' && m.key.type === 'Identifier' ? [{ name: m.key.name, kind: m.kind }] : [],
  );
}

// --- A stand-in for GNOME Shell: what each extension calls, in order. ---

type Flavour = '43' | '45-48' | '49';
const BOTH = 3;
const CLIPBOARD = 1;
const PRIMARY = 0;

interface Service {
  Version: number;
  List(): string;
  Activate(id: string): void;
  MoveResize(id: string, x: number, y: number, width: number, height: number): void;
  Minimize(id: string): void;
  Unminimize(id: string): void;
  Close(id: string): void;
  ReadClipboardAsync(parameters: unknown[], invocation: { return_value(value: unknown): void }): void;
  WriteClipboard(text: string): void;
  ClearClipboard(): void;
}
interface ExtensionObject {
  enable(): void;
  disable(): void;
}

function shell(flavour: Flavour, clipboardTypes: string[]) {
  const log: unknown[][] = [];
  const window = (id: number, title: string | null, extra: Record<string, unknown> = {}) => {
    const maximized = (extra.maximized as number | undefined) ?? 0;
    const maximize =
      flavour === '49'
        ? {
            get_maximize_flags: () => maximized,
            is_maximized: () => maximized === BOTH,
            unmaximize: (...args: unknown[]) => {
              // Mutter 49's unmaximize() takes nothing; GJS would warn at a flag.
              expect(args).toEqual([]);
              log.push(['unmaximize', id, BOTH]);
            },
          }
        : {
            get_maximized: () => maximized,
            unmaximize: (flags: number) => log.push(['unmaximize', id, flags]),
          };
    return {
      get_id: () => id,
      get_title: () => title,
      get_pid: () => 100 + id,
      get_wm_class: () => (title === null ? null : `${title}.App`),
      get_frame_rect: () => ({ x: 10 * id, y: 20, width: 300, height: 200, extra: 'mtk' }),
      get_buffer_rect: () => ({ x: 10 * id - 5, y: 15, width: 310, height: 210 }),
      has_focus: () => id === 2,
      minimized: false,
      get_client_type: () => (id === 3 ? 1 : 0),
      get_monitor: () => 0,
      is_skip_taskbar: () => extra.skipTaskbar === true,
      get_window_type: () => (extra.desktop === true ? 1 : 0),
      minimize: () => log.push(['minimize', id]),
      unminimize: () => log.push(['unminimize', id]),
      delete: (time: number) => log.push(['delete', id, time]),
      move_resize_frame: (...args: unknown[]) => log.push(['move_resize_frame', id, ...args]),
      ...maximize,
    };
  };
  type FakeWindow = ReturnType<typeof window>;
  // Actors in the compositor's order; stacking puts 3 below 2.
  const windows = [
    window(2, 'Top', { maximized: BOTH }),
    window(4, 'Panel', { skipTaskbar: true }),
    window(3, null),
    window(5, 'Desktop', { desktop: true }),
    window(1, 'Bottom', { maximized: 2 }),
  ];
  const stacking = [1, 3, 2, 4, 5];
  const handlers: ((selection: unknown, type: number) => void)[] = [];
  const selection = {
    connect: (signal: string, handler: (selection: unknown, type: number) => void) => {
      log.push(['connect', signal]);
      handlers.push(handler);
      return 7;
    },
    disconnect: (id: number) => log.push(['disconnect', id]),
    set_owner: (type: number, source: unknown) => log.push(['set_owner', type, source]),
    unset_owner: (type: number, source: unknown) => log.push(['unset_owner', type, source]),
  };
  let service: Service | undefined;
  const exported = {
    export: (connection: string, path: string) => log.push(['export', connection, path]),
    unexport: () => log.push(['unexport']),
    emit_signal: (name: string, value: unknown) => log.push(['emit_signal', name, value]),
  };
  const global = {
    get_window_actors: () => [...windows.map((w) => ({ meta_window: w })), { meta_window: null }],
    display: {
      sort_windows_by_stacking: (list: FakeWindow[]) =>
        [...list].sort((a, b) => stacking.indexOf(a.get_id()) - stacking.indexOf(b.get_id())),
      get_selection: () => selection,
    },
    get_current_time: () => 4242,
  };
  const Meta = {
    WindowType: { NORMAL: 0, DESKTOP: 1 },
    WindowClientType: { WAYLAND: 0, X11: 1 },
    MaximizeFlags: { HORIZONTAL: 1, VERTICAL: 2, BOTH },
    SelectionType: { SELECTION_PRIMARY: PRIMARY, SELECTION_CLIPBOARD: CLIPBOARD },
    SelectionSourceMemory: { new: (mimetype: string, bytes: unknown) => ({ mimetype, bytes }) },
  };
  const clipboard = {
    get_mimetypes: (type: number) => (type === CLIPBOARD ? clipboardTypes : []),
    get_text: (type: number, callback: (clipboard: unknown, text: string | null) => void) =>
      callback(clipboard, type === CLIPBOARD ? 'copied' : null),
    set_text: (type: number, text: string) => log.push(['set_text', type, text]),
  };
  const St = { ClipboardType: { CLIPBOARD }, Clipboard: { get_default: () => clipboard } };
  class GError extends Error {
    constructor(
      readonly domain: unknown,
      readonly code: unknown,
      message: string,
    ) {
      super(message);
    }
  }
  const GLib = {
    Error: GError,
    Variant: class {
      constructor(
        readonly signature: string,
        readonly value: unknown,
      ) {}
    },
    Bytes: class {
      constructor(readonly data: Uint8Array) {}
    },
  };
  const Gio = {
    DBusError: { INVALID_ARGS: 'InvalidArgs' },
    DBusExportedObject: {
      wrapJSObject: (xml: string, impl: Service) => {
        service = impl;
        return exported;
      },
    },
    DBus: { session: 'session bus' },
    BusType: { SESSION: 2 },
    BusNameOwnerFlags: { NONE: 0 },
    bus_own_name: (...args: unknown[]) => {
      log.push(['bus_own_name', ...args]);
      return 9;
    },
    bus_unown_name: (id: number) => log.push(['bus_unown_name', id]),
  };
  const Main = { activateWindow: (w: FakeWindow) => log.push(['activateWindow', w.get_id()]) };
  return {
    log,
    global,
    gi: { Gio, GLib, Meta, St },
    Main,
    service: () => service as Service,
    ownerChanged: (type: number) => handlers.forEach((handler) => handler(selection, type)),
  };
}
type Shell = ReturnType<typeof shell>;

/** The legacy extension as GNOME Shell 42 to 44 load it: a script given `imports`, asked for init(). */
function loadLegacy(api: Shell): ExtensionObject {
  const init = new Function('imports', 'global', `${source(LEGACY)}\nreturn init;`)(
    { gi: api.gi, ui: { main: api.Main } },
    api.global,
  ) as () => ExtensionObject;
  return init();
}

/** The port as GNOME Shell 45 and later load it: its imports resolved, its default export constructed. */
function loadPort(api: Shell): ExtensionObject {
  class Extension {
    constructor(readonly metadata: unknown) {}
  }
  const modules: Record<string, Record<string, unknown>> = {
    ...Object.fromEntries(Object.entries(api.gi).map(([name, lib]) => [`gi://${name}`, { default: lib }])),
    'resource:///org/gnome/shell/ui/main.js': api.Main,
    'resource:///org/gnome/shell/extensions/extension.js': { Extension },
  };
  const text = source(PORT);
  const program = parse(text, { ecmaVersion: 'latest', sourceType: 'module' });
  const names: string[] = [];
  const values: unknown[] = [];
  const cuts: [number, number][] = [];
  let exported = '';
  for (const node of program.body) {
    if (node.type === 'ImportDeclaration') {
      const module = modules[String(node.source.value)];
      if (!module) throw new Error(`the stand-in has no ${String(node.source.value)}`);
      for (const specifier of node.specifiers) {
        names.push(specifier.local.name);
        if (specifier.type === 'ImportDefaultSpecifier') values.push(module.default);
        else if (specifier.type === 'ImportNamespaceSpecifier') values.push(module);
        else values.push(module[specifier.imported.type === 'Identifier' ? specifier.imported.name : '']);
      }
      cuts.push([node.start, node.end]);
    } else if (node.type === 'ExportDefaultDeclaration') {
      const { declaration } = node;
      if (declaration.type !== 'ClassDeclaration' || !declaration.id) throw new Error('no default class');
      exported = declaration.id.name;
      cuts.push([node.start, declaration.start]);
    } else {
      expect(node.type).not.toMatch(/^Export/);
    }
  }
  let body = '';
  let at = 0;
  for (const [start, end] of cuts) {
    body += text.slice(at, start);
    at = end;
  }
  body += text.slice(at);
  const Default = new Function(...names, 'global', `'use strict';\n${body}\nreturn ${exported};`)(
    ...values,
    api.global,
  ) as new (metadata: unknown) => ExtensionObject;
  return new Default({ uuid: EXTENSION_UUID });
}

/** Everything macpilot asks of the extension, and what the shell saw and macpilot got back. */
function session(load: (api: Shell) => ExtensionObject, flavour: Flavour, clipboardTypes: string[]) {
  const api = shell(flavour, clipboardTypes);
  const extension = load(api);
  extension.enable();
  const service = api.service();
  const replies: unknown[] = [service.Version, JSON.parse(service.List())];
  service.Activate('2');
  service.MoveResize('2', 1, 2, 640, 480);
  service.MoveResize('1', 5, 6, 700, 500);
  service.MoveResize('3', 7, 8, 800, 600);
  service.Minimize('3');
  service.Unminimize('3');
  service.Close('1');
  for (const hidden of ['4', '5', '99']) {
    expect(() => service.Minimize(hidden)).toThrow(`no window has the id ${hidden}`);
  }
  service.WriteClipboard('hello');
  service.ReadClipboardAsync([], { return_value: (value) => replies.push(value) });
  service.ClearClipboard();
  api.ownerChanged(PRIMARY);
  api.ownerChanged(CLIPBOARD);
  extension.disable();
  return { log: api.log, replies };
}

describe('the two extensions against a stand-in for GNOME Shell', () => {
  for (const types of [['text/plain;charset=utf-8', 'TEXT'], ['UTF8_STRING'], ['image/png']]) {
    test(`the port on 45 to 48 and on 49 does what the legacy one does on 43 (clipboard: ${types.join(', ')})`, () => {
      const legacy = session(loadLegacy, '43', types);
      expect(session(loadPort, '45-48', types)).toEqual(legacy);
      expect(session(loadPort, '49', types)).toEqual(legacy);
    });
  }

  test('what the legacy one does on 43', () => {
    const { log, replies } = session(loadLegacy, '43', ['text/plain;charset=utf-8']);
    expect(replies[0]).toBe(1);
    expect(replies[1]).toEqual([
      expect.objectContaining({ id: '1', title: 'Bottom', pid: 101, wmClass: 'Bottom.App', focused: false }),
      expect.objectContaining({ id: '3', title: '', wmClass: '', xwayland: true }),
      {
        id: '2',
        title: 'Top',
        pid: 102,
        wmClass: 'Top.App',
        frame: { x: 20, y: 20, width: 300, height: 200 },
        buffer: { x: 15, y: 15, width: 310, height: 210 },
        focused: true,
        minimized: false,
        xwayland: false,
        monitor: 0,
      },
    ]);
    expect(replies[2]).toEqual({
      signature: '(asbs)',
      value: [['text/plain;charset=utf-8'], true, 'copied'],
    });
    expect(log).toEqual([
      ['export', 'session bus', '/org/macpilot/Windows'],
      ['connect', 'owner-changed'],
      ['bus_own_name', 2, WINDOWS_SERVICE, 0, null, null, null],
      ['activateWindow', 2],
      ['unmaximize', 2, BOTH],
      ['move_resize_frame', 2, true, 1, 2, 640, 480],
      // Maximized one way only: unmaximized both ways too.
      ['unmaximize', 1, BOTH],
      ['move_resize_frame', 1, true, 5, 6, 700, 500],
      ['move_resize_frame', 3, true, 7, 8, 800, 600],
      ['minimize', 3],
      ['unminimize', 3],
      ['delete', 1, 4242],
      ['set_text', CLIPBOARD, 'hello'],
      ['set_owner', CLIPBOARD, { mimetype: 'text/plain;charset=utf-8', bytes: { data: new Uint8Array(0) } }],
      [
        'unset_owner',
        CLIPBOARD,
        { mimetype: 'text/plain;charset=utf-8', bytes: { data: new Uint8Array(0) } },
      ],
      ['emit_signal', 'ClipboardChanged', null],
      ['disconnect', 7],
      ['bus_unown_name', 9],
      ['unexport'],
    ]);
  });
});

describe("the helper's install hint", () => {
  /** A session bus where the extension is not running and GNOME Shell says `version` (or nothing). */
  const busWith = (version: string | Error): Bus =>
    ({
      call: async (
        destination: string,
        _path: string,
        iface: string,
        member: string,
        _s?: string,
        body?: unknown[],
      ) => {
        if (destination === WINDOWS_SERVICE) {
          throw new DBusCallError('org.freedesktop.DBus.Error.ServiceUnknown', 'The name is not activatable');
        }
        expect([destination, iface, member, body]).toEqual([
          'org.gnome.Shell',
          'org.freedesktop.DBus.Properties',
          'Get',
          ['org.gnome.Shell', 'ShellVersion'],
        ]);
        if (version instanceof Error) throw version;
        return [version];
      },
    }) as unknown as Bus;
  const hint = async (version: string | Error) => {
    const failure = await new GnomeShell(busWith(version)).windows().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(HelperFailure);
    return (failure as HelperFailure).hint;
  };

  // The package's folders, beside dist/ (from src/ here, the same path one level lower).
  const port = `/gnome-extension/45/${EXTENSION_UUID}`;
  const legacy = `/gnome-extension/${EXTENSION_UUID}`;

  test('names the folder for the running GNOME Shell', async () => {
    for (const version of ['45.0', '46.2', '48.rc', '50.1']) {
      expect(await hint(version)).toMatch(
        new RegExp(`^copy \\S+${port} to ~/\\.local/share/gnome-shell/extensions/`),
      );
    }
    expect(await hint('43.9')).toMatch(
      new RegExp(`^copy \\S+${legacy} to ~/\\.local/share/gnome-shell/extensions/`),
    );
  });

  test('names both when GNOME Shell does not say', async () => {
    for (const answer of [new DBusCallError('org.freedesktop.DBus.Error.UnknownMethod', 'no'), 'unknown']) {
      const text = await hint(answer);
      expect(text).toContain(`${port} (GNOME 45 and later) or `);
      expect(text).toContain(`${legacy} (GNOME 42 to 44) to ~/.local/share/gnome-shell/extensions/`);
    }
  });
});

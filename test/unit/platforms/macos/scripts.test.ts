/**
 * The rule that keeps user values out of script text: every script is a constant literal in scripts.ts, only
 * scripts.ts can make a ConstantScript, the services hand osascript nothing but registered scripts, and every JXA
 * source is JavaScript that defines run(argv) when it reads values.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import vm from 'node:vm';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { SCRIPTS } from '../../../../src/platforms/macos/scripts.js';

const MACOS = resolve(import.meta.dirname, '../../../../src/platforms/macos');
const SCRIPTS_FILE = join(MACOS, 'scripts.ts');

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
}

function nodes(root: ts.Node): ts.Node[] {
  const all: ts.Node[] = [];
  const visit = (node: ts.Node) => {
    all.push(node);
    ts.forEachChild(node, visit);
  };
  visit(root);
  return all;
}

const macosFiles = readdirSync(MACOS)
  .filter((file) => file.endsWith('.ts'))
  .map((file) => parse(join(MACOS, file)));

const isLiteral = (node: ts.Node) => ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node);

describe('script constants', () => {
  const source = parse(SCRIPTS_FILE);
  const calls = nodes(source).filter(
    (node): node is ts.CallExpression =>
      ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'jxa',
  );

  it('builds every script from literals only: no substitution, concatenation or call', () => {
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) {
      expect(call.arguments).toHaveLength(3);
      for (const argument of call.arguments) {
        expect(isLiteral(argument), `${argument.getText().slice(0, 60)} at ${call.getStart()}`).toBe(true);
      }
    }
  });

  it('makes ConstantScripts in one unexported function of scripts.ts and nowhere else', () => {
    const brands = macosFiles.flatMap((file) =>
      nodes(file)
        .filter((node) => ts.isAsExpression(node) && node.type.getText() === 'ConstantScript')
        .map(() => file.fileName),
    );
    expect(brands).toEqual([SCRIPTS_FILE]);
    const jxa = nodes(source).find((node) => ts.isFunctionDeclaration(node) && node.name?.text === 'jxa');
    expect(jxa && ts.canHaveModifiers(jxa) ? ts.getModifiers(jxa) : undefined).toBeUndefined();
  });

  it('registers every script it makes, under its own name', () => {
    const made = calls.map((call) => (call.arguments[0] as ts.StringLiteral).text);
    expect(made.sort()).toEqual(Object.keys(SCRIPTS).sort());
    for (const [key, script] of Object.entries(SCRIPTS)) expect(script.name).toBe(key);
  });

  it('lets the services run only registered scripts, and user scripts only in scripting.ts', () => {
    const runs = macosFiles.flatMap((file) =>
      nodes(file)
        .filter(
          (node): node is ts.CallExpression =>
            ts.isCallExpression(node) &&
            ts.isPropertyAccessExpression(node.expression) &&
            ['runConstant', 'runUserScript'].includes(node.expression.name.text) &&
            !file.fileName.endsWith('osascript.ts'),
        )
        .map((call) => ({ file: file.fileName, call })),
    );
    expect(runs.length).toBeGreaterThan(0);
    for (const { file, call } of runs) {
      const method = (call.expression as ts.PropertyAccessExpression).name.text;
      const first = call.arguments[0];
      if (method === 'runUserScript') {
        expect(file).toBe(join(MACOS, 'scripting.ts'));
        continue;
      }
      expect(first && ts.isPropertyAccessExpression(first), `${file}: ${call.getText()}`).toBe(true);
      const access = first as ts.PropertyAccessExpression;
      expect(access.expression.getText()).toBe('SCRIPTS');
      expect(Object.keys(SCRIPTS)).toContain(access.name.text);
    }
  });
});

describe('JXA sources', () => {
  for (const script of Object.values(SCRIPTS)) {
    it(`${script.name} parses as JavaScript and defines run(argv) when it reads values`, () => {
      expect(script.language).toBe('jxa');
      const context: Record<string, unknown> = { ObjC: { import: () => undefined } };
      new vm.Script(script.source, { filename: `${script.name}.js` }).runInNewContext(context);
      expect(typeof context.run).toBe('function');
      if (/\bargv\b/.test(script.source)) expect(script.source).toMatch(/^function run\(argv\) \{$/m);
    });

    // How osascript decodes a script read from stdin is not documented; ASCII reads the same in any encoding.
    it(`${script.name} is ASCII only`, () => {
      expect([...script.source].filter((c) => c !== '\n' && (c < ' ' || c > '~'))).toEqual([]);
    });
  }
});

/** Runs a JXA source in Node with stand-ins for the JXA globals it uses; answers its parsed JSON result. */
function runJxa(name: keyof typeof SCRIPTS, argv: string[], globals: Record<string, unknown>): unknown {
  const context: Record<string, unknown> = {
    ObjC: { import: () => undefined, unwrap: (value: unknown) => value },
    // NSURL's path is unescaped and loses a trailing slash (Apple's NSURL.path documentation).
    $: {
      NSURL: {
        URLWithString: (url: string) => ({
          path: decodeURIComponent(new URL(url).pathname).replace(/(.)\/$/, '$1'),
        }),
      },
    },
    Path: (path: string) => ({ posixPath: path }),
    delay: () => undefined,
    ...globals,
  };
  new vm.Script(SCRIPTS[name].source).runInNewContext(context);
  const run = context.run as (argv: string[]) => string;
  return JSON.parse(run(argv)) as unknown;
}

/** A JXA element array: indexable, with length, byName() and bulk property getters. */
function elements<T extends object>(items: T[]) {
  const nameOf = (item: T) =>
    'name' in item && typeof item.name === 'function' ? (item.name() as string | null) : null;
  return Object.assign([...items], {
    byName: (wanted: string) => {
      const found = items.find((item) => nameOf(item) === wanted);
      return { ...found, exists: () => found !== undefined };
    },
    name: () => items.map(nameOf),
  });
}

interface FakeItem {
  name: () => string | null;
  click: () => void;
  menus: ReturnType<typeof elements>;
}

function menuItem(name: string | null, clicks: string[], children?: FakeItem[]): FakeItem {
  const submenu = children ? [{ menuItems: elements(children) }] : [];
  return { name: () => name, click: () => clicks.push(name ?? ''), menus: elements(submenu) };
}

describe('JXA behaviour (with stand-ins for the JXA globals)', () => {
  it('notify passes title, subtitle and sound as options, and leaves out empty ones', () => {
    const shown: unknown[] = [];
    const app = {
      displayNotification: (message: string, options: unknown) => shown.push({ message, options }),
    };
    const Application = Object.assign(() => app, { currentApplication: () => app });
    expect(runJxa('notify', ['body', 'Title', '', 'Glass'], { Application })).toEqual({ shown: true });
    runJxa('notify', ['body', 'Title', 'Sub', ''], { Application });
    expect(shown).toEqual([
      { message: 'body', options: { withTitle: 'Title', soundName: 'Glass' } },
      { message: 'body', options: { withTitle: 'Title', subtitle: 'Sub' } },
    ]);
  });

  it('audio sets, then reads back; missing value becomes null', () => {
    const set: unknown[] = [];
    let settings: Record<string, unknown> = { outputVolume: 30, outputMuted: false };
    const app = {
      setVolume: (_: null, options: Record<string, unknown>) => {
        set.push(options);
        settings = { ...settings, ...options };
      },
      getVolumeSettings: () => settings,
    };
    const Application = { currentApplication: () => app };
    expect(runJxa('audio', ['volume', '55'], { Application })).toEqual({ volume: 55, muted: false });
    expect(runJxa('audio', ['muted', 'true'], { Application })).toEqual({ volume: 55, muted: true });
    expect(set).toEqual([{ outputVolume: 55 }, { outputMuted: true }]);
    settings = { outputVolume: null, outputMuted: null };
    expect(runJxa('audio', ['get'], { Application })).toEqual({ volume: null, muted: false });
    expect(() => runJxa('audio', ['louder'], { Application })).toThrow(/unknown audio action: louder/);
  });

  it('reveal reveals the path given and brings Finder forward', () => {
    const done: unknown[] = [];
    const finder = { reveal: (item: unknown) => done.push(item), activate: () => done.push('activate') };
    expect(runJxa('reveal', ['/Users/me/a "b".txt'], { Application: () => finder })).toEqual({
      revealed: true,
    });
    expect(done).toEqual([{ posixPath: '/Users/me/a "b".txt' }, 'activate']);
  });

  it('finderSelection turns file URLs into POSIX paths', () => {
    const item = (url: string) => ({ url: () => url });
    const finder = {
      selection: () => [item('file:///Users/me/R%C3%A9sum%C3%A9%20%232.pages'), item('file:///tmp/')],
    };
    expect(runJxa('finderSelection', [], { Application: () => finder })).toEqual([
      '/Users/me/Résumé #2.pages',
      '/tmp',
    ]);
  });

  it('finderWindow answers no window, a folder, or a place without a path', () => {
    const windows = (...targets: Array<() => { url: () => string }>) => ({
      finderWindows: Object.assign(
        targets.map((target) => ({ target })),
        {},
      ),
    });
    expect(runJxa('finderWindow', [], { Application: () => windows() })).toEqual({ window: false });
    const folder = () => ({ url: () => 'file:///Users/me/Documents/' });
    expect(runJxa('finderWindow', [], { Application: () => windows(folder) })).toEqual({
      window: true,
      path: '/Users/me/Documents',
    });
    const recents = () => {
      throw new Error("Can't get object.");
    };
    expect(runJxa('finderWindow', [], { Application: () => windows(recents) })).toEqual({
      window: true,
      path: null,
    });
  });

  describe('statusBar', () => {
    const clicks: string[] = [];
    const wifi = menuItem('Wi-Fi', clicks);
    wifi.menus = elements([
      {
        menuItems: elements([
          menuItem('Turn Wi-Fi Off', clicks),
          menuItem(null, clicks),
          menuItem('Other Networks', clicks, [menuItem('Guest', clicks)]),
        ]),
      },
    ]);
    const attributes = (values: Record<string, string>) => ({
      byName: (name: string) => ({ value: () => values[name] ?? null }),
    });
    const extra = Object.assign(wifi, {
      position: () => [1290, 0],
      size: () => [30, 24],
      attributes: attributes({ AXDescription: 'Wi‑Fi' }),
    });
    const controlCenter = { menuBars: elements([{ menuBarItems: elements([extra]) }]) };
    const barItem = (name: string, subrole: string | null, x: number) => ({
      name: () => name,
      position: () => [x, 0],
      size: () => [28, 24],
      attributes: attributes(subrole ? { AXSubrole: subrole } : {}),
    });
    const mainMenu = (app: string) => ({
      menuBarItems: elements([barItem('Apple', null, 0), barItem(app, null, 40)]),
    });
    // A regular app: its main menu only, or its main menu and its status items in menu bar 2.
    const finderProcess = { menuBars: elements([mainMenu('Finder')]) };
    const zoom = {
      menuBars: elements([
        mainMenu('zoom.us'),
        { menuBarItems: elements([barItem('Zoom', 'AXMenuExtra', 1100)]) },
      ]),
    };
    // An agent app without a main menu: its status item is in menu bar 1.
    const tailscale = {
      menuBars: elements([{ menuBarItems: elements([barItem('Tailscale', 'AXMenuExtra', 1140)]) }]),
    };
    const processes = Object.assign([finderProcess, controlCenter, zoom, tailscale], {
      name: () => ['Finder', 'ControlCenter', 'zoom.us', 'Tailscale'],
      unixId: () => [300, 512, 640, 733],
      whose: () => [controlCenter],
    });
    const events = { processes, keyCode: () => clicks.push('escape') };
    const Application = () => events;

    it("lists ControlCenter's extras, every menu bar 2, and an agent app's only menu bar, never a main menu", () => {
      const unlabelled = { description: '', title: '', y: 0, width: 28, height: 24 };
      expect(runJxa('statusBar', ['list'], { Application })).toEqual([
        {
          pid: 512,
          process: 'ControlCenter',
          bar: 0,
          index: 0,
          description: 'Wi‑Fi',
          title: '',
          name: 'Wi-Fi',
          x: 1290,
          y: 0,
          width: 30,
          height: 24,
        },
        { pid: 640, process: 'zoom.us', bar: 1, index: 0, name: 'Zoom', x: 1100, ...unlabelled },
        { pid: 733, process: 'Tailscale', bar: 0, index: 0, name: 'Tailscale', x: 1140, ...unlabelled },
      ]);
    });

    it('lists a menu level, skipping separators, and closes the menu', () => {
      clicks.length = 0;
      expect(runJxa('statusBar', ['items', '512', '0', '0'], { Application })).toEqual({
        items: ['Turn Wi-Fi Off', 'Other Networks'],
      });
      expect(runJxa('statusBar', ['items', '512', '0', '0', 'Other Networks'], { Application })).toEqual({
        items: ['Guest'],
      });
      expect(clicks).toEqual(['Wi-Fi', 'escape', 'Wi-Fi', 'escape']);
    });

    it('answers what exists when a name is missing, and clicks the item at a path', () => {
      clicks.length = 0;
      expect(runJxa('statusBar', ['pick', '512', '0', '0', 'Turn Wi-Fi On'], { Application })).toEqual({
        missing: 'Turn Wi-Fi On',
        level: 0,
        available: ['Turn Wi-Fi Off', 'Other Networks'],
      });
      expect(
        runJxa('statusBar', ['pick', '512', '0', '0', 'Other Networks', 'Guest'], { Application }),
      ).toEqual({
        clicked: true,
      });
      expect(clicks).toEqual(['Wi-Fi', 'escape', 'Wi-Fi', 'Guest']);
    });
  });
});

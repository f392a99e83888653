/**
 * The human commands, run as a person runs them: dist/macpilot.js as a child process on the headless desktop,
 * its stdout, stderr and exit code. Where the commands and the MCP tools must agree (the paths a tree prints),
 * an MCP session on the same desktop says what the tools show.
 */
import { execFile, execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, inject, test } from 'vitest';
import { CLI, useMacpilot } from '../support/mcp.js';
import { temporaryFolder } from '../support/temp.js';
import { eventually } from '../support/text.js';
import { clipboardKeepers, noKeepers } from '../support/xclip.js';
import { copiedInVault } from '../support/vault.js';
import { windowOfPid } from '../support/xwindows.js';

const env = inject('desktopEnv');
const { macpilot, processes, start } = useMacpilot(env);
const folder = temporaryFolder('macpilot-cli-');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `macpilot ...args` with the desktop's environment; never throws for an exit code. */
const run = (...args: string[]): Promise<Run> => runWith({}, ...args);

/** `each` of the items, `width` at a time (each a process of its own, as a person's would be), in their order. */
async function inTurns<T, R>(
  items: readonly T[],
  width: number,
  each: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    for (let at = next++; at < items.length; at = next++) results[at] = await each(items[at] as T);
  };
  await Promise.all(Array.from({ length: width }, worker));
  return results;
}

/** Each command line of `commands` run (three at a time), its outcome under the same key. */
async function runEach<K extends string>(commands: Record<K, string[]>): Promise<Record<K, Run>> {
  const keys = Object.keys(commands) as K[];
  const runs = await inTurns(keys, 3, (key) => run(...commands[key]));
  return Object.fromEntries(keys.map((key, i) => [key, runs[i]])) as Record<K, Run>;
}

/** With `settings` added to the environment and `input` on its stdin (else an empty one). */
function runWith(
  { settings = {}, input = '' }: { settings?: Record<string, string>; input?: string | Buffer },
  ...args: string[]
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const options = { env: { ...env, ...settings }, timeout: 60_000 };
    const child = execFile(process.execPath, [CLI, ...args], options, (error, stdout, stderr) => {
      const code = error ? (error as { code?: unknown }).code : 0;
      if (typeof code !== 'number') reject(error ?? new Error('no exit code'));
      else resolve({ code, stdout, stderr });
    });
    child.stdin?.end(input);
  });
}

async function ok(...args: string[]): Promise<string> {
  const done = await run(...args);
  expect(done, `macpilot ${args.join(' ')}`).toMatchObject({ code: 0, stderr: '' });
  return done.stdout;
}

/** `app("x")/role["name"][0]/...`: a path as the grammar writes it, JSON strings and all. */
const PATH = /app\("(?:[^"\\]|\\.)*"\)(?:\/[a-z_]+(?:\["(?:[^"\\]|\\.)*"\])?(?:\[\d+\])?)*/;
const AT_PATH = new RegExp(` at (${PATH.source})`);

interface ElementJson {
  ref: string;
  role: string;
  name: string;
  value?: unknown;
  path: string;
}

describe('macpilot tree', () => {
  test('prints, line for line, the paths get_element shows for the elements of the same snapshot', async () => {
    const pid = await start('mousepad', 'menubar');
    const snapshot = await macpilot.ok('snapshot_ui', { app: String(pid) });
    const refs = [...snapshot.matchAll(/\[ref=(e\d+)\]/g)].map((m) => m[1] as string);
    const toolPaths: string[] = [];
    for (const ref of refs) {
      const detail = await macpilot.client.callTool({ name: 'get_element', arguments: { ref } });
      toolPaths.push((detail.structuredContent as ElementJson).path);
    }

    const tree = await ok('tree', 'mousepad');
    // Element lines, not the UI reading above them ("  editor: app(…)/…").
    const lines = tree.split('\n').filter((line) => /^\s*- /.test(line));
    const cliPaths = lines.map((line) => AT_PATH.exec(line)?.[1]);
    expect(cliPaths.length).toBeGreaterThan(8);
    expect(cliPaths).toEqual(toolPaths);
    expect(tree).toMatch(/^ {4}- menubar at app\("mousepad"\)\/window\[0\]\/menubar$/m);
    expect(tree).not.toMatch(/ref=e\d/);
    // The fence around app text is for a model; a person reads the text as it is.
    expect(tree).not.toContain('app data, not instructions');

    // --depth counts the levels printed: the app, and two under it, however many wrappers the walk went through.
    const shallow = await ok('tree', 'mousepad', '--depth', '2');
    expect(shallow.split('\n').length).toBeLessThan(lines.length);
    const indents = shallow
      .split('\n')
      .filter((line) => /^\s*- /.test(line))
      .map((line) => (line.length - line.trimStart().length) / 2);
    expect(Math.max(...indents)).toBe(2);
    expect(shallow).toMatch(/^ {4}- menubar at /m);
    // --all: every element walked (up to 5000), not cut at the size that keeps an agent's context small.
    const all = await ok('tree', 'mousepad', '--all');
    expect(all).not.toContain('size cap');
    expect(all.split('\n').length).toBeGreaterThan(lines.length);
    const json = JSON.parse(await ok('tree', 'mousepad', '--format', 'json')) as {
      tree: ElementJson & { children: unknown[] };
    };
    expect(json.tree).toMatchObject({ role: 'application', path: 'app("mousepad")' });
    expect(json.tree.children.length).toBeGreaterThan(0);
    // A ref would name nothing once the command ends; the JSON names elements by paths alone.
    expect(JSON.stringify(json)).not.toContain('"ref"');
  });

  test('every path tree --all prints is one get accepts, named containers included (zenity --forms)', async () => {
    const zenity = processes.start('zenity', [
      '--forms',
      '--title',
      'macpilot forms',
      '--add-entry=Name',
      '--add-password=Pass',
    ]);
    await eventually('the zenity form', async () => {
      const tree = await run('tree', String(zenity.pid));
      return tree.code === 0 && tree.stdout.includes('textbox') ? true : undefined;
    });
    const json = JSON.parse(await ok('tree', String(zenity.pid), '--all', '--format', 'json')) as {
      tree: { path: string; children?: unknown[] };
    };
    const paths: string[] = [];
    const collect = (node: { path: string; children?: unknown[] }) => {
      paths.push(node.path);
      for (const child of node.children ?? []) collect(child as typeof node);
    };
    collect(json.tree);
    expect(paths.filter((path) => path.endsWith('/dialog/group["Forms dialog"]'))).toHaveLength(1);
    const codes = await inTurns(paths, 3, async (path) => (await run('get', path)).code);
    expect(paths.filter((_, at) => codes[at] !== 0)).toEqual([]);
    await processes.stop(zenity.pid);
  });

  test('wait on a path that names several elements is refused at once with the candidates, as click is', async () => {
    const menus = 'app("mousepad")/window[0]/menubar/menu';
    const waited = await run('wait', 'enabled', menus, '--timeout', '20000');
    expect(waited.code).not.toBe(0);
    expect(waited.stderr).toMatch(/The path matches \d+ elements, where it must name one/);
    expect(waited.stderr).toContain('menu "File" at app("mousepad")/window[0]/menubar/menu["File"]');
    expect(waited.stderr).not.toContain('Timed out');
  });

  test("a Save As dialog's labels, where the toolkit's links up and down disagree: tree and find show them, get accepts their paths", async () => {
    // mousepad is one process per user: the one the first test started.
    await ok('menu', 'mousepad', 'File > Save As…');
    type Node = { path: string; role: string; name: string; children?: Node[] };
    const labels = await eventually('the Save As dialog with its encoding label', async () => {
      const tree = await run('tree', 'mousepad', '--format', 'json');
      if (tree.code !== 0) return undefined;
      const found: Node[] = [];
      const collect = (node: Node) => {
        if (node.role === 'text' && node.name.endsWith(':')) found.push(node);
        for (const child of node.children ?? []) collect(child);
      };
      collect((JSON.parse(tree.stdout) as { tree: Node }).tree);
      return found.some((label) => label.name === 'Encoding:') ? found : undefined;
    });
    expect(labels.map((label) => label.name)).toEqual(expect.arrayContaining(['Name:', 'Encoding:']));
    for (const label of labels) {
      expect(await ok('get', label.path), label.path).toContain(`name: ${JSON.stringify(label.name)}`);
    }
    expect(await ok('find', 'Encoding', '--app', 'mousepad')).toContain('text "Encoding:"');
    await ok('click', 'app("mousepad")/dialog/button["Cancel"]');
  });

  test('find --format json parses, and each match path round-trips into get', async () => {
    const found = JSON.parse(
      await ok('find', 'File', '--app', 'mousepad', '--role', 'menu', '--format', 'json'),
    );
    const [menu] = (found as { matches: ElementJson[] }).matches;
    expect(menu).toMatchObject({ role: 'menu', name: 'File' });
    const got = JSON.parse(await ok('get', menu?.path ?? '', '--format', 'json')) as ElementJson;
    expect(got).toMatchObject({ role: 'menu', name: 'File', path: menu?.path });
    expect(await ok('get', menu?.path ?? '')).toContain(`path: ${menu?.path}`);

    // The same through a pipe: `find ... --format json | macpilot get -`.
    const piped = await runWith({ input: JSON.stringify(found) }, 'get', '-', '--format', 'json');
    expect(piped).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(piped.stdout)).toEqual(got);
    const several = await ok('find', 'e', '--app', 'mousepad', '--all', '--format', 'json');
    // --max shows more of them than the 25 shown by default.
    const { total, more: left } = JSON.parse(several) as { total: number; more: number };
    expect(total).toBeGreaterThan(25);
    // What the default of 25 left out is counted, for a script to know it does not have them all.
    expect(left).toBe(total - 25);
    const more = JSON.parse(
      await ok('find', 'e', '--app', 'mousepad', '--all', '--max', '500', '--format', 'json'),
    ) as {
      matches: unknown[];
      more: number;
    };
    expect(more.matches).toHaveLength(Math.min(total, 500));
    expect(more.more).toBe(Math.max(0, total - 500));
    expect(await ok('find', 'e', '--app', 'mousepad', '--all')).toMatch(
      /more elements? matched; raise --max \(at most 500\)/,
    );
    const refused = await runWith({ input: several }, 'get', '-');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`; ${menu?.path};`);

    // A menu listed as JSON: each item with its element path and the menu path `menu` takes.
    const file = JSON.parse(await ok('menu', 'mousepad', 'File', '--list', '--format', 'json')) as {
      menu: string;
      items: { path: string; menu_path: string; role: string }[];
    };
    expect(file.menu).toBe('File');
    const saveAs = file.items.find((item) => item.menu_path === 'File > Save As...');
    expect(saveAs?.path).toMatch(/menu\["File"\]\/menuitem\["Save As\.\.\."\]$/);
    expect(await ok('get', saveAs?.path ?? '')).toContain('role: menuitem');

    // A menu item that is not there: the advice is a command to run as it stands, with the app given.
    const missing = await run('menu', 'mousepad', 'File > No Such Item');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('`macpilot menu mousepad File --list` lists that menu');
    expect(missing.stderr).not.toContain('<app>');
  });
});

describe('acting on zenity by path', () => {
  test('set the entry, click OK: zenity prints the text and exits 0', async () => {
    const zenity = processes.start('zenity', ['--entry', '--title', 'macpilot cli', '--text', 'Your name?']);
    const app = String(zenity.pid);
    const field = await eventually('the zenity entry', async () => {
      const tree = await run('tree', app);
      return tree.stdout.split('\n').find((line) => line.includes('- textbox'));
    });
    const path = AT_PATH.exec(field)?.[1] ?? '';
    expect(path).toMatch(/^app\("zenity"\)\/.*textbox/);
    const set = await ok('set', path, 'to be replaced');
    expect(set).toContain(`at ${path}`);
    // What cannot hold text is refused in macpilot's words, with commands for the element it is.
    const dialog = path.replace(/\/[^/]*textbox.*$/, '');
    const notText = await run('set', dialog, 'text');
    expect(notText.code).toBe(1);
    expect(notText.stderr).toContain('holds no value that can be set');
    expect(notText.stderr).toContain('Why: it is no text field, slider, spin box, check box or select');
    expect(notText.stderr).toMatch(/Next: set the control meant instead \(`macpilot find` with its label/);
    // It points to the control meant, not to clicking what cannot hold text.
    expect(notText.stderr).toContain('is clicked (`macpilot click` with its path)');
    expect(notText.stderr).not.toMatch(/<path>|<text>|\b(frame|filler|panel)\b/);
    // Typing into what takes no focus names it by its path, never by a ref of the command's own process.
    const label = `${dialog}/text`;
    const notField = await run('type', 'x', '--into', label);
    expect(notField.code).toBe(1);
    expect(notField.stderr).toMatch(/^macpilot type: Could not type into app\("zenity"\)\/dialog\/text\./);
    expect(notField.stderr).toContain(`Next: \`macpilot get '${label}'\` lists the actions it has`);
    expect(notField.stderr).not.toMatch(/\be\d+\b/);
    // type --into is one call, which a limit of one a second (meant for an agent's bursts) lets through.
    const typed = await runWith(
      { settings: { MACPILOT_RATE_LIMITS: 'calls_per_second=1' } },
      'type',
      'Ada Lovelace',
      '--into',
      path,
      '--clear',
    );
    expect(typed, typed.stderr).toMatchObject({ code: 0, stderr: '' });

    const found = JSON.parse(await ok('find', 'OK', '--app', app, '--role', 'button', '--format', 'json'));
    const button = (found as { matches: ElementJson[] }).matches.find((m) => m.name === 'OK');
    expect(button?.path).toMatch(PATH);
    const clicked = JSON.parse(await ok('click', button?.path ?? '', '--format', 'json')) as {
      done: string;
      changes: { path: string }[];
    };
    expect(clicked.done).toMatch(/^Clicked button "OK" at app\("zenity"\)/);
    expect(clicked.done).not.toMatch(/ref=/);
    expect(JSON.stringify(clicked)).not.toContain('"ref"');
    expect(JSON.stringify(found)).not.toContain('"ref"');
    for (const change of clicked.changes) expect(change.path).toMatch(/^app\("zenity"\)/);

    expect(await zenity.exited).toBe(0);
    expect(zenity.stdout()).toBe('Ada Lovelace\n');
  });

  test("set a slider: a word is refused with the slider's own value, a number in its range is what zenity prints", async () => {
    const zenity = processes.start('zenity', [
      '--scale',
      '--min-value',
      '0',
      '--max-value',
      '20',
      '--value',
      '7',
    ]);
    const app = String(zenity.pid);
    const slider = await eventually('the zenity slider', async () => {
      const tree = await run('tree', app);
      return tree.stdout.split('\n').find((line) => line.includes('- slider'));
    });
    const path = AT_PATH.exec(slider)?.[1] ?? '';
    expect(path).toMatch(/^app\("zenity"\)\/.*slider/);
    const word = await run('set', path, 'twelve');
    expect(word.code).toBe(2);
    expect(word.stderr).toContain('the element holds a number (now 7), not "twelve"; give one from 0 to 20');
    // A number outside the range it shows is the command line's mistake too, caught before anything is done.
    const beyond = await run('set', path, '1000');
    expect(beyond.code).toBe(2);
    expect(beyond.stderr).toContain(
      "1000 is out of the element's range: give a number from 0 to 20 (it holds 7 now)",
    );
    const detail = await ok('get', path);
    expect(detail).toContain('range: 0 to 20');
    expect(detail).not.toContain('text shown:');
    expect(await ok('set', path, '12')).toContain(`at ${path}`);
    await ok('click', path.replace(/\/[^/]*slider.*$/, '/button["OK"]'));
    expect(await zenity.exited).toBe(0);
    expect(zenity.stdout()).toBe('12\n');
  });

  test("set a checklist's check box cells with true and false: zenity prints the rows checked", async () => {
    const zenity = processes.start('zenity', [
      '--list',
      '--checklist',
      '--column',
      'Pick',
      '--column',
      'Fruit',
      'TRUE',
      'Apples',
      'FALSE',
      'Pears',
    ]);
    const app = String(zenity.pid);
    const cells = await eventually('the checklist', async () => {
      const tree = await run('tree', app);
      const lines = tree.stdout.split('\n').filter((line) => line.includes('- cell'));
      return lines.length >= 4 ? lines : undefined;
    });
    const [apples, , pears] = cells.map((line) => AT_PATH.exec(line)?.[1] ?? '');
    expect(await ok('get', apples ?? '')).toMatch(/^value: true$/m);
    expect(await ok('get', pears ?? '')).toMatch(/^value: false$/m);
    expect(await ok('set', pears ?? '', 'true')).toContain(`at ${pears}`);
    expect(await ok('set', apples ?? '', 'false')).toContain(`at ${apples}`);
    const table = (apples ?? '').replace(/\/cell.*$/, '');
    await ok('click', table.replace(/\/table.*$/, '/button["OK"]'));
    expect(await zenity.exited).toBe(0);
    expect(zenity.stdout()).toBe('Pears\n');
  });

  test('safe mode: a click by path on "Delete" is refused without a terminal (audited as refused), done with --yes', async () => {
    const zenity = processes.start('zenity', [
      '--question',
      '--title',
      'macpilot safe',
      '--text',
      'Delete it?',
      '--ok-label',
      'Delete',
    ]);
    const app = String(zenity.pid);
    const tree = await eventually('the zenity question', async () => {
      const shown = await run('tree', app);
      return shown.code === 0 && shown.stdout.includes('"Delete"') ? shown.stdout : undefined;
    });
    const button = /- button "Delete" at (\S+)/.exec(tree)?.[1] ?? '';
    const auditLog = join(folder, 'safe-audit.jsonl');
    const safe = {
      settings: { MACPILOT_MODE: 'safe', MACPILOT_CONSENT: 'ask', MACPILOT_AUDIT_LOG: auditLog },
    };
    const unasked = await runWith(safe, 'click', button);
    expect(unasked.code).toBe(1);
    expect(unasked.stderr).toMatch(/needs a human's consent[\s\S]*--yes/);
    expect(unasked.stderr).not.toMatch(/failed unexpectedly|\n\s+at /);
    // A path that leads nowhere fails as itself, before anyone would be asked.
    const nowhere = await runWith(safe, 'click', `${button.replace('"Delete"', '"Delete all"')}`);
    expect(nowhere.stderr).toContain('No element at this path');
    const entries = readFileSync(auditLog, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { outcome: string; error?: string });
    expect(entries.map(({ outcome, error }) => ({ outcome, error }))).toEqual([
      { outcome: 'refused', error: 'consent_unreachable' },
      { outcome: 'failed', error: 'no_element_at_path' },
    ]);
    const allowed = await runWith(safe, 'click', button, '--yes');
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(await zenity.exited).toBe(0);
  });

  test('a path that matches several elements is refused with the candidates, exit 1', async () => {
    const zenity = processes.start('zenity', ['--question', '--title', 'macpilot cli', '--text', 'Sure?']);
    const app = String(zenity.pid);
    await eventually('the zenity question', async () =>
      (await run('tree', app)).code === 0 ? true : undefined,
    );
    const tree = await ok('tree', app);
    const dialog = /- dialog .* at (app\("zenity"\)\/\S+)/.exec(tree)?.[1];
    const refused = await run('click', `${dialog}/button`);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(/matches 2 elements/);
    expect(refused.stderr).toContain(`${dialog}/button["Yes"]`);
    expect(refused.stderr).toContain(`${dialog}/button["No"]`);
    expect(refused.stderr).not.toMatch(/\be\d+\b|refs/);
    await processes.stop(zenity.pid);
  });
});

test('a stopped app is listed and named as not answering, with how to resume it; once resumed it answers', async () => {
  const zenity = processes.start('zenity', ['--info', '--title', 'macpilot stopped', '--text', 'Paused?']);
  const app = String(zenity.pid);
  await eventually('the zenity info', async () => ((await run('tree', app)).code === 0 ? true : undefined));
  process.kill(zenity.pid, 'SIGSTOP');
  try {
    expect(await ok('apps')).toContain(`- zenity (pid ${app})`);
    expect(await ok('apps')).toMatch(
      new RegExp(`zenity \\(pid ${app}\\).* not answering \\(its process is stopped\\)`),
    );
    const tree = await run('tree', app);
    expect(tree.code).toBe(1);
    expect(tree.stderr).toContain(`zenity (pid ${app}) is not answering.`);
    expect(tree.stderr).toContain(`kill -CONT ${app}`);
    expect(tree.stderr).not.toContain('not running');
  } finally {
    process.kill(zenity.pid, 'SIGCONT');
  }
  expect(await ok('tree', app)).toContain('Paused?');
  await processes.stop(zenity.pid);
});

test('apps hidden by an allow list: the person is told which setting hides them and how to list them; a hidden app named is not found, with where to look', async () => {
  const zenity = processes.start('zenity', ['--info', '--title', 'macpilot not allowed', '--text', 'Hidden']);
  await eventually('the zenity info', async () =>
    (await run('tree', String(zenity.pid))).code === 0 ? true : undefined,
  );
  const allowOnly = { settings: { MACPILOT_ALLOW_APPS: 'mousepad' } };
  const apps = await runWith(allowOnly, 'apps');
  expect(apps.code).toBe(0);
  // Only the setting that hides them is named: no credential manager runs, so the default deny lists hide none.
  expect(apps.stdout).toMatch(
    /(\d+ apps hidden by your app lists\. They are|1 app hidden by your app lists\. It is) hidden by the environment variable MACPILOT_ALLOW_APPS; to list (them \(they stay|it \(it stays) unreadable\): set MACPILOT_LIST_DENIED_APPS=on where macpilot is started, or "listDeniedApps": "on" in /,
  );
  expect(apps.stdout).not.toContain('default deny lists');
  // Denied by name as well as left out of the allow list: the deny list is named for the app it lists.
  const denied = await runWith(
    { settings: { MACPILOT_ALLOW_APPS: 'mousepad', MACPILOT_DENY_APPS: 'zenity' } },
    'apps',
  );
  expect(denied.stdout).toMatch(
    /hidden by (.* and )?the environment variable MACPILOT_DENY_APPS( and .*)?; /,
  );
  const tree = await runWith(allowOnly, 'tree', 'no-such-app');
  expect(tree.code).toBe(1);
  expect(tree.stderr).toContain('hidden by your app lists: `macpilot apps` says by which setting)');
  expect(tree.stderr).not.toContain('only the person');
  await processes.stop(zenity.pid);
});

test("a denied app's window named by its id or title is off limits: the person is told which app and setting, never its title; audited as refused", async () => {
  const zenity = processes.start('zenity', [
    '--info',
    '--title',
    'macpilot secret title',
    '--text',
    'Hidden',
  ]);
  const windows = await eventually('the zenity window', async () => {
    const listed = JSON.parse(await ok('windows', '--format', 'json')) as {
      windows: { id: string; pid: number }[];
    };
    return listed.windows.some((w) => w.pid === zenity.pid) ? listed.windows : undefined;
  });
  const id = windows.find((w) => w.pid === zenity.pid)?.id ?? '';
  // Its windows listed by its pid are said to be zenity's.
  expect(await ok('windows', String(zenity.pid))).toMatch(
    new RegExp(`^1 window of "zenity" \\(pid ${zenity.pid}\\), front to back`),
  );
  const auditLog = join(folder, 'denied-audit.jsonl');
  const denied = { settings: { MACPILOT_DENY_APPS: 'zenity', MACPILOT_AUDIT_LOG: auditLog } };
  const shot = await runWith(denied, 'screenshot', '--window', id, '-o', join(folder, 'denied.png'));
  expect(shot.code).toBe(1);
  expect(shot.stderr).toContain(`Window ${id} is off limits.`);
  expect(shot.stderr).toContain(
    '"zenity" is off limits: it is listed in the environment variable MACPILOT_DENY_APPS',
  );
  expect(shot.stderr).not.toMatch(/secret title|titled/);
  const [entry] = readFileSync(auditLog, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { outcome: string; error?: string });
  expect(entry).toMatchObject({ outcome: 'refused', error: 'app_off_limits', app: 'zenity' });
  // Named by its title, it is refused the same way, not "no window matches".
  const byTitle = await runWith(
    denied,
    'screenshot',
    '--window',
    'secret title',
    '-o',
    join(folder, 'denied.png'),
  );
  expect(byTitle.code).toBe(1);
  expect(byTitle.stderr).toContain(`Window ${id} is off limits.`);
  expect(byTitle.stderr).toContain('"zenity" is off limits: it is listed in the environment variable');
  const entries = readFileSync(auditLog, 'utf8').trim().split('\n');
  expect(JSON.parse(entries.at(-1) ?? '{}')).toMatchObject({
    outcome: 'refused',
    error: 'app_off_limits',
    app: 'zenity',
  });
  await processes.stop(zenity.pid);
});

afterAll(() => {
  for (const pid of clipboardKeepers(env)) process.kill(pid);
});

test('launch starts an app and waits until the next command can read it', async () => {
  const launched = await ok('launch', 'gnome-calculator');
  const pid = Number(/pid (\d+)/.exec(launched)?.[1]);
  expect(pid, launched).toBeGreaterThan(0);
  processes.track(pid);
  expect(await ok('tree', String(pid), '--depth', '2')).toMatch(/calculator/i);
});

describe('clipboard', () => {
  test('set outlives its command (a keeper owns it until another owner), get reads it, clear ends the keeper', async () => {
    // A keeper another file's server left ends with the clipboard cleared.
    await ok('clipboard', 'clear', '--yes');
    await noKeepers(env);
    // The helper hands the text on as it exits, and says nothing of a server gone (it once threw at it).
    const first = await runWith({ settings: { MACPILOT_LOG_LEVEL: 'info' } }, 'clipboard', 'set', 'first ✓');
    expect(first.stdout).toMatch(/^Copied 7 characters/);
    expect(first.stderr).not.toMatch(/Connection is closed|\n\s+at /);
    expect(await ok('clipboard')).toMatch(/\nfirst ✓\n$/);
    const [firstKeeper] = clipboardKeepers(env);
    expect(firstKeeper).toBeGreaterThan(0);

    await ok('clipboard', 'set', 'second');
    expect(JSON.parse(await ok('clipboard', 'get', '--format', 'json'))).toMatchObject({ text: 'second' });
    await eventually('the first keeper to exit', async () =>
      clipboardKeepers(env).includes(firstKeeper as number) ? undefined : true,
    );
    expect(clipboardKeepers(env)).toHaveLength(1);

    // The same text again: a new keeper owns it, and the one before leaves (it lost the clipboard, if not its text).
    const [second] = clipboardKeepers(env);
    await ok('clipboard', 'set', 'second');
    await eventually('the keeper of the same text before to exit', async () =>
      clipboardKeepers(env).includes(second as number) ? undefined : true,
    );
    expect(clipboardKeepers(env)).toHaveLength(1);
    expect(await ok('clipboard')).toMatch(/\nsecond\n$/);

    // A long text is cut at 20,000 characters, and the person is told the flag that reads it all.
    const long = 'z'.repeat(30_000);
    await ok('clipboard', 'set', long);
    expect(await ok('clipboard')).toContain(
      'the first 20000 of 30000 characters (--max-chars reads more, up to 1000000)',
    );
    expect((await ok('clipboard', 'get', '--max-chars', '30000')).endsWith(`\n${long}\n`)).toBe(true);
    // Longer than one argument may be (128 KiB), through stdin; an empty text is no copy.
    const longer = 'y'.repeat(200_000);
    expect((await runWith({ input: longer }, 'clipboard', 'set', '-')).stdout).toMatch(
      /^Copied 200000 characters/,
    );
    expect((await ok('clipboard', 'get', '--max-chars', '200000')).endsWith(`\n${longer}\n`)).toBe(true);
    // Bytes that are no UTF-8 are refused, not copied mangled.
    const bytes = await runWith({ input: Buffer.from([0xff, 0xfe, 0x20, 0x62]) }, 'clipboard', 'set', '-');
    expect(bytes.code).toBe(2);
    expect(bytes.stderr).toContain('stdin is not UTF-8 text');
    const empty = await run('clipboard', 'set', '');
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('`macpilot clipboard clear` empties the clipboard');

    await ok('clipboard', 'clear', '--yes');
    expect(await ok('clipboard')).toBe('The clipboard is empty.\n');
    await eventually('no keeper left', async () => (clipboardKeepers(env).length === 0 ? true : undefined));
  });
});

test('a password copied in a denied app: clipboard get and key ctrl+v refuse it, telling the person which app and setting, never the text', async () => {
  // A vault under a name of its own, denied; the form the person pastes into is a zenity.
  const denied = { settings: { MACPILOT_DENY_APPS: 'clivault' } };
  const vault = await copiedInVault(env, processes, 'cli-secret-42', 'clivault');
  // Each command starts its own helper after the copy: the app owning the clipboard says whose copy it is.
  const form = processes.start('zenity', ['--entry', '--title', 'cli form', '--text', 'Note?']);
  const formWindow = await eventually('the form window', async () => windowOfPid(env, form.pid));
  execFileSync('xdotool', ['windowactivate', '--sync', formWindow.id], { env });
  for (const args of [
    ['clipboard', 'get'],
    ['key', 'ctrl+v'],
  ]) {
    const refused = await runWith(denied, ...args);
    expect(refused.code, args.join(' ')).toBe(1);
    expect(refused.stderr).toContain('copied in an app your app lists hide from agents');
    expect(refused.stderr).toContain(
      'Why: "clivault" is off limits: it is listed in the environment variable MACPILOT_DENY_APPS',
    );
    expect(refused.stderr + refused.stdout).not.toContain('cli-secret-42');
  }
  const tree = await runWith(denied, 'tree', String(form.pid));
  expect(tree.stdout).toMatch(/textbox "Note\?"/);
  expect(tree.stdout).not.toContain('cli-secret-42');
  await processes.stop(vault.pid);
  await processes.stop(form.pid);
});

describe('a GTK combo box', () => {
  test('set takes one of its options by name; the box then bears it, and a name it lacks is refused with its options', async () => {
    // mousepad runs one instance: the file's earlier tests may have started it already.
    const running = /mousepad \(pid (\d+)\)/.exec((await run('apps')).stdout)?.[1];
    const pid = running === undefined ? await start('mousepad', 'menubar') : Number(running);
    await ok('menu', String(pid), 'Edit > Preferences...');
    const line = await eventually('the colour scheme box', async () => {
      const tree = await run('tree', String(pid), '--all');
      return tree.stdout.split('\n').find((l) => /- combobox .*group\["Color Scheme"\]\/combobox/.test(l));
    });
    const path = AT_PATH.exec(line)?.[1] ?? '';
    expect(path).toMatch(/group\["Color Scheme"\]\/combobox$/);
    expect(await ok('set', path, 'Cobalt')).toContain('Set the value of combobox');
    expect(await ok('get', path)).toMatch(/^name: "cobalt"$/m);
    const missing = await run('set', path, 'Purple');
    // A value the box does not take is the command line's, as a number beyond a slider's range is.
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(
      /it has no option "Purple"\nNext: use one of its options: "None", "Classic", "Cobalt"/,
    );
    await ok('set', path, 'None');

    // A check box on a tab not shown: its change is told all the same, though the walks read what shows.
    const hidden = await run('tree', String(pid), '--all');
    const box = AT_PATH.exec(
      hidden.stdout.split('\n').find((l) => /checkbox "Backspace: Delete indent spaces as tabs"/.test(l)) ??
        '',
    )?.[1];
    expect(box, hidden.stdout).toMatch(/tab\["Editor"\]/);
    const checked = await ok('set', box ?? '', 'true');
    expect(checked).toMatch(
      /~ checkbox "Backspace: Delete indent spaces as tabs" at .* checked offscreen \(was: offscreen\)$/m,
    );
    expect(await ok('set', box ?? '', 'false')).toMatch(/\] offscreen \(was: checked offscreen\)$/m);
    // The dialog has no button of its own to close it: Escape does, as for a person.
    await ok('key', 'Escape');
    await eventually('the preferences closed', async () =>
      (await run('tree', String(pid))).stdout.includes('- dialog') ? undefined : true,
    );
  });
});

describe('screenshot', () => {
  test('-o writes a PNG of the whole screen', async () => {
    const file = join(folder, 'screen.png');
    const saved = await ok('screenshot', '-o', file);
    expect(saved).toContain(`File: ${file}`);
    const image = sharp(file);
    expect(await image.metadata()).toMatchObject({ format: 'png', width: 1280, height: 800 });
    const { channels } = await image.stats();
    expect(Math.max(...channels.map((c) => c.stdev))).toBeGreaterThan(5);

    // The command line is right; the disk has a file there: a failure (1), not a usage error (2).
    const again = await run('screenshot', '-o', file);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/never overwrite/);
    const nowhere = await run('screenshot', '-o', join(folder, 'no-such-folder', 'x.png'));
    expect(nowhere.code).toBe(1);
    expect(nowhere.stderr).toContain('Why: its folder does not exist');
  });

  test('-o - writes the PNG to stdout, which read-only mode allows (it writes no file)', async () => {
    const child = spawn(process.execPath, [CLI, 'screenshot', '-o', '-'], {
      env: { ...env, MACPILOT_MODE: 'read-only' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code, stderr).toBe(0);
    expect(stderr).toContain('Screenshot:');
    expect(await sharp(Buffer.concat(chunks)).metadata()).toMatchObject({ format: 'png' });
    const toFile = await runWith({ settings: { MACPILOT_MODE: 'read-only' } }, 'screenshot');
    expect(toFile.code).toBe(1);
    expect(toFile.stderr).toContain('Writing a screenshot file is not available in read-only mode');
    expect(toFile.stderr).toContain('Next: `macpilot screenshot -o -` writes the image to stdout instead');
    expect(toFile.stderr).not.toMatch(/file_path|--output/);
    // Its advice for -o - with JSON offers no file, which the mode would refuse.
    const json = await runWith(
      { settings: { MACPILOT_MODE: 'read-only' } },
      'screenshot',
      '-o',
      '-',
      '--format',
      'json',
    );
    expect(json.code).toBe(2);
    expect(json.stderr).toContain('leave out --format json (read-only mode writes no file)');
    expect(json.stderr).not.toContain('-o shot.png');
    // A command refused by the mode is named as the person ran it, whether or not its tool is named alike.
    for (const [command, ...rest] of [
      ['click', '10,10'],
      ['key', 'a'],
    ]) {
      const refused = await runWith({ settings: { MACPILOT_MODE: 'read-only' } }, command as string, ...rest);
      expect(refused.stderr).toContain(
        `macpilot ${command}: \`macpilot ${command}\` is not available in read-only mode.`,
      );
    }
  });

  test('--display names a display that `macpilot displays` lists; --black-out is taken', async () => {
    const display = /^- (\S+).*: x=\d+ y=\d+ (\d+)x\d+ points/m.exec(await ok('displays'));
    expect(display).not.toBeNull();
    const [, id = '', width = ''] = display ?? [];
    const file = join(folder, 'display.png');
    expect(await ok('screenshot', '--display', id, '--black-out', '-o', file)).toContain(`File: ${file}`);
    expect((await sharp(file).metadata()).width).toBe(Number(width));
    const wrong = await run('screenshot', '--display', 'no-such-display');
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('`macpilot displays`');
    expect(wrong.stderr).not.toContain('list_displays');
    expect(wrong.stderr).toContain('leave --display out for the primary display');
    const offScreen = await run('screenshot', '--region', '2000,2000,10,10', '-o', join(folder, 'off.png'));
    expect(offScreen.code).toBe(1);
    expect(offScreen.stderr).toContain('The region 10x10 at 2000,2000 is on no display');
    expect(offScreen.stderr).toContain(
      'Next: give a region that overlaps one of them (`macpilot displays` lists them)',
    );

    // Their JSON holds the same facts as fields a script reads.
    const listed = JSON.parse(await ok('displays', '--format', 'json')) as {
      displays: { id: string; primary: boolean; bounds: { width: number } }[];
    };
    expect(listed.displays.find((d) => d.id === id)?.bounds.width).toBe(Number(width));
    const jsonFile = join(folder, 'display-json.png');
    const shot = JSON.parse(await ok('screenshot', '--display', id, '-o', jsonFile, '--format', 'json')) as {
      file: string;
      bytes: number;
      width: number;
      of: string;
    };
    expect(shot).toMatchObject({ file: jsonFile, bytes: statSync(jsonFile).size, width: Number(width) });
    expect(shot.of).toBe(`display "${id}"`);
  });
});

describe('exit codes and output streams', () => {
  test('usage errors exit 2 and say what to type', async () => {
    const usages = [
      ['frobnicate'],
      ['tree', 'a', 'b'],
      ['find'],
      ['tree', '--depth', 'deep'],
      ['apps', '--format', 'xml'],
      ['apps', '--bogus'],
      ['get', 'not a path'],
      ['screenshot', '--region', '1,2,3'],
      ['clipboard', 'paste'],
      ['completion', 'tcsh'],
      ['serve', '--port', '7433'],
      ['click'],
      ['find', ''],
      ['clipboard', 'set'],
      ['wait', 'appears'],
      ['wait', 'text_appears', '--app', 'mousepad'],
      ['key', 'entr'],
      ['key', 'hyper+s'],
      ['key', 'ctrl+'],
      ['find', 'File', '--role', 'bogus'],
    ];
    const done = await inTurns(usages, 3, (args) => run(...args));
    const said = (...args: string[]) =>
      done[usages.findIndex((usage) => usage.join(' ') === args.join(' '))]?.stderr;
    usages.forEach((args, at) => {
      expect(done[at]?.code, `macpilot ${args.join(' ')}: ${done[at]?.stderr}`).toBe(2);
      expect(done[at]?.stdout).toBe('');
      expect(done[at]?.stderr).toMatch(/^macpilot(?: [a-z]+)?: /);
    });
    expect(said('serve', '--port', '7433')).toContain(
      '--port is for serving HTTP: add --http (without it, macpilot serves MCP on stdin/stdout)',
    );
    // A setting given as a flag is explained by the command's help, not by the list of settings.
    const port = (await run('serve', '--http', '--port', 'abc')).stderr;
    expect(port).toContain('macpilot: --port: "abc" is not a port');
    expect(port).toContain('(macpilot serve --help shows its options)');
    expect(said('click')).toContain(
      'click takes 1 argument, not 0: click <path | x,y>\n(macpilot click --help shows its options)',
    );
    expect(said('apps', '--bogus')).toContain('(macpilot apps --help shows its options)');
    expect(said('find', '')).toContain('macpilot find: the text is empty');
    // Several problems: a line each, each said to be macpilot's.
    expect((await run('find', '', '--max', '0')).stderr).toMatch(
      /^macpilot find: the text is empty.*\nmacpilot find: --max must be at least 1\n/,
    );
    // A file name that is none, a folder, a format screenshots are not: exit 2, saying which.
    expect(await run('screenshot', '-o', '')).toMatchObject({ code: 2 });
    const toFolder = await run('screenshot', '--region', '0,0,5,5', '-o', `${folder}/`);
    expect(toFolder.code).toBe(2);
    expect(toFolder.stderr).toContain('Why: it is a folder');
    const gif = await run('screenshot', '--region', '0,0,5,5', '-o', join(folder, 'shot.gif'));
    expect(gif.code).toBe(2);
    expect(gif.stderr).toContain('Why: screenshots are PNG or JPEG, not .gif');
    // The commands use every toolset, and still refuse a config file whose toolsets are wrong.
    const config = join(folder, 'bad-toolsets.json');
    writeFileSync(config, JSON.stringify({ toolsets: 'ui,nonsense' }));
    const bad = await runWith({ settings: { MACPILOT_CONFIG: config } }, 'apps');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(`${config}: "toolsets": unknown toolset "nonsense"`);
    // A wait without what to wait for names the command's flags, never the tool's arguments.
    const wait = said('wait', 'appears') ?? '';
    expect(wait).toContain('appears needs a path or --text / --role / --name');
    expect(wait).not.toMatch(/\bref\b|timeout_ms|wait_for/);
  });

  test('serve --http on a port in use says so, without a stack trace, exit 1', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      const done = await run('serve', '--http', '--port', String(port));
      expect(done.code).toBe(1);
      expect(done.stderr).toContain(
        `Cannot serve HTTP.\nWhy: 127.0.0.1:${port} is already in use by another program`,
      );
      expect(done.stderr).not.toMatch(/\n\s+at /);
    } finally {
      taken.close();
    }
  });

  test('serve stopped with Ctrl-C exits 130, as the shell counts an interrupt', async () => {
    const child = spawn(process.execPath, [CLI, 'serve'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    // Answering initialize tells that it is up and serving.
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } } })}\n`,
    );
    await new Promise((resolve) => child.stdout.once('data', resolve));
    child.kill('SIGINT');
    expect(await new Promise<number | null>((resolve) => child.once('exit', resolve))).toBe(130);
  });

  test("a reader that stops after the first line ends the command quietly, with the command's own exit code", async () => {
    const noDisplay = { ...env };
    delete noDisplay.DISPLAY;
    // doctor exits 0 on the desktop and 1 without a display, read to the end or not.
    for (const [environment, expected] of [
      [env, 0],
      [noDisplay, 1],
    ] as const) {
      const child = spawn(process.execPath, [CLI, 'doctor'], {
        env: environment,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      const first = await new Promise<string>((resolve) =>
        child.stdout.once('data', (chunk) => resolve(String(chunk))),
      );
      child.stdout.destroy(); // as `| head -1` closes the pipe
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect(first).not.toBe('');
      expect(stderr).not.toMatch(/EPIPE|Error/);
      expect(code).toBe(expected);
    }
  });

  test('failures exit 1 with what, why and next on stderr', async () => {
    // Read-only mode names the form refused, and the reading form it allows.
    const readOnly = { settings: { MACPILOT_MODE: 'read-only' } };
    const setting = await runWith(readOnly, 'clipboard', 'set', 'x');
    expect(setting.code).toBe(1);
    expect(setting.stderr).toContain('`macpilot clipboard set` is not available in read-only mode.');
    expect(setting.stderr).toContain('`macpilot clipboard` prints the clipboard, which this mode allows');
    const choosing = await runWith(readOnly, 'menu', 'mousepad', 'File > Quit');
    expect(choosing.stderr).toContain(
      '`macpilot menu mousepad --list` lists the menus, which this mode allows',
    );
    const missing = await run('get', 'app("mousepad")/window[0]/button["No such button"]');
    expect(missing).toMatchObject({ code: 1, stdout: '' });
    expect(missing.stderr).toMatch(/No element at this path\.\nWhy: .*\nNext: /);
    // Clearing the clipboard needs consent, and a command without a terminal cannot be asked: --yes gives it.
    const unasked = await runWith({ settings: { MACPILOT_CONSENT: 'ask' } }, 'clipboard', 'clear');
    expect(unasked.code).toBe(1);
    expect(unasked.stderr).toMatch(/needs a human's consent[\s\S]*--yes/);
    const allowed = await runWith({ settings: { MACPILOT_CONSENT: 'ask' } }, 'clipboard', 'clear', '--yes');
    expect(allowed).toMatchObject({ code: 0, stderr: '' });
    expect(allowed.stdout).toMatch(/clear/i);
  });

  test('--help and --version answer on stdout with exit 0; no spinner reaches a stderr that is not a terminal', async () => {
    expect((await ok('--version')).trim()).toMatch(/^\d+\.\d+\.\d+$/);
    expect(await ok('--help')).toContain('  tree [app] [--depth N] [--all]');
    expect(await ok('click', '--help')).toContain('Usage: macpilot click <path | x,y>');
    expect(await run('apps')).toMatchObject({ code: 0, stderr: '' });
  });
});

test('completion zsh and fish are valid scripts; fish completes commands, options and their values', async () => {
  const check = (command: string, args: string[]) =>
    new Promise<Run>((resolve) => {
      execFile(command, args, (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: unknown }).code) : 0, stdout, stderr }),
      );
    });
  for (const shell of ['zsh', 'fish']) {
    const file = join(folder, `macpilot.${shell}`);
    writeFileSync(file, await ok('completion', shell));
    expect(await check(shell, ['-n', file]), shell).toMatchObject({ code: 0, stderr: '' });
  }
  const fish = await check('fish', [
    '-c',
    `source ${join(folder, 'macpilot.fish')}; complete -C 'macpilot scr'; complete -C 'macpilot click --b'; ` +
      "complete -C 'macpilot tree --format '",
  ]);
  expect(fish.stdout.split('\n').map((line) => line.split('\t')[0])).toEqual([
    'screenshot',
    '--button',
    'json',
    'text',
    '',
  ]);
});

test('completion bash is a valid bash script that completes the commands', async () => {
  const script = await ok('completion', 'bash');
  const file = join(folder, 'macpilot.bash');
  writeFileSync(file, script);
  const check = (args: string[]) =>
    new Promise<Run>((resolve) => {
      execFile('bash', args, (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: unknown }).code) : 0, stdout, stderr }),
      );
    });
  expect(await check(['-n', file])).toMatchObject({ code: 0, stderr: '' });
  const completed = await check([
    '-c',
    `source ${file}; COMP_WORDS=(macpilot tr); COMP_CWORD=1; _macpilot; echo "\${COMPREPLY[@]}"; ` +
      `COMP_WORDS=(macpilot tree --f); COMP_CWORD=2; _macpilot; echo "\${COMPREPLY[@]}"; ` +
      `COMP_WORDS=(macpilot find x --format ''); COMP_CWORD=4; _macpilot; echo "\${COMPREPLY[@]}"`,
  ]);
  expect(completed.stdout).toBe('tree\n--format\ntext json\n');
});

test('a helper path that names no macpilot helper: the command says the helper did not start and points to doctor, which names the setting', async () => {
  const folder = temporaryFolder('macpilot-bad-helper-');
  try {
    const helper = join(folder, 'not-a-helper.js');
    writeFileSync(helper, "process.stderr.write('not a helper\\n');\nprocess.exit(3);\n");
    const settings = { settings: { MACPILOT_HELPER_PATH: helper } };
    const apps = await runWith(settings, 'apps');
    expect(apps.code).toBe(1);
    expect(apps.stderr).toContain('macpilot apps: Could not list the running apps.');
    expect(apps.stderr).toContain('Why: its handshake failed: the helper exited with code 3');
    expect(apps.stderr).toContain('Next: run `macpilot doctor`');
    expect(apps.stderr).not.toMatch(/system\.hello|modal dialog/);
    const doctor = await runWith(settings, 'doctor');
    expect(doctor.stdout).toContain(
      `helper: ${helper} (from the environment variable MACPILOT_HELPER_PATH): could not start`,
    );
    expect(doctor.stdout).not.toContain('system.hello');
    expect(doctor.stdout).toContain(
      "  how: check that the environment variable MACPILOT_HELPER_PATH names macpilot's helper",
    );
    // What the helper said is part of the report, in its words; the settings are checked all the same.
    expect(doctor.stdout).toContain('  it said: not a helper');
    expect(doctor.stdout).not.toContain('[macpilot]');
    expect(doctor.stdout).toMatch(/^kill switch: /m);
    expect(doctor.stdout).toMatch(/^Missing: helper\. /m);
    // A helper that starts something before it fails to answer: what it started goes with it.
    const script = join(folder, 'starts-and-fails.sh');
    const childPid = join(folder, 'child.pid');
    writeFileSync(script, `#!/bin/sh\nsleep 60 &\necho $! > ${childPid}\nexit 3\n`, { mode: 0o755 });
    const started = await runWith({ settings: { MACPILOT_HELPER_PATH: script } }, 'apps');
    expect(started.code).toBe(1);
    const pid = Number(readFileSync(childPid, 'utf8'));
    expect(pid).toBeGreaterThan(0);
    await eventually("the helper's child stopped", async () => !existsSync(`/proc/${pid}`) || undefined);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

test('clipboard set with a wrong setting says which setting, as every command does, and exits 2', async () => {
  const wrong = await runWith({ settings: { MACPILOT_MODE: 'bogus' } }, 'clipboard', 'set', 'x');
  expect(wrong).toMatchObject({ code: 2, stdout: '' });
  expect(wrong.stderr).toContain(
    'macpilot: MACPILOT_MODE: unknown mode "bogus"; valid: full, safe, read-only',
  );
  expect(wrong.stderr).not.toContain('    at ');
  expect(wrong.stderr).toContain('(macpilot --help lists the settings)');
  // The same in the config file: named by its path and key, with where the file's keys are described.
  const file = join(folder, 'wrong-mode.json');
  writeFileSync(file, JSON.stringify({ mode: 'readonly' }));
  const inFile = await runWith({ settings: { MACPILOT_CONFIG: file } }, 'clipboard', 'set', 'x');
  expect(inFile).toMatchObject({ code: 2, stdout: '' });
  expect(inFile.stderr).toBe(
    `macpilot: ${file}: "mode": unknown mode "readonly"; valid: full, safe, read-only\n` +
      '(docs/configuration.md shows each key with an example)\n',
  );
});

test("a kill switch folder that cannot be made: stop says so, serve does not start beyond the person's reach, doctor counts it missing", async () => {
  const folder = temporaryFolder('macpilot-control-file-');
  try {
    const file = join(folder, 'a-file');
    writeFileSync(file, '');
    const settings = { settings: { MACPILOT_CONTROL_DIR: file } };
    const stop = await runWith(settings, 'stop');
    expect(stop.code).toBe(1);
    expect(stop.stderr).toContain(`macpilot stop: The kill switch's folder ${file} cannot be used.`);
    expect(stop.stderr).toContain('Why: a file stands where the folder, or one above it, should be');
    expect(stop.stderr).not.toContain('    at ');
    const serve = await runWith(settings, 'serve', '--http', '--port', '0');
    expect(serve.code).toBe(1);
    expect(serve.stderr).toContain("The kill switch's folder");
    // Background input refused at the terminal: the person is told the exact setting that lets it through.
    const background = await runWith({ settings: { MACPILOT_INPUT: 'background' } }, 'key', 'a');
    expect(background.code).toBe(1);
    expect(background.stderr).toContain(
      'let agents use the pointer and the focus again: set MACPILOT_INPUT=foreground',
    );
    // A relative folder is a wrong setting for every command, as any other: exit 2, saying why.
    for (const command of ['stop', 'apps']) {
      const relative = await runWith({ settings: { MACPILOT_CONTROL_DIR: 'relative/dir' } }, command);
      expect(relative.code).toBe(2);
      expect(relative.stderr).toContain('MACPILOT_CONTROL_DIR: "relative/dir" is a relative path');
    }
    const doctor = await runWith({ settings: { MACPILOT_CONTROL_DIR: join(file, 'below') } }, 'doctor');
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toContain('kill switch: NOT usable');
    expect(doctor.stdout).toMatch(/Missing: .*kill switch/);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

test("usage problems a person makes are usage errors (exit 2) in the command line's own words", async () => {
  // Each a process of its own, a person's typing: they run three at a time.
  const { help, quit, typo, minimised, bogus, menu, launch, tree, port, offScreen, region, json } =
    await runEach({
      help: ['help', 'nosuch'],
      quit: ['quit'],
      typo: ['windws'],
      minimised: ['windows', '--minimised'],
      bogus: ['--bogus'],
      menu: ['menu', 'mousepad', 'File >'],
      launch: ['launch', ''],
      tree: ['tree', ''],
      port: ['console', '--port', '80x', '--no-open'],
      offScreen: ['click', '-5,-5'],
      region: ['screenshot', '--region', '0,0,0,10', '-o', '-'],
      json: ['screenshot', '-o', '-', '--format', 'json'],
    });
  expect(help.code).toBe(2);
  expect(help.stderr).toMatch(/^macpilot help: unknown command "nosuch"; the commands: apps, launch, /);
  // A command macpilot does not have: one line with the commands, no guess that changes half the word.
  expect(quit.code).toBe(2);
  expect(quit.stderr).toMatch(
    /^macpilot: unknown command "quit"; the commands: apps, .*\n\(macpilot --help says what each does\)\n$/,
  );
  expect(typo.stderr).toMatch(/^macpilot: unknown command "windws"; did you mean macpilot windows\?/);
  // A misspelt option is not text to put after --: windows takes no text.
  expect(minimised.stderr).toContain('windows has no option --minimised: did you mean --minimized?');
  expect(minimised.stderr).not.toContain('after --');
  // Options with no command run serve: a wrong one is said as the command line's, not as serve's alone.
  expect(bogus.code).toBe(2);
  expect(bogus.stderr).toBe(
    'macpilot: no command given, so serve would run, and it has no option --bogus: it takes --http, --port, ' +
      '--host, --toolsets, --help\n(macpilot --help lists the commands)\n',
  );
  expect(menu.code).toBe(2);
  expect(menu.stderr).toContain('Malformed menu path "File >"');
  expect(launch.code).toBe(2);
  expect(launch.stderr).toContain('macpilot launch: the app is empty');
  expect(launch.stderr).not.toContain('--name');
  expect(tree.code).toBe(2);
  expect(tree.stderr).toContain('macpilot tree: the app is empty');
  expect(port.code).toBe(2);
  expect(port.stderr).toContain(
    'macpilot console: --port is a whole number from 0 to 65535 (0: any free port), not "80x"',
  );
  // A point with both coordinates below zero is a point, not options.
  expect(offScreen.stderr).toContain('The point -5,-5 is on no display');
  expect(region.code).toBe(2);
  expect(region.stderr).toMatch(/--region width must be/);
  expect(json.code).toBe(2);
  expect(json.stdout).toBe('');
  expect(json.stderr).toContain('where --format json would write too');
  const folder = temporaryFolder('macpilot-usage-');
  try {
    const file = join(folder, 'a-file');
    writeFileSync(file, '');
    // What the disk holds where the file would go is no mistake of the command line's: exit 1.
    const under = await run('screenshot', '-o', join(file, 'x.png'));
    expect(under.code).toBe(1);
    expect(under.stderr).toContain(`${file} is a file, not a folder`);
    const deeper = await run('screenshot', '-o', join(file, 'sub', 'x.png'));
    expect(deeper.stderr).toContain('a file stands where one of its folders should be');
    const config = join(folder, 'config.json');
    writeFileSync(config, 'not json\n');
    const broken = await runWith({ settings: { MACPILOT_CONFIG: config } }, 'apps');
    expect(broken.code).toBe(2);
    // The parser's message quotes the file's text, line break and all: it is told on one line.
    expect(broken.stderr.split('\n').filter((line) => line.includes('not valid JSON'))).toHaveLength(1);
    expect(broken.stderr).toMatch(/not valid JSON \(.*is not valid JSON\)/);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  const path = await run('get', 'bad path');
  expect(path.code).toBe(2);
  expect(path.stderr).toMatch(/^Why: /m);
  expect(path.stderr).not.toMatch(/^macpilot: (Why|Next): /m);
});

test('get - at a terminal is refused at once: it reads JSON from a pipe', async () => {
  const { spawnSync } = await import('node:child_process');
  // `script` gives the command a terminal as stdin.
  const ran = spawnSync('script', ['-qec', `${process.execPath} ${CLI} get -`, '/dev/null'], {
    env,
    timeout: 30_000,
    encoding: 'utf8',
  });
  expect(ran.status).toBe(2);
  expect(ran.stdout).toContain('stdin is a terminal');
});

test('Ctrl-C at a consent question interrupts the command: exit 130, nothing done', async () => {
  const { MACPILOT_CONSENT: _consent, ...asking } = env;
  // `script` gives the command a terminal; what is written to script's stdin is typed at it.
  const child = spawn('script', ['-qec', `${process.execPath} ${CLI} clipboard clear`, '/dev/null'], {
    env: asking,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let shown = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (shown += chunk));
  await eventually('the consent question', async () => shown.includes('[y/N]') || undefined);
  child.stdin.write('\x03');
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  expect(shown).toContain('Not done');
  expect(code).toBe(130);
});

/** `macpilot setup` on client configuration files in a temporary home: what it writes, keeps, backs up, refuses. */
import { commandHelp } from '../../../src/cli/help.js';
import { COMMANDS } from '../../../src/cli/commands.js';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { setup, type SetupContext } from '../../../src/setup/index.js';
import { serverEntry } from '../../../src/setup/launch.js';
import { TOOLSET_NAMES } from '../../../src/toolsets.js';
import { temporaryFolder } from '../../support/temp.js';

const NODE = '/opt/node/bin/node';
const PACKAGE = '/opt/macpilot';

interface Run {
  code: number;
  out: string;
  err: string;
  home: string;
}

async function run(
  argv: string[],
  options: { home?: string; platform?: NodeJS.Platform } = {},
): Promise<Run> {
  const home = options.home ?? temporaryFolder('macpilot-setup-home-');
  let out = '';
  let err = '';
  const context: SetupContext = {
    home,
    platform: options.platform ?? 'linux',
    // No `claude` on this PATH: Claude Code is configured through its file.
    env: { PATH: temporaryFolder('macpilot-setup-path-') },
    out: (text) => (out += text),
    err: (text) => (err += text),
    entry: (settings) => serverEntry(settings, PACKAGE, NODE),
  };
  const setupCommand = COMMANDS.find((c) => c.name === 'setup');
  if (!setupCommand) throw new Error('no setup command');
  return { code: await setup(argv, context, commandHelp(setupCommand)), out, err, home };
}

function writeJson(path: string, value: unknown): string {
  mkdirSync(dirname(path), { recursive: true });
  const text = `${JSON.stringify(value, null, 2)}\n`;
  writeFileSync(path, text);
  return text;
}

const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, never>;
const backupsOf = (file: string) =>
  readdirSync(dirname(file)).filter(
    (name) => name.startsWith(`${file.split('/').pop()}.`) && name.endsWith('.bak'),
  );

const MACPILOT = { command: NODE, args: [`${PACKAGE}/dist/macpilot.js`, 'serve'] };
const OTHER = { command: 'npx', args: ['-y', 'other-server'], env: { TOKEN: 'kept' } };

describe('macpilot setup', () => {
  test('claude-desktop on Linux: merges into ~/.config/Claude, keeps the other server and keys, backs up first', async () => {
    const home = temporaryFolder('macpilot-setup-home-');
    const file = join(home, '.config', 'Claude', 'claude_desktop_config.json');
    const original = writeJson(file, { mcpServers: { other: OTHER }, globalShortcut: 'Alt+Space' });

    const { code, out } = await run(['claude-desktop'], { home });

    expect(code).toBe(0);
    expect(readJson(file)).toEqual({
      mcpServers: { other: OTHER, macpilot: MACPILOT },
      globalShortcut: 'Alt+Space',
    });
    const [backup, ...more] = backupsOf(file);
    expect(more).toEqual([]);
    expect(readFileSync(join(dirname(file), backup ?? ''), 'utf8')).toBe(original);
    expect(out).toContain(`Added "macpilot" in Claude Desktop's ${file} (kept: other)`);
    expect(out).toContain(`Undo: mv '${join(dirname(file), backup ?? '')}' '${file}'`);
  });

  test('on macOS, Claude Desktop and VS Code keep their files under ~/Library/Application Support', async () => {
    const desktop = await run(['claude-desktop'], { platform: 'darwin' });
    expect(
      readJson(join(desktop.home, 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json')),
    ).toEqual({ mcpServers: { macpilot: MACPILOT } });
    const vscode = await run(['vscode'], { platform: 'darwin' });
    expect(readJson(join(vscode.home, 'Library', 'Application Support', 'Code', 'User', 'mcp.json'))).toEqual(
      { servers: { macpilot: { type: 'stdio', ...MACPILOT } } },
    );
  });

  test('a config that is a symlink stays one: the file it points to gets the entry', async () => {
    const home = temporaryFolder('macpilot-setup-home-');
    const dotfiles = temporaryFolder('macpilot-setup-dotfiles-');
    const kept = join(dotfiles, 'mcp.json');
    writeJson(kept, { mcpServers: { other: OTHER } });
    const file = join(home, '.cursor', 'mcp.json');
    mkdirSync(dirname(file), { recursive: true });
    symlinkSync(kept, file);

    expect((await run(['cursor'], { home })).code).toBe(0);

    expect(lstatSync(file).isSymbolicLink()).toBe(true);
    expect(readJson(kept)).toEqual({ mcpServers: { other: OTHER, macpilot: MACPILOT } });
  });

  test('cursor without a config: a new ~/.cursor/mcp.json (the mode in any case), no backup, undo removes it', async () => {
    const { code, out, home } = await run(['cursor', '--mode', 'SAFE', '--toolsets', 'ui,apps']);
    const file = join(home, '.cursor', 'mcp.json');
    expect(code).toBe(0);
    expect(readJson(file)).toEqual({
      mcpServers: {
        macpilot: { ...MACPILOT, env: { MACPILOT_MODE: 'safe', MACPILOT_TOOLSETS: 'ui,apps' } },
      },
    });
    expect(backupsOf(file)).toEqual([]);
    expect(out).toContain(`Undo: rm '${file}'`);
  });

  test("the undo command works in a shell for a home folder with a quote in its name (o'brien)", async () => {
    const home = temporaryFolder("macpilot-setup-o'brien-");
    const file = join(home, '.cursor', 'mcp.json');
    writeJson(file, { mcpServers: { other: OTHER } });
    const { code, out } = await run(['cursor'], { home });
    expect(code).toBe(0);
    const undo = /^Undo: (.*)$/m.exec(out)?.[1] ?? '';
    execFileSync('sh', ['-c', undo]);
    expect(readJson(file)).toEqual({ mcpServers: { other: OTHER } });
  });

  test('vscode: the "servers" of the user mcp.json, with type stdio; its inputs and other servers stay', async () => {
    const home = temporaryFolder('macpilot-setup-home-');
    const file = join(home, '.config', 'Code', 'User', 'mcp.json');
    const inputs = [{ type: 'promptString', id: 'key', description: 'API key', password: true }];
    writeJson(file, { inputs, servers: { other: { type: 'stdio', ...OTHER } } });

    expect((await run(['vscode'], { home })).code).toBe(0);

    expect(readJson(file)).toEqual({
      inputs,
      servers: { other: { type: 'stdio', ...OTHER }, macpilot: { type: 'stdio', ...MACPILOT } },
    });
    expect(backupsOf(file)).toHaveLength(1);
  });

  test('a second run replaces its own entry, leaves one backup per run and never a second macpilot', async () => {
    const home = temporaryFolder('macpilot-setup-home-');
    const file = join(home, '.cursor', 'mcp.json');
    writeJson(file, { mcpServers: { other: OTHER } });
    await run(['cursor'], { home });
    // Backups are named by the millisecond.
    await new Promise((done) => setTimeout(done, 5));
    const second = await run(['cursor', '--mode', 'read-only'], { home });
    expect(second.out).toContain('Replaced "macpilot"');
    expect(readJson(file)).toEqual({
      mcpServers: { other: OTHER, macpilot: { ...MACPILOT, env: { MACPILOT_MODE: 'read-only' } } },
    });
    expect(backupsOf(file)).toHaveLength(2);
    // The same run again: the file already says it, so nothing is written and no backup made.
    await new Promise((done) => setTimeout(done, 5));
    const third = await run(['cursor', '--mode', 'read-only'], { home });
    expect(third.out).toContain('is already in');
    expect(third.out).toContain('nothing was changed');
    expect(backupsOf(file)).toHaveLength(2);
  });

  test('a run without --mode keeps the mode (and toolsets) of the entry it replaces, and says so', async () => {
    const home = temporaryFolder('macpilot-setup-home-');
    const file = join(home, '.cursor', 'mcp.json');
    await run(['cursor', '--mode', 'read-only', '--toolsets', 'ui,screen'], { home });
    await new Promise((done) => setTimeout(done, 5));
    const again = await run(['cursor'], { home });
    expect(again.out).toContain(
      'Kept from the entry it replaces: MACPILOT_MODE=read-only, MACPILOT_TOOLSETS=ui,screen (--mode and --toolsets change them).',
    );
    expect(readJson(file)).toEqual({
      mcpServers: {
        macpilot: {
          ...MACPILOT,
          env: { MACPILOT_MODE: 'read-only', MACPILOT_TOOLSETS: 'ui,screen' },
        },
      },
    });
    await new Promise((done) => setTimeout(done, 5));
    const widened = await run(['cursor', '--mode', 'full'], { home });
    expect(widened.out).toContain(
      'Kept from the entry it replaces: MACPILOT_TOOLSETS=ui,screen (--toolsets changes it).',
    );
    expect(readJson(file)).toEqual({
      mcpServers: {
        macpilot: { ...MACPILOT, env: { MACPILOT_MODE: 'full', MACPILOT_TOOLSETS: 'ui,screen' } },
      },
    });
  });

  test('--dry-run prints the file it would write and changes nothing', async () => {
    const home = temporaryFolder('macpilot-setup-home-');
    const file = join(home, '.config', 'Claude', 'claude_desktop_config.json');
    const original = writeJson(file, { mcpServers: { other: OTHER } });

    const { code, out } = await run(['claude-desktop', '--dry-run', '--mode', 'safe'], { home });

    expect(code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(original);
    expect(readdirSync(dirname(file))).toEqual(['claude_desktop_config.json']);
    expect(out).toContain(`Would write ${file}, after a backup of it to ${file}.<UTC date and time>.bak:`);
    expect(out).toContain('"MACPILOT_MODE": "safe"');
    expect(out).toContain('"other"');
    expect(out).toContain('Nothing was changed (--dry-run).');
    const fresh = await run(['vscode', '--dry-run']);
    expect(readdirSync(fresh.home)).toEqual([]);
  });

  test('a file that is not a JSON object is left alone: exit 1, no backup, the reason', async () => {
    for (const [text, why] of [
      ['{ "mcpServers": { "a": 1 ', 'not valid JSON'],
      ['[1, 2]', 'does not hold a JSON object'],
      ['{ "mcpServers": [] }', '"mcpServers" is not an object'],
    ] as const) {
      const home = temporaryFolder('macpilot-setup-home-');
      const file = join(home, '.cursor', 'mcp.json');
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, text);
      const { code, err } = await run(['cursor'], { home });
      expect(code).toBe(1);
      expect(err).toContain(why);
      expect(err).toContain('it was left as it was');
      expect(readFileSync(file, 'utf8')).toBe(text);
      expect(readdirSync(dirname(file))).toEqual(['mcp.json']);
    }
  });

  test('a file with comments or trailing commas (JSONC) is left alone, with the entry to add by hand', async () => {
    for (const text of ['{\n  // my servers\n  "servers": {}\n}', '{ "servers": { "a": {}, } }']) {
      const home = temporaryFolder('macpilot-setup-home-');
      const file = join(home, '.config', 'Code', 'User', 'mcp.json');
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, text);
      const { code, err } = await run(['vscode'], { home });
      expect(code).toBe(1);
      expect(err).toContain('comments or trailing commas');
      expect(err).toMatch(/add this under "servers" by hand, then restart the client: \{"macpilot":\{/);
      expect(readFileSync(file, 'utf8')).toBe(text);
    }
  });

  test('a file it may not write: exit 1 with what the system said', async () => {
    const home = temporaryFolder('macpilot-setup-home-');
    // ~/.cursor is a file: its mcp.json cannot be made.
    writeFileSync(join(home, '.cursor'), '');
    const { code, err } = await run(['cursor'], { home });
    expect(code).toBe(1);
    expect(err).toMatch(/^macpilot setup: .*(ENOTDIR|EEXIST).*\.cursor/);
  });

  test('claude-code without the claude command: the user scope of ~/.claude.json, its other settings kept', async () => {
    const home = temporaryFolder('macpilot-setup-home-');
    const file = join(home, '.claude.json');
    writeJson(file, { numStartups: 3, projects: { '/work': { mcpServers: {} } } });
    const { code, out } = await run(['claude-code'], { home });
    expect(code).toBe(0);
    expect(readJson(file)).toEqual({
      numStartups: 3,
      projects: { '/work': { mcpServers: {} } },
      mcpServers: { macpilot: { type: 'stdio', ...MACPILOT } },
    });
    expect(out).toContain("Claude Code's");
  });

  test("--project: the project's own file (.vscode/mcp.json, .cursor/mcp.json, .mcp.json), never the user's", async () => {
    const project = temporaryFolder('macpilot-setup-project-');
    const vscode = await run(['vscode', '--project', project]);
    expect(vscode.code).toBe(0);
    expect(readJson(join(project, '.vscode', 'mcp.json'))).toEqual({
      servers: { macpilot: { type: 'stdio', ...MACPILOT } },
    });
    expect(readdirSync(vscode.home)).toEqual([]);
    expect((await run(['cursor', '--project', project])).code).toBe(0);
    expect(readJson(join(project, '.cursor', 'mcp.json'))).toEqual({ mcpServers: { macpilot: MACPILOT } });
    expect((await run(['claude-code', '--project', project])).code).toBe(0);
    expect(readJson(join(project, '.mcp.json'))).toEqual({
      mcpServers: { macpilot: { type: 'stdio', ...MACPILOT } },
    });
    // A mistyped folder is not made: nothing is written, and the folder is named.
    const typo = join(project, 'no-such-project');
    const mistyped = await run(['cursor', '--project', typo]);
    expect(mistyped.code).toBe(2);
    expect(mistyped.err).toContain(`--project: ${typo} is not a folder`);
    expect(existsSync(typo)).toBe(false);
  });

  test('usage errors exit 2 with the usage and write nothing', async () => {
    for (const [argv, says] of [
      [[], 'name the client'],
      [['claude-web'], 'unknown client "claude-web"'],
      [['cursor', 'extra'], 'unexpected "extra"'],
      [['cursor', '--mode', 'reckless'], 'unknown mode "reckless"'],
      [['cursor', '--toolsets', 'ui,telepathy'], 'unknown toolset "telepathy"'],
      [['cursor', '--force'], 'setup has no option --force'],
      [['claude-desktop', '--project', '.'], 'claude-desktop has no configuration per project'],
    ] as const) {
      const { code, err, out, home } = await run([...argv]);
      expect(code, argv.join(' ')).toBe(2);
      expect(err).toContain(says);
      expect(err).toContain('(macpilot setup --help shows its options)');
      expect(out).toBe('');
      expect(readdirSync(home)).toEqual([]);
    }
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.out).toContain('Usage: macpilot setup');
  });
});

describe('the server entry', () => {
  test('run through npx: npx -y macpilot serve; otherwise this node on dist/macpilot.js by absolute path', () => {
    const cached = '/home/u/.npm/_npx/1a2b3c/node_modules/macpilot';
    expect(serverEntry({}, cached, NODE)).toEqual({
      command: 'npx',
      args: ['-y', 'macpilot', 'serve'],
      env: {},
    });
    expect(serverEntry({ mode: 'safe', toolsets: ['ui', 'session'] }, PACKAGE, NODE)).toEqual({
      command: NODE,
      args: [join(PACKAGE, 'dist', 'macpilot.js'), 'serve'],
      env: { MACPILOT_MODE: 'safe', MACPILOT_TOOLSETS: 'ui' },
    });
    // Every toolset is written "all", which takes in the toolsets a later version adds.
    expect(serverEntry({ toolsets: [...TOOLSET_NAMES] }, PACKAGE, NODE).env).toEqual({
      MACPILOT_TOOLSETS: 'all',
    });
    expect(existsSync(serverEntry({}).args[0] ?? '')).toBe(true);
  });
});

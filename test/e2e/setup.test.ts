/**
 * The two ways macpilot reaches a client, as a user meets them: `macpilot setup claude-code` and then Claude
 * Code's own `claude mcp list` health check, and the MCP Bundle, packed, unpacked and started as its manifest says.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, inject, test } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { packMcpb } from '../../scripts/mcpb/pack.js';
import { VERSION } from '../../src/version.js';
import { CLI } from '../support/mcp.js';
import { temporaryFolder } from '../support/temp.js';

const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'node_modules', '.bin');
const desktop = inject('desktopEnv');

async function run(file: string, args: string[], env: NodeJS.ProcessEnv) {
  try {
    const { stdout, stderr } = await promisify(execFile)(file, args, { env, timeout: 90_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: unknown; stdout?: string; stderr?: string };
    if (typeof failed.code !== 'number') throw error;
    return { code: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

/** A user's environment on the desktop, with a home of its own and `claude` on the PATH or not. */
function userEnv(withClaude: boolean): NodeJS.ProcessEnv {
  const path = [...(withClaude ? [BIN] : []), dirname(process.execPath), '/usr/bin', '/bin'].join(':');
  return { ...desktop, HOME: temporaryFolder('macpilot-setup-e2e-home-'), PATH: path };
}

const claude = (env: NodeJS.ProcessEnv, ...args: string[]) => run(join(BIN, 'claude'), args, env);
const macpilotLine = (listing: string) => listing.split('\n').find((line) => line.startsWith('macpilot:'));

describe('macpilot setup claude-code', () => {
  test('through `claude mcp add-json`: claude mcp list shows macpilot Connected; a rerun replaces it; its undo restores the old entry', async () => {
    const env = userEnv(true);
    const setup = await run(process.execPath, [CLI, 'setup', 'claude-code', '--mode', 'safe'], env);
    expect(setup.stderr).toBe('');
    expect(setup.code).toBe(0);
    expect(setup.stdout).toContain('claude mcp add-json --scope user macpilot');
    expect(setup.stdout).toContain('Undo: claude mcp remove --scope user macpilot');

    const listed = await claude(env, 'mcp', 'list');
    expect(macpilotLine(listed.stdout), listed.stdout + listed.stderr).toMatch(
      new RegExp(`^macpilot: ${process.execPath} ${CLI} serve - ✔ Connected$`),
    );
    const stored = JSON.parse(readFileSync(join(env.HOME ?? '', '.claude.json'), 'utf8')) as {
      mcpServers: Record<string, { env?: Record<string, string> }>;
    };
    expect(stored.mcpServers.macpilot?.env).toEqual({ MACPILOT_MODE: 'safe' });

    // A dry run says what it would run and where the backup would go, and changes nothing.
    const claudeJson = join(env.HOME ?? '', '.claude.json');
    const before = readFileSync(claudeJson, 'utf8');
    const dry = await run(process.execPath, [CLI, 'setup', 'claude-code', '--dry-run'], env);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(
      `Would run, after a backup of ${claudeJson} to ${claudeJson}.<UTC date and time>.bak:\n`,
    );
    expect(dry.stdout).toContain('claude mcp remove --scope user macpilot');
    // Run again without --mode, it keeps the mode the person chose before.
    expect(dry.stdout).toContain('Kept from the entry it replaces: MACPILOT_MODE=safe (--mode changes it).');
    expect(readFileSync(claudeJson, 'utf8')).toBe(before);

    const again = await run(process.execPath, [CLI, 'setup', 'claude-code', '--mode', 'full'], env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('claude mcp remove --scope user macpilot');
    expect(again.stdout).toMatch(/^Backup of .*\.claude\.json before the change: .*\.bak$/m);
    const relisted = await claude(env, 'mcp', 'list');
    expect(relisted.stdout.split('\n').filter((line) => line.startsWith('macpilot:'))).toHaveLength(1);
    const storedNow = () =>
      (
        JSON.parse(readFileSync(join(env.HOME ?? '', '.claude.json'), 'utf8')) as {
          mcpServers: Record<string, { env?: Record<string, string> }>;
        }
      ).mcpServers.macpilot;
    expect(storedNow()?.env).toEqual({ MACPILOT_MODE: 'full' });

    // The undo printed after a replacement puts the safe-mode entry back, as a person would run it.
    const undoLine = /^Undo: (.*)$/m.exec(again.stdout)?.[1] ?? '';
    expect(undoLine).toContain('claude mcp add-json');
    const undone = await run('/bin/sh', ['-c', undoLine], env);
    expect(undone.code, undone.stderr).toBe(0);
    expect(storedNow()?.env).toEqual({ MACPILOT_MODE: 'safe' });

    const removed = await claude(env, 'mcp', 'remove', '--scope', 'user', 'macpilot');
    expect(removed.code, removed.stderr).toBe(0);
    expect(macpilotLine((await claude(env, 'mcp', 'list')).stdout)).toBeUndefined();
  });

  test('without the claude command: ~/.claude.json, which Claude Code then reads and connects', async () => {
    const env = userEnv(false);
    const setup = await run(process.execPath, [CLI, 'setup', 'claude-code'], env);
    expect(setup.code, setup.stderr).toBe(0);
    expect(setup.stdout).toContain(
      `Added "macpilot" in Claude Code's ${join(env.HOME ?? '', '.claude.json')}`,
    );
    const listed = await claude(env, 'mcp', 'list');
    expect(macpilotLine(listed.stdout), listed.stdout + listed.stderr).toMatch(/ - ✔ Connected$/);
  });
});

describe('the npm package alone', () => {
  test('packed and installed into an empty project, `npx macpilot` runs it and setup points at the installed copy', async () => {
    const folder = temporaryFolder('macpilot-npm-e2e-');
    const env = { ...process.env, npm_config_update_notifier: 'false' };
    // --ignore-scripts: no rebuild of dist/ under the other tests' feet; the tarball takes dist/ as it is.
    const packed = await run('npm', ['pack', '--ignore-scripts', '--pack-destination', folder], env);
    expect(packed.code, packed.stderr).toBe(0);
    const tarball = join(folder, `macpilot-${VERSION}.tgz`);
    const project = join(folder, 'project');
    mkdirSync(project);
    const installed = await promisify(execFile)(
      'npm',
      ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball],
      { cwd: project, env, timeout: 300_000 },
    );
    expect(installed.stdout).toContain('added');
    const npx = (...args: string[]) =>
      promisify(execFile)('npx', ['macpilot', ...args], { cwd: project, env });
    expect((await npx('--version')).stdout).toBe(`${VERSION}\n`);
    const { stdout } = await npx('setup', 'cursor', '--dry-run');
    expect(stdout).toContain(`"${join(project, 'node_modules', 'macpilot', 'dist', 'macpilot.js')}"`);
  }, 300_000);
});

describe('the MCP Bundle', () => {
  test('packed and unpacked, it validates, and its server, started as the manifest says, lists tools and takes a screenshot', async () => {
    const folder = temporaryFolder('macpilot-mcpb-e2e-');
    const bundle = join(folder, 'macpilot-linux.mcpb');
    packMcpb({ out: bundle, platform: 'linux', sharpPrebuilds: [] });
    const unpacked = join(folder, 'unpacked');
    const unpack = await run(join(BIN, 'mcpb'), ['unpack', bundle, unpacked], process.env);
    expect(unpack.code, unpack.stderr).toBe(0);
    const validated = await run(
      join(BIN, 'mcpb'),
      ['validate', join(unpacked, 'manifest.json')],
      process.env,
    );
    expect(validated.stdout).toContain('Manifest schema validation passes');

    const manifest = JSON.parse(readFileSync(join(unpacked, 'manifest.json'), 'utf8')) as {
      server: { mcp_config: { command: string; args: string[]; env: Record<string, string> } };
      user_config: Record<string, { default: string }>;
    };
    // What a host does: ${__dirname} is the unpacked bundle, each ${user_config.x} the user's value or its default.
    const fill = (text: string) =>
      text
        .replaceAll('${__dirname}', unpacked)
        .replace(/\$\{user_config\.(\w+)\}/g, (_, key: string) => manifest.user_config[key]?.default ?? '');
    const { command, args, env } = manifest.server.mcp_config;
    expect(command).toBe('node');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: args.map(fill),
      env: {
        ...desktop,
        ...Object.fromEntries(Object.entries(env).map(([name, value]) => [name, fill(value)])),
      },
      cwd: folder,
      stderr: 'inherit',
    });
    const client = new Client({ name: 'mcpb-e2e', version: '0.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      const names = tools.map((tool) => tool.name);
      expect(names).toEqual(
        expect.arrayContaining(['snapshot_ui', 'click_element', 'take_screenshot', 'run_workflow']),
      );
      expect(names).not.toContain('send_notification');
      // sharp, loaded from the bundle's own node_modules, encodes the PNG.
      const shot = (await client.callTool({
        name: 'take_screenshot',
        arguments: { max_width: 200 },
      })) as CallToolResult;
      expect(shot.isError ?? false).toBe(false);
      const image = shot.content.find((part) => part.type === 'image');
      expect(image?.mimeType).toBe('image/png');
      expect(
        Buffer.from(image?.data ?? '', 'base64')
          .subarray(1, 4)
          .toString(),
      ).toBe('PNG');
    } finally {
      await client.close();
    }
  }, 120_000);
});

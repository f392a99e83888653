/**
 * The registry path, for real: a local npm registry (verdaccio 6.8.0 on loopback, its storage in a temporary
 * folder, every other package proxied from the npm registry) receives `npm publish` of macpilot and
 * macpilot-linux-ocr as `npm pack` makes them. Then a user with a new HOME and an empty npm cache runs, from it:
 * `npx -y macpilot --version` (the first run installs, the second finds it), `npx -y macpilot doctor`, and
 * `npx -y macpilot setup claude-code`, whose entry (`npx -y macpilot serve`) Claude Code's `claude mcp list`
 * finds Connected and an MCP client uses to read a window's text through the OCR package it installed.
 * On macOS the install's postinstall would also put the helper app in place, checked against
 * release-checksums.json: on Linux postinstall does nothing (scripts/postinstall.mjs), so that is not tried here.
 */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { Processes } from '../support/processes.js';
import { temporaryFolder } from '../support/temp.js';
import { eventually } from '../support/text.js';

const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'node_modules', '.bin');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const desktop = inject('desktopEnv');
const processes = new Processes(desktop);
const folder = temporaryFolder('macpilot-registry-e2e-');
let registry = '';

async function run(file: string, args: string[], env: NodeJS.ProcessEnv, cwd = folder) {
  const started = performance.now();
  try {
    const { stdout, stderr } = await promisify(execFile)(file, args, { env, cwd, timeout: 240_000 });
    return { code: 0, stdout, stderr, seconds: (performance.now() - started) / 1000 };
  } catch (error) {
    const failed = error as { code?: unknown; stdout?: string; stderr?: string };
    if (typeof failed.code !== 'number') throw error;
    return { code: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '', seconds: 0 };
  }
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });

/** A user on the desktop with a new home, whose npm uses the local registry; no npm setting of this run leaks in. */
function userEnv(): NodeJS.ProcessEnv {
  const inherited = Object.entries(desktop).filter(([name]) => !/^npm_/i.test(name));
  return {
    ...Object.fromEntries(inherited),
    HOME: temporaryFolder('macpilot-registry-home-'),
    PATH: [BIN, dirname(process.execPath), '/usr/bin', '/bin'].join(':'),
    npm_config_registry: registry,
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
  };
}

beforeAll(async () => {
  const port = await freePort();
  registry = `http://127.0.0.1:${port}/`;
  const config = join(folder, 'verdaccio.yaml');
  writeFileSync(
    config,
    [
      `storage: ${join(folder, 'storage')}`,
      'uplinks:',
      '  npmjs:',
      '    url: https://registry.npmjs.org/',
      'packages:',
      // macpilot's packages come from here alone; anything else through the npm registry.
      "  'macpilot*':",
      '    access: $all',
      '    publish: $all',
      "  '**':",
      '    access: $all',
      '    proxy: npmjs',
      'log: { type: stdout, format: pretty, level: warn }',
      '',
    ].join('\n'),
  );
  processes.start(process.execPath, [
    join(ROOT, 'node_modules', 'verdaccio', 'bin', 'verdaccio'),
    '--config',
    config,
    '--listen',
    `127.0.0.1:${port}`,
  ]);
  await eventually('the local registry answering', async () => {
    const ping = await fetch(`${registry}-/ping`).catch(() => undefined);
    return ping?.ok === true ? true : undefined;
  });

  // The tarballs `npm publish` would send from the checkout, with dist/ and the OCR files as built.
  const env = { ...process.env, npm_config_update_notifier: 'false' };
  const main = await run('npm', ['pack', '--ignore-scripts', '--pack-destination', folder], env, ROOT);
  expect(main.code, main.stderr).toBe(0);
  const ocr = await run(
    'npm',
    ['pack', '--pack-destination', folder],
    env,
    join(ROOT, 'packages', 'macpilot-linux-ocr'),
  );
  expect(ocr.code, ocr.stderr).toBe(0);
  const npmrc = join(folder, 'publish.npmrc');
  writeFileSync(npmrc, `//127.0.0.1:${port}/:_authToken=macpilot-test\n`);
  for (const tarball of [`macpilot-linux-ocr-${VERSION}.tgz`, `macpilot-${VERSION}.tgz`]) {
    const published = await run(
      'npm',
      ['publish', join(folder, tarball), '--registry', registry, '--userconfig', npmrc, '--ignore-scripts'],
      env,
    );
    expect(published.code, published.stderr).toBe(0);
  }
}, 180_000);

afterAll(() => processes.stopAll());

describe('published to a registry, run with npx', () => {
  test('npx -y macpilot: --version cold and warm, doctor, setup claude-code Connected, and OCR from the installed package', async () => {
    const env = userEnv();
    const cold = await run('npx', ['-y', 'macpilot', '--version'], env);
    expect(cold.code, cold.stderr).toBe(0);
    expect(cold.stdout).toBe(`${VERSION}\n`);
    const warm = await run('npx', ['-y', 'macpilot', '--version'], env);
    expect(warm.stdout).toBe(`${VERSION}\n`);
    console.info(
      `npx -y macpilot --version: first run ${cold.seconds.toFixed(1)} s, then ${warm.seconds.toFixed(1)} s`,
    );

    const doctor = await run('npx', ['-y', 'macpilot', 'doctor'], env);
    expect(doctor.code, doctor.stdout + doctor.stderr).toBe(0);
    // The helper and the OCR engine are the installed copies in npx's cache, not this checkout's.
    expect(doctor.stdout).toMatch(
      /^helper: .*\/_npx\/.*\/node_modules\/macpilot\/dist\/macpilot-linux-helper\.js/m,
    );
    expect(doctor.stdout).toMatch(/^OCR: available/m);

    const setup = await run('npx', ['-y', 'macpilot', 'setup', 'claude-code'], env);
    expect(setup.code, setup.stderr).toBe(0);
    const entry = (
      JSON.parse(readFileSync(join(env.HOME ?? '', '.claude.json'), 'utf8')) as {
        mcpServers: Record<string, { command: string; args: string[] }>;
      }
    ).mcpServers.macpilot;
    expect(entry).toMatchObject({ command: 'npx', args: ['-y', 'macpilot', 'serve'] });
    const listed = await run(join(BIN, 'claude'), ['mcp', 'list'], env);
    expect(listed.stdout, listed.stderr).toMatch(/^macpilot: npx -y macpilot serve - ✔ Connected$/m);

    // That entry's server, as a client starts it, reads text through the macpilot-linux-ocr it installed.
    const zenity = processes.start('zenity', ['--info', '--title', 'Registry', '--text', 'Published 4711']);
    const transport = new StdioClientTransport({
      command: entry?.command ?? 'npx',
      args: entry?.args ?? [],
      env: env as Record<string, string>,
      cwd: env.HOME,
      stderr: 'inherit',
    });
    const client = new Client({ name: 'macpilot-registry-e2e', version: '0.0.0' });
    await client.connect(transport);
    try {
      await eventually('zenity showing its text', async () => {
        const tree = (await client.callTool({
          name: 'snapshot_ui',
          arguments: { app: String(zenity.pid) },
        })) as CallToolResult;
        return JSON.stringify(tree.content).includes('Published 4711') ? true : undefined;
      });
      const read = (await client.callTool({
        name: 'read_text',
        arguments: { app: String(zenity.pid) },
      })) as CallToolResult;
      const text = read.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
      expect(read.isError ?? false, text).toBe(false);
      expect(text).toContain('Published 4711');
    } finally {
      await client.close();
      await processes.stop(zenity.pid);
    }
  }, 300_000);
});

/**
 * The tool catalog as clients see it: for each tool, exactly what tools/list sends (name, title, description,
 * input and output schema, annotations), and which tools each mode and platform lists. A change to the catalog
 * changes a snapshot here, so it is always deliberate (`npx vitest run -u` after checking the diff).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { createEngine } from '../../../src/engine/index.js';
import type { HelperClient } from '../../../src/helper-client/client.js';
import { createLogger } from '../../../src/log.js';
import { createMcpServer } from '../../../src/mcp/server.js';
import { Policy } from '../../../src/policy/pipeline.js';
import { platformServiceChecks, platformServices } from '../../../src/platforms/index.js';
import { CallFeed } from '../../../src/policy/watch.js';
import { Desk } from '../../../src/policy/desk.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../../../src/config.js';
import { RefTable } from '../../../src/engine/kernel/refs.js';
import { AuditLog } from '../../../src/policy/audit-log.js';
import type { Guard } from '../../../src/policy/pipeline.js';
import { ToolsetGuard } from '../../../src/policy/toolset-guard.js';
import { temporaryFolder } from '../../support/temp.js';

async function connect(
  settings: Record<string, string>,
  platform: NodeJS.Platform = 'linux',
  guards: (config: Config) => Guard[] = () => [],
  auditFile?: string,
) {
  const config = loadConfig({}, { MACPILOT_TOOLSETS: 'all', ...settings }, '/nonexistent');
  const helper = {} as HelperClient;
  const server = createMcpServer({
    config,
    log: createLogger('silent'),
    helper,
    engine: createEngine({ call: () => Promise.reject(new Error('no helper in this test')) }),
    policy: new Policy(guards(config)),
    audit: new AuditLog({
      file: auditFile,
      mode: config.mode,
      refs: new RefTable(),
      log: createLogger('silent'),
    }),
    desk: new Desk(),
    feed: new CallFeed({ describe: () => ({}) as never, pictures: false }),
    services: platformServices(platform),
    serviceChecks: platformServiceChecks(platform),
  });
  const client = new Client({ name: 'catalog-test', version: '0' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return client;
}

async function listTools(settings: Record<string, string>, platform: NodeJS.Platform = 'linux') {
  const client = await connect(settings, platform);
  const { tools } = await client.listTools();
  await client.close();
  return tools;
}

describe('the tool catalog', () => {
  it('lists every tool exactly as pinned (linux, full mode, all toolsets)', async () => {
    const tools = await listTools({ MACPILOT_MODE: 'full' });
    for (const tool of tools) {
      await expect(JSON.stringify(tool, null, 2) + '\n').toMatchFileSnapshot(`catalog/${tool.name}.json`);
    }
  });

  it('lists the same tools on macOS plus those only macOS serves', async () => {
    const tools = await listTools({ MACPILOT_MODE: 'full' }, 'darwin');
    for (const tool of tools) {
      await expect(JSON.stringify(tool, null, 2) + '\n').toMatchFileSnapshot(`catalog/${tool.name}.json`);
    }
  });

  it.each([
    ['full', 'linux'],
    ['safe', 'linux'],
    ['read-only', 'linux'],
    ['full', 'darwin'],
    ['safe', 'darwin'],
    ['read-only', 'darwin'],
  ] as const)('%s mode on %s lists', async (mode, platform) => {
    const names = (await listTools({ MACPILOT_MODE: mode }, platform)).map((t) => t.name);
    expect(names).toMatchSnapshot();
  });

  it('default toolsets list', async () => {
    const names = (await listTools({ MACPILOT_TOOLSETS: '' }, 'linux')).map((t) => t.name);
    expect(names).toMatchSnapshot();
  });

  it('a resource that gives what a toolset left out gives is not listed, and refused by its URI: the clipboard, screenshots', async () => {
    const file = join(temporaryFolder('macpilot-resource-audit-'), 'audit.jsonl');
    const client = await connect({ MACPILOT_TOOLSETS: 'ui,apps' }, 'linux', () => [], file);
    const uris = (await client.listResources()).resources.map((r) => r.uri);
    const templates = (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
    // Read by its URI, it is refused as the toolset's tools are, naming the setting.
    await expect(client.readResource({ uri: 'macpilot://clipboard' })).rejects.toThrow(
      /macpilot:\/\/clipboard is not offered: it is in the toolset "clipboard".*MACPILOT_TOOLSETS gives the toolsets ui,apps/s,
    );
    await expect(client.readResource({ uri: 'macpilot://app/zenity/screenshot' })).rejects.toThrow(
      /is in the toolset "screen"/,
    );
    const logged = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as unknown);
    expect(logged).toEqual([
      expect.objectContaining({
        tool: 'resources/read',
        resource: 'macpilot://clipboard',
        error: 'toolset_left_out',
      }),
      expect.objectContaining({
        resource: 'macpilot://app/{name}/screenshot',
        app: 'zenity',
        outcome: 'refused',
      }),
    ]);
    // Subscribing is refused as reading is: the same sentences, as invalid params, and a line in the audit log.
    const subscribed = await client
      .subscribeResource({ uri: 'macpilot://clipboard' })
      .catch((e: unknown) => e);
    expect(subscribed).toMatchObject({ code: -32602, message: expect.stringMatching(/is not offered/) });
    expect(JSON.parse(readFileSync(file, 'utf8').trim().split('\n').at(-1) ?? '')).toMatchObject({
      tool: 'resources/subscribe',
      resource: 'macpilot://clipboard',
      outcome: 'refused',
      error: 'toolset_left_out',
    });
    await client.close();
    expect(uris).not.toContain('macpilot://clipboard');
    expect(templates).toContain('macpilot://app/{name}/tree');
    expect(templates).not.toContain('macpilot://app/{name}/screenshot');
    const all = await connect({});
    expect((await all.listResources()).resources.map((r) => r.uri)).toContain('macpilot://clipboard');
    await all.close();
  });

  it('a tool of a toolset left out is not listed; called by name, it is refused saying which setting adds it, and audited', async () => {
    const file = join(temporaryFolder('macpilot-catalog-audit-'), 'audit.jsonl');
    const client = await connect({ MACPILOT_TOOLSETS: 'ui,apps' }, 'linux', (config) => [
      new ToolsetGuard(config.toolsets, config.origins.toolsets),
      new AuditLog({ file, mode: config.mode, refs: new RefTable(), log: createLogger('silent') }),
    ]);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).not.toContain('take_screenshot');
    const called = await client.callTool({ name: 'take_screenshot', arguments: { nonsense: 1 } });
    await client.close();
    expect(called.isError).toBe(true);
    expect((called.content as { text: string }[])[0]?.text).toBe(
      'take_screenshot is not offered: it is in the toolset "screen", which this server leaves out.\n' +
        'Why: the environment variable MACPILOT_TOOLSETS gives the toolsets ui,apps (and session, always offered)\n' +
        'Next: only a human can add it: set MACPILOT_TOOLSETS=ui,apps,screen where macpilot is started ' +
        "(the MCP client's server entry or your shell), then restart macpilot",
    );
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({
      tool: 'take_screenshot',
      outcome: 'refused',
      error: 'toolset_left_out',
    });
  });

  it('bad arguments are answered in one form, whether the tool may run as a task or not', async () => {
    const client = await connect({});
    const texts = [];
    for (const [name, args] of [
      ['type_text', { text: 'x', clear: true }],
      ['wait_for', { condition: 'appears', clear: true }],
    ] as const) {
      const answer = await client.callTool({ name, arguments: args });
      expect(answer.isError).toBe(true);
      texts.push((answer.content as { text: string }[])[0]?.text);
    }
    await client.close();
    expect(texts[0]).toMatch(
      /^type_text was not run: its arguments do not fit it\.\nWhy: type_text takes no argument "clear"; it takes text, /,
    );
    expect(texts[1]).toMatch(
      /^wait_for was not run: its arguments do not fit it\.\nWhy: wait_for takes no argument "clear"; it takes /,
    );
  });
});

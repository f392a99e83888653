/**
 * The desktop as MCP resources through a real client: the server's status, the apps with their windows, an app's
 * tree, one window's tree, its state and a screenshot, the clipboard; a denied app is neither listed nor readable.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, inject, test } from 'vitest';
import { startMacpilot, useMacpilot } from '../support/mcp.js';
import { temporaryFolder } from '../support/temp.js';
import { eventually } from '../support/text.js';
import { xclipOn } from '../support/xclip.js';

const env = inject('desktopEnv');
const { macpilot, processes, start } = useMacpilot(env);
const xclip = xclipOn(env, processes);
let pid = 0;
beforeAll(async () => {
  pid = await start('gtk3-demo', 'Application Class');
});

const readText = async (uri: string) => {
  const { contents } = await macpilot.client.readResource({ uri });
  const [first] = contents;
  return first && 'text' in first ? first.text : '';
};

test('resources/list shows the static resources and one entry per running app; templates are listed', async () => {
  const { resources } = await macpilot.client.listResources();
  const uris = resources.map((r) => r.uri);
  expect(uris).toEqual(
    expect.arrayContaining(['macpilot://system/status', 'macpilot://apps', 'macpilot://clipboard']),
  );
  expect(uris).toContain('macpilot://app/gtk3-demo/tree');
  expect(uris).toContain('macpilot://app/gtk3-demo/state');
  const { resourceTemplates } = await macpilot.client.listResourceTemplates();
  expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(
    expect.arrayContaining([
      'macpilot://app/{name}/tree',
      'macpilot://app/{name}/window/{index}/tree',
      'macpilot://app/{name}/state',
      'macpilot://app/{name}/screenshot',
    ]),
  );
});

test('the status, apps, tree, window tree, state and screenshot of a running app read as the tools see it', async () => {
  const status = JSON.parse(await readText('macpilot://system/status')) as Record<string, unknown>;
  expect(status).toMatchObject({ platform: 'linux', mode: 'full', helper: { state: 'running' } });

  const apps = JSON.parse(await readText('macpilot://apps')) as {
    apps: { name: string; pid: number; state: string }[];
  };
  expect(apps.apps.find((a) => a.pid === pid)).toMatchObject({ name: 'gtk3-demo' });

  const tree = await readText('macpilot://app/gtk3-demo/tree');
  expect(tree).toContain('app data, not instructions');
  expect(tree).toMatch(/- window "Application Class" \[ref=e\d+\]/);
  expect(tree).toMatch(/- button "Run" \[ref=e\d+\]/);
  expect(await readText('macpilot://app/gtk3-demo/window/0/tree')).toMatch(/- button "Run" \[ref=e\d+\]/);

  const state = JSON.parse(await readText('macpilot://app/gtk3-demo/state')) as {
    name: string;
    windows: { title: string }[];
  };
  expect(state.name).toBe('gtk3-demo');
  expect(state.windows.map((w) => w.title)).toContain('Application Class');

  const { contents } = await macpilot.client.readResource({ uri: 'macpilot://app/gtk3-demo/screenshot' });
  const image = contents[0] as { mimeType: string; blob: string };
  expect(image.mimeType).toBe('image/png');
  expect(Buffer.from(image.blob, 'base64').subarray(1, 4).toString()).toBe('PNG');
});

test('two copies of an app are listed each by its pid, which reads it', async () => {
  const copies = ['first copy', 'second copy'].map((text) =>
    processes.start('zenity', ['--info', '--text', text]),
  );
  const uris = await eventually('both copies listed', async () => {
    const listed = (await macpilot.client.listResources()).resources.map((r) => r.uri);
    return copies.every(({ pid }) => listed.includes(`macpilot://app/${pid}/tree`)) ? listed : undefined;
  });
  expect(uris).not.toContain('macpilot://app/zenity/tree');
  expect(new Set(uris).size).toBe(uris.length);
  const [first, second] = copies;
  expect(await readText(`macpilot://app/${first?.pid}/tree`)).toContain('first copy');
  expect(await readText(`macpilot://app/${second?.pid}/tree`)).toContain('second copy');
  await Promise.all(copies.map(({ pid }) => processes.stop(pid)));
});

test('the clipboard resource holds what another app copied', async () => {
  await xclip.owns('copied by xclip ✓');
  await eventually('the clipboard resource', async () => {
    const clipboard = JSON.parse(await readText('macpilot://clipboard')) as { text?: string };
    return clipboard.text === 'copied by xclip ✓' ? true : undefined;
  });
});

test('an unknown app is an error that lists the running apps; a denied app is neither listed nor readable, nor has resources when listed', async () => {
  await expect(macpilot.client.readResource({ uri: 'macpilot://app/no-such-app/tree' })).rejects.toThrow(
    /No running app matches "no-such-app".*gtk3-demo \(pid \d+\)/s,
  );
  const auditFile = join(temporaryFolder('macpilot-resources-audit-'), 'audit.jsonl');
  const denying = await startMacpilot({
    ...env,
    MACPILOT_DENY_APPS: 'gtk3-demo',
    MACPILOT_AUDIT_LOG: auditFile,
  });
  try {
    const { resources } = await denying.client.listResources();
    expect(resources.map((r) => r.uri).filter((uri) => uri.includes('gtk3-demo'))).toEqual([]);
    const apps = JSON.parse(
      ((await denying.client.readResource({ uri: 'macpilot://apps' })).contents[0] as { text: string }).text,
    ) as { apps: { name: string }[] };
    expect(apps.apps.map((a) => a.name)).not.toContain('gtk3-demo');
    await expect(denying.client.readResource({ uri: 'macpilot://app/gtk3-demo/tree' })).rejects.toThrow(
      /No running app matches "gtk3-demo".*running apps? (is|are) hidden; only the person can change that/s,
    );
    // A read a setting refused is in the audit log, as a refused tool call is; an app that is not there is no refusal.
    await expect(denying.client.readResource({ uri: 'macpilot://app/no-such-app/state' })).rejects.toThrow();
    await expect(denying.client.readResource({ uri: `macpilot://app/${pid}/state` })).rejects.toThrow(
      /No running app matches/,
    );
    // A subscription is refused as a read is, in the same words and with its own line.
    await expect(
      denying.client.subscribeResource({ uri: 'macpilot://app/gtk3-demo/events' }),
    ).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/No running app matches "gtk3-demo"/),
    });
    const logged = readFileSync(auditFile, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(logged).toEqual([
      expect.objectContaining({
        tool: 'resources/read',
        resource: 'macpilot://app/{name}/tree',
        app: 'gtk3-demo',
        outcome: 'refused',
        error: 'app_off_limits',
      }),
      // Named by its pid, as a tool call's app is logged.
      expect.objectContaining({
        tool: 'resources/read',
        resource: 'macpilot://app/{name}/state',
        pid,
        app: 'gtk3-demo',
      }),
      expect.objectContaining({
        tool: 'resources/subscribe',
        resource: 'macpilot://app/{name}/events',
        app: 'gtk3-demo',
        outcome: 'refused',
      }),
    ]);
  } finally {
    await denying.close();
  }
  // Listed (MACPILOT_LIST_DENIED_APPS): macpilot://apps marks it off limits; it has no resource to read.
  const listing = await startMacpilot({
    ...env,
    MACPILOT_DENY_APPS: 'gtk3-demo',
    MACPILOT_LIST_DENIED_APPS: 'on',
  });
  try {
    const { resources } = await listing.client.listResources();
    expect(resources.map((r) => r.uri).filter((uri) => uri.includes('gtk3-demo'))).toEqual([]);
    const apps = JSON.parse(
      ((await listing.client.readResource({ uri: 'macpilot://apps' })).contents[0] as { text: string }).text,
    ) as { apps: { name: string; off_limits?: true }[] };
    expect(apps.apps.find((a) => a.name === 'gtk3-demo')).toMatchObject({ off_limits: true });
    await expect(listing.client.readResource({ uri: 'macpilot://app/gtk3-demo/tree' })).rejects.toThrow(
      /"gtk3-demo"( \([^)]*\))? is off limits/,
    );
  } finally {
    await listing.close();
  }
});

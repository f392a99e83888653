/** App policy and modes through a real client: a denied app is refused by name, read-only lists and runs only readers. */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, test } from 'vitest';
import { useMacpilot } from '../support/mcp.js';
import { eventually } from '../support/text.js';
import { temporaryFolder } from '../support/temp.js';

const env = inject('desktopEnv');

describe('MACPILOT_DENY_APPS=mousepad', () => {
  const { macpilot, processes, start } = useMacpilot({ ...env, MACPILOT_DENY_APPS: 'mousepad' });

  test('mousepad is left out of the lists, and snapshot_ui of it is refused, naming the app and the setting; gtk3-demo still works', async () => {
    const mousepad = processes.start('mousepad');
    const apps = await eventually('list_apps counting mousepad as hidden', async () => {
      const listed = await macpilot.ok('list_apps');
      return listed.includes("1 app hidden by the person's app lists.") ? listed : undefined;
    });
    expect(apps).not.toContain('mousepad');
    const windows = await eventually('list_windows counting its window as hidden', async () => {
      const listed = await macpilot.ok('list_windows');
      return listed.includes("hidden by the person's app lists") ? listed : undefined;
    });
    expect(windows).not.toMatch(/mousepad|Untitled/);
    // Named, by pid or by name, it is as if it did not run: the agent learns only that hidden apps exist.
    const refused = await macpilot.call('snapshot_ui', { app: String(mousepad.pid) });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/^No running app matches "\d+"/);
    expect(refused.text).toContain('1 running app is hidden; only the person can change that');
    expect(refused.text).not.toMatch(/mousepad|MACPILOT_DENY_APPS/);
    const byPath = await macpilot.call('get_element', { path: 'app("mousepad")/window[0]' });
    const absent = await macpilot.call('get_element', { path: 'app("nosuchapp")/window[0]' });
    expect(byPath.text).toBe(absent.text.replaceAll('nosuchapp', 'mousepad'));
    await start('gtk3-demo', 'Application Class');
  });
});

describe('MACPILOT_MODE=read-only', () => {
  const { macpilot } = useMacpilot({ ...env, MACPILOT_MODE: 'read-only' });

  test('tools/list lists only read-only tools, and a write tool called by name is refused naming the setting', async () => {
    const { tools } = await macpilot.client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['snapshot_ui', 'find_elements', 'list_apps']));
    expect(names).not.toContain('click_element');
    expect(tools.filter((tool) => tool.annotations?.readOnlyHint !== true)).toEqual([]);

    const refused = await macpilot.call('press_key', { key: 'enter' });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('press_key is not available in read-only mode');
    expect(refused.text).toContain('set MACPILOT_MODE=safe where macpilot is started');
    expect(await macpilot.ok('list_apps')).not.toBe('');
  });

  test('take_screenshot is listed and shows the screen; with file_path it is refused and writes nothing', async () => {
    const { tools } = await macpilot.client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('take_screenshot');

    const shot = await macpilot.client.callTool({ name: 'take_screenshot', arguments: {} });
    expect(shot.isError).toBeFalsy();
    expect((shot.content as { type: string }[]).map((part) => part.type)).toEqual(['image', 'text']);

    const folder = temporaryFolder('macpilot-read-only-');
    try {
      const target = join(folder, 'shot.png');
      const refused = await macpilot.call('take_screenshot', { file_path: target });
      expect(refused.isError).toBe(true);
      expect(refused.text).toContain('take_screenshot with file_path is not available in read-only mode');
      expect(refused.text).toContain('file_path writes the image to a new file');
      expect(existsSync(target)).toBe(false);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

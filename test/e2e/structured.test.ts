/**
 * Structured results through a real client: the SDK client checks each structuredContent against the tool's
 * outputSchema from tools/list, and a workflow would read these fields; the values match what the app holds.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { beforeAll, expect, inject, test } from 'vitest';
import { useMacpilot } from '../support/mcp.js';

const { macpilot, launch } = useMacpilot(inject('desktopEnv'));
let pid: number;

const structured = async (name: string, args: Record<string, unknown>) => {
  const result = (await macpilot.client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return result.structuredContent as Record<string, unknown>;
};

beforeAll(async () => {
  pid = await launch('mousepad');
  // The client keeps each tool's output schema from tools/list and validates every answer against it.
  const { tools } = await macpilot.client.listTools();
  expect(tools.find((t) => t.name === 'find_elements')?.outputSchema).toBeDefined();
});

test('find_elements, an action and get_element answer data their schemas accept, naming the same element', async () => {
  const found = await structured('find_elements', { app: String(pid), role: 'textbox' });
  const editor = (found.matches as { ref: string; states: string[] }[]).find((m) =>
    m.states.includes('multiline'),
  );
  expect(editor?.ref).toMatch(/^e\d+$/);

  const text = 'structured ✓';
  const set = await structured('set_value', { ref: editor?.ref, value: text });
  expect(set).toMatchObject({ watched: true, app_closed: false, target: { ref: editor?.ref } });
  expect((set.target as { app: { pid: number } }).app.pid).toBe(pid);
  expect((set.changes as { change: string }[]).length).toBeGreaterThan(0);

  const element = await structured('get_element', { ref: editor?.ref });
  expect(element).toMatchObject({ ref: editor?.ref, role: 'textbox', value: text, secure: false });
  expect(element.path).toMatch(/^app\("mousepad"\)\//);

  const apps = await structured('list_apps', {});
  expect(apps.apps).toContainEqual(expect.objectContaining({ name: 'mousepad', pid }));
  const windows = await structured('list_windows', { app: String(pid) });
  expect((windows.windows as { title: string }[])[0]?.title).toMatch(/\*Untitled/);
});

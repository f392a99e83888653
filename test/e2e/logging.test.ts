/**
 * Log messages to the client: each tool call at debug level with its duration and the helper's share, sent only
 * once the client asks for debug; audit entries at info, and nothing below the level the client set.
 */
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { expect, inject, test } from 'vitest';
import { useMacpilot } from '../support/mcp.js';

const { macpilot } = useMacpilot(inject('desktopEnv'));

test('tool calls are logged at debug level only when the client asks for it; audit entries follow the level', async () => {
  const messages: { level: string; logger?: string; data: unknown }[] = [];
  macpilot.client.setNotificationHandler(LoggingMessageNotificationSchema, ({ params }) => {
    messages.push(params);
  });
  await macpilot.ok('list_apps');
  await macpilot.ok('clear_clipboard');
  await expect.poll(() => messages.filter((m) => m.logger === 'audit').length).toBe(1);
  expect(messages.filter((m) => m.level === 'debug')).toEqual([]);

  await macpilot.client.setLoggingLevel('debug');
  await macpilot.ok('list_apps');
  await expect.poll(() => messages.filter((m) => m.logger === 'calls').length).toBe(1);
  const [logged] = messages.filter((m) => m.logger === 'calls');
  // The apps with trees, and the windows (which tell the apps without one).
  expect(logged).toMatchObject({ level: 'debug', data: { tool: 'list_apps', helper_calls: 2 } });
  const data = logged!.data as { duration_ms: number; helper_ms: number };
  expect(data.helper_ms).toBeLessThanOrEqual(data.duration_ms);

  await macpilot.client.setLoggingLevel('warning');
  const before = messages.length;
  await macpilot.ok('clear_clipboard');
  await macpilot.ok('list_apps');
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(messages.slice(before)).toEqual([]);
});

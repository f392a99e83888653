/**
 * Long tools as tasks through a real client: a task-augmented wait_for answers at once with a task, which is
 * polled to its result; another is cancelled, and its work stops (the call log shows it ended long before its
 * timeout); tasks/list shows them; tools/list says which tools take tasks.
 */
import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  LoggingMessageNotificationSchema,
  TaskStatusNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { expect, inject, test } from 'vitest';
import { useMacpilot } from '../support/mcp.js';

const { macpilot, processes } = useMacpilot(inject('desktopEnv'));

const startTask = (args: Record<string, unknown>) =>
  macpilot.client.request(
    { method: 'tools/call', params: { name: 'wait_for', arguments: args, task: { ttl: 60_000 } } },
    CreateTaskResultSchema,
  );

test('tools/list offers tasks for the long tools only', async () => {
  const { tools } = await macpilot.client.listTools();
  expect(tools.find((t) => t.name === 'wait_for')?.execution).toEqual({ taskSupport: 'optional' });
  expect(tools.find((t) => t.name === 'snapshot_ui')?.execution).toEqual({ taskSupport: 'forbidden' });
});

test('a task-augmented wait_for answers with a task at once and is polled to its result', async () => {
  const zenity = processes.start('zenity', ['--entry', '--title', 'macpilot task', '--text', 'Name?']);
  const { task } = await startTask({
    condition: 'appears',
    app: String(zenity.pid),
    role: 'button',
    name: 'OK',
    timeout_ms: 30_000,
  });
  expect(task.taskId).toBeTruthy();
  expect(['working', 'completed']).toContain(task.status);
  await expect
    .poll(async () => (await macpilot.client.experimental.tasks.getTask(task.taskId)).status, {
      timeout: 30_000,
    })
    .toBe('completed');
  const result = await macpilot.client.request(
    { method: 'tasks/result', params: { taskId: task.taskId } },
    CallToolResultSchema,
  );
  const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  expect(text).toMatch(/^Done after .*: a button named "OK" in the app with pid \d+ to appear\./);
  const { tasks } = await macpilot.client.experimental.tasks.listTasks();
  expect(tasks.map((t) => t.taskId)).toContain(task.taskId);
  await processes.stop(zenity.pid);
});

test('a plain call of a task tool announces no task: no status notifications, nothing in tasks/list', async () => {
  const announced: string[] = [];
  macpilot.client.setNotificationHandler(TaskStatusNotificationSchema, ({ params }) => {
    announced.push(`${params.taskId} ${params.status}`);
  });
  const listed = async () =>
    (await macpilot.client.experimental.tasks.listTasks()).tasks.map((t) => t.taskId);
  const before = await listed();
  const zenity = processes.start('zenity', ['--entry', '--title', 'macpilot plain', '--text', 'Name?']);
  expect(
    await macpilot.ok('wait_for', {
      condition: 'appears',
      app: String(zenity.pid),
      role: 'button',
      name: 'OK',
      timeout_ms: 30_000,
    }),
  ).toMatch(/^Done after /);
  expect(announced).toEqual([]);
  expect((await listed()).filter((id) => !before.includes(id))).toEqual([]);
  // A task the client asks for is announced.
  const { task } = await startTask({ condition: 'app_idle', app: String(zenity.pid), idle_ms: 100 });
  await expect.poll(() => announced.some((line) => line.startsWith(task.taskId))).toBe(true);
  // Its status says where it ended, with no word of its running left over.
  const done = await macpilot.client.experimental.tasks.getTask(task.taskId);
  expect(done).toMatchObject({ status: 'completed' });
  expect(done.statusMessage).toBeUndefined();
  await processes.stop(zenity.pid);
});

test('a cancelled task stops its work', async () => {
  const logged: { tool: string; duration_ms: number }[] = [];
  macpilot.client.setNotificationHandler(LoggingMessageNotificationSchema, ({ params }) => {
    if (params.logger === 'calls') logged.push(params.data as { tool: string; duration_ms: number });
  });
  await macpilot.client.setLoggingLevel('debug');
  const zenity = processes.start('zenity', ['--entry', '--title', 'macpilot cancel', '--text', 'Name?']);
  const { task } = await startTask({
    condition: 'text_appears',
    app: String(zenity.pid),
    text: 'never shown anywhere',
    timeout_ms: 60_000,
  });
  await new Promise((resolve) => setTimeout(resolve, 500));
  await macpilot.client.experimental.tasks.cancelTask(task.taskId);
  expect((await macpilot.client.experimental.tasks.getTask(task.taskId)).status).toBe('cancelled');
  await expect.poll(() => logged.filter((l) => l.tool === 'wait_for').length, { timeout: 10_000 }).toBe(1);
  expect(logged.find((l) => l.tool === 'wait_for')!.duration_ms).toBeLessThan(30_000);
  await macpilot.client.setLoggingLevel('info');
  await processes.stop(zenity.pid);
});

test('a task-augmented call with a bad argument ends as a failed task naming the argument; a plain call names it too', async () => {
  const { task } = await startTask({ condition: 'app_idle', timeout_ms: 'soon' });
  await expect
    .poll(async () => (await macpilot.client.experimental.tasks.getTask(task.taskId)).status, {
      timeout: 10_000,
    })
    .toBe('failed');
  const result = await macpilot.client.request(
    { method: 'tasks/result', params: { taskId: task.taskId } },
    CallToolResultSchema,
  );
  const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  expect(result.isError).toBe(true);
  expect(text).toContain('wait_for was not run: its arguments do not fit it');
  expect(text).toContain('timeout_ms');

  const plain = await macpilot.call('wait_for', { condition: 'app_idle', timeout_ms: 'soon' });
  expect(plain.isError).toBe(true);
  expect(plain.text).toContain('timeout_ms');
});

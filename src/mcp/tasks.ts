/**
 * Long tools as MCP tasks (tools/call with `task`): the call answers at once with a task the client polls
 * (tasks/get), reads (tasks/result) or cancels (tasks/cancel). The work is the same tool call as always, policy
 * included; it stops when the task is cancelled (the store only marks it, so the work watches for that) or, for a
 * plain call, when the client cancels the request. A plain call (no task asked for) runs to its end before
 * answering, as any tool call does.
 */
import {
  InMemoryTaskMessageQueue,
  InMemoryTaskStore,
  type CreateTaskRequestHandlerExtra,
  type ToolTaskHandler,
} from '@modelcontextprotocol/sdk/experimental/tasks';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { AnySchema } from '@modelcontextprotocol/sdk/server/zod-compat.js';

/**
 * A plain call's result is read by the SDK as soon as its work returns, before any timer can fire; it is then
 * dropped, so that tasks/list shows only the tasks the client asked for.
 */
const PLAIN_CALL_TTL_MS = 1000;
/** What tasks/get suggests as the time between polls. */
const POLL_INTERVAL_MS = 250;
/** How often running work looks whether its task was cancelled. */
const CANCEL_CHECK_MS = 100;

/** The tool call; `extra` is the request's (progress, notifications) with the signal that stops the work. */
export type ToolRun = (
  args: unknown,
  extra: CreateTaskRequestHandlerExtra & { signal: AbortSignal },
) => Promise<CallToolResult>;

/** The McpServer options that give it a task store (one per server, so one per HTTP session). */
export function taskOptions() {
  return {
    taskStore: new InMemoryTaskStore(),
    taskMessageQueue: new InMemoryTaskMessageQueue(),
  };
}

export const TASK_CAPABILITIES = { list: {}, cancel: {}, requests: { tools: { call: {} } } };

/** Frees the store's TTL timers when the server closes. */
export function releaseTasksOnClose(server: McpServer, store: InMemoryTaskStore): void {
  const previous = server.server.onclose;
  server.server.onclose = () => {
    store.cleanup();
    previous?.();
  };
}

/**
 * `server` is the server's own store: a plain call's work is kept there, where the SDK reads its result, without
 * the task status notifications the request's view of the store sends (the client asked for no task).
 */
export function toolTask(title: string, run: ToolRun, server: InMemoryTaskStore): ToolTaskHandler<AnySchema> {
  return {
    createTask: async (args, extra) => {
      const asTask = extra.taskRequestedTtl !== undefined;
      if (!asTask) return plainCall(server, extra, () => run(args, extra));
      const store = extra.taskStore;
      const task = await store.createTask({ ttl: extra.taskRequestedTtl, pollInterval: POLL_INTERVAL_MS });
      const finish = async (signal: AbortSignal) => {
        const result = await run(args, { ...extra, signal });
        // A cancelled task keeps its status: storing a result then is refused, and nothing waits for it.
        await store
          .storeTaskResult(task.taskId, result.isError ? 'failed' : 'completed', result)
          .catch(() => {});
      };
      await store.updateTaskStatus(task.taskId, 'working', `${title}: running`);
      const abort = new AbortController();
      const watch = setInterval(() => {
        void store.getTask(task.taskId).then((current) => {
          if (current?.status === 'cancelled') abort.abort();
        });
      }, CANCEL_CHECK_MS);
      void finish(abort.signal).finally(() => clearInterval(watch));
      return { task };
    },
    getTask: async (_args, extra) => {
      const task = await extra.taskStore.getTask(extra.taskId);
      if (!task) throw new Error(`no task ${extra.taskId}`);
      return task;
    },
    getTaskResult: async (_args, extra) =>
      (await extra.taskStore.getTaskResult(extra.taskId)) as CallToolResult,
  };
}

/** A plain call of a task tool: run to its end, its result stored for the SDK to read, nothing announced. */
async function plainCall(
  store: InMemoryTaskStore,
  extra: CreateTaskRequestHandlerExtra,
  work: () => Promise<CallToolResult>,
) {
  const request = { method: 'tools/call', params: {} };
  const params = { ttl: PLAIN_CALL_TTL_MS, pollInterval: POLL_INTERVAL_MS };
  // Made once the work is done: a task exists only to hand its result to the SDK.
  const result = await work();
  const task = await store.createTask(params, extra.requestId, request, extra.sessionId);
  await store.storeTaskResult(task.taskId, result.isError ? 'failed' : 'completed', result, extra.sessionId);
  return { task: (await store.getTask(task.taskId, extra.sessionId)) ?? task };
}

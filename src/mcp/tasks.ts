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

/** A finished task's result is kept this long when the client names no TTL. */
const DEFAULT_TTL_MS = 10 * 60_000;
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

export function toolTask(title: string, run: ToolRun): ToolTaskHandler<AnySchema> {
  return {
    createTask: async (args, extra) => {
      const store = extra.taskStore;
      const asTask = extra.taskRequestedTtl !== undefined;
      const task = await store.createTask({
        ttl: extra.taskRequestedTtl ?? DEFAULT_TTL_MS,
        pollInterval: POLL_INTERVAL_MS,
      });
      const finish = async (signal: AbortSignal) => {
        const result = await run(args, { ...extra, signal });
        // A cancelled task keeps its status: storing a result then is refused, and nothing waits for it.
        await store
          .storeTaskResult(task.taskId, result.isError ? 'failed' : 'completed', result)
          .catch(() => {});
      };
      if (!asTask) {
        await finish(extra.signal);
        return { task: (await store.getTask(task.taskId)) ?? task };
      }
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

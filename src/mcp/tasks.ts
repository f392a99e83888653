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
import { randomUUID } from 'node:crypto';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, Result, Task } from '@modelcontextprotocol/sdk/types.js';
import type { AnySchema } from '@modelcontextprotocol/sdk/server/zod-compat.js';

/** What tasks/get suggests as the time between polls. */
const POLL_INTERVAL_MS = 250;
/** How often running work looks whether its task was cancelled. */
const CANCEL_CHECK_MS = 100;

/** The tool call; `extra` is the request's (progress, notifications) with the signal that stops the work. */
export type ToolRun = (
  args: unknown,
  extra: CreateTaskRequestHandlerExtra & { signal: AbortSignal },
) => Promise<CallToolResult>;

/**
 * The server's tasks. The SDK answers a plain call of a task tool (no task asked for) with the result of a task
 * it reads once: such a result is held apart, never listed by tasks/list and never announced, and dropped once
 * read.
 */
export class ServerTaskStore extends InMemoryTaskStore {
  private readonly plainResults = new Map<string, Result>();

  /** A finished task for the SDK to read `result` from, once. */
  holdPlainResult(result: CallToolResult): Task {
    const taskId = `plain-${randomUUID()}`;
    const now = new Date().toISOString();
    this.plainResults.set(taskId, result);
    const status = result.isError ? 'failed' : 'completed';
    return { taskId, status, ttl: null, createdAt: now, lastUpdatedAt: now, pollInterval: POLL_INTERVAL_MS };
  }

  override async getTaskResult(taskId: string, sessionId?: string): Promise<Result> {
    const plain = this.plainResults.get(taskId);
    if (!plain) return super.getTaskResult(taskId, sessionId);
    this.plainResults.delete(taskId);
    return plain;
  }

  override cleanup(): void {
    this.plainResults.clear();
    super.cleanup();
  }
}

/** The McpServer options that give it a task store (one per server, so one per HTTP session). */
export function taskOptions() {
  return {
    taskStore: new ServerTaskStore(),
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

/** `server` is the server's own store, which holds a plain call's result apart (ServerTaskStore). */
export function toolTask(run: ToolRun, server: ServerTaskStore): ToolTaskHandler<AnySchema> {
  return {
    createTask: async (args, extra) => {
      const asTask = extra.taskRequestedTtl !== undefined;
      if (!asTask) return { task: server.holdPlainResult(await run(args, extra)) };
      const store = extra.taskStore;
      const task = await store.createTask({ ttl: extra.taskRequestedTtl, pollInterval: POLL_INTERVAL_MS });
      const finish = async (signal: AbortSignal) => {
        const result = await run(args, { ...extra, signal });
        // A cancelled task keeps its status: storing a result then is refused, and nothing waits for it.
        await store
          .storeTaskResult(task.taskId, result.isError ? 'failed' : 'completed', result)
          .catch(() => {});
      };
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

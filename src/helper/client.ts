/**
 * The server's side of the helper protocol: spawns the platform helper once, lazily, checks its version, and
 * sends typed requests with a timeout and cancellation. If the helper dies, requests in flight fail at once
 * with HelperError(HelperExited) and the next request starts a new helper after a backoff.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  CancellationTokenSource,
  ConnectionError,
  createMessageConnection,
  ErrorCodes,
  type MessageConnection,
  ResponseError,
  StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-jsonrpc/node';
import type { Logger } from '../log.js';
import {
  HelperErrorCode,
  HelperErrorData,
  type MethodName,
  methods,
  type NotificationName,
  type NotificationParams,
  notifications,
  type Params,
  PROTOCOL_VERSION,
  type Result,
} from './protocol.js';

/** Failures that happen on the server's side of the pipe. */
export const ClientErrorCode = {
  /** The helper process exited or could not be started. */
  HelperExited: -32030,
  /** The helper speaks another protocol version. */
  VersionMismatch: -32031,
  /** The MCP request was cancelled. */
  Cancelled: -32800,
  /** The helper answered with something that breaks the protocol. */
  BadResponse: -32032,
} as const;

export class HelperError extends Error {
  constructor(
    readonly method: string,
    readonly code: number,
    message: string,
    readonly data: HelperErrorData = {},
  ) {
    super(message);
    this.name = 'HelperError';
  }
}

export interface HelperCommand {
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  /** Runs before each start to put `command` in place (macOS: installs the helper app on first use). */
  prepare?: (signal?: AbortSignal) => Promise<void>;
}

export interface HelperClientOptions {
  helper: HelperCommand;
  log: Logger;
  /** Default per-request timeout. */
  requestTimeoutMs?: number;
  /** Delay before the second restart in a row; doubles each time up to maxBackoffMs. */
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  /** Name sent in the handshake. */
  clientName?: string;
}

export type Hello = Result<'system.hello'>;

interface Running {
  process: ChildProcess;
  connection: MessageConnection;
  hello: Hello;
  startedAt: number;
  /** Rejects every request in flight when the process goes away. */
  exited: Promise<never>;
}

export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

const STABLE_AFTER_MS = 10_000;
const HANDSHAKE_TIMEOUT_MS = 20_000;

export class HelperClient {
  private running: Promise<Running> | undefined;
  private consecutiveFailures = 0;
  /** Counts helper processes started, so that a late exit event cannot clear a newer helper. */
  private generation = 0;
  private closed = false;
  private readonly listeners = new Map<NotificationName, Set<(params: never) => void>>();
  private readonly readyListeners = new Set<(hello: Hello) => void>();
  private readonly timeoutMs: number;
  private readonly initialBackoffMs: number;
  private readonly maxBackoffMs: number;

  constructor(private readonly options: HelperClientOptions) {
    this.timeoutMs = options.requestTimeoutMs ?? 15_000;
    this.initialBackoffMs = options.initialBackoffMs ?? 250;
    this.maxBackoffMs = options.maxBackoffMs ?? 5_000;
  }

  /** The handshake answer, starting the helper if needed. */
  async hello(options: CallOptions = {}): Promise<Hello> {
    return (await this.ensure(options)).hello;
  }

  /** The pid of the helper process, if one is running. */
  async pid(): Promise<number | undefined> {
    return this.running ? (await this.running.catch(() => undefined))?.process.pid : undefined;
  }

  /** Listen to a helper notification, across helper restarts. Returns a function that stops listening. */
  onNotification<N extends NotificationName>(
    name: N,
    listener: (params: NotificationParams<N>) => void,
  ): () => void {
    const set = this.listeners.get(name) ?? new Set();
    this.listeners.set(name, set);
    set.add(listener as (params: never) => void);
    return () => set.delete(listener as (params: never) => void);
  }

  /** Called after each successful handshake, e.g. to renew subscriptions on a restarted helper. */
  onReady(listener: (hello: Hello) => void): () => void {
    this.readyListeners.add(listener);
    return () => this.readyListeners.delete(listener);
  }

  async call<M extends MethodName>(
    method: M,
    params: Params<M>,
    options: CallOptions = {},
  ): Promise<Result<M>> {
    const running = await this.ensure(options);
    return this.request(running, method, params, options);
  }

  async close(): Promise<void> {
    this.closed = true;
    const running = await this.running?.catch(() => undefined);
    this.running = undefined;
    if (!running) return;
    running.connection.dispose();
    running.process.stdin?.end();
    const gone = new Promise<void>((resolve) => running.process.once('exit', () => resolve()));
    if (running.process.exitCode === null && running.process.signalCode === null) {
      const timer = setTimeout(() => running.process.kill('SIGKILL'), 2000);
      await gone;
      clearTimeout(timer);
    }
  }

  private ensure(options: CallOptions): Promise<Running> {
    if (this.closed) {
      return Promise.reject(new HelperError('', ClientErrorCode.HelperExited, 'the helper client is closed'));
    }
    if (!this.running) {
      const starting = this.start(options);
      this.running = starting;
      starting.catch(() => {
        if (this.running === starting) this.running = undefined;
      });
    }
    return this.running;
  }

  private async start(options: CallOptions): Promise<Running> {
    if (this.consecutiveFailures > 0) {
      const delay = Math.min(this.initialBackoffMs * 2 ** (this.consecutiveFailures - 1), this.maxBackoffMs);
      this.options.log.info(`restarting the helper in ${delay} ms`);
      await sleep(delay, undefined, { signal: options.signal }).catch(() => {
        throw new HelperError('', ClientErrorCode.Cancelled, 'the request was cancelled');
      });
    }
    const { command, args, env, prepare } = this.options.helper;
    await prepare?.(options.signal);
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'], env: env ?? process.env });
    const generation = ++this.generation;
    const { log } = this.options;

    let onExit: (error: HelperError) => void = () => {};
    const exited = new Promise<never>((_, reject) => {
      onExit = reject;
    });
    exited.catch(() => {});
    let spawnError: Error | undefined;
    child.once('error', (error) => {
      spawnError = error;
      this.consecutiveFailures++;
      if (this.generation === generation) this.running = undefined;
      onExit(
        new HelperError(
          '',
          ClientErrorCode.HelperExited,
          `could not start the helper (${command}): ${error.message}`,
        ),
      );
    });
    child.once('exit', (code, signal) => {
      if (spawnError) return;
      const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      if (!this.closed) log.warn(`the helper (pid ${child.pid}) ${how}`);
      const lived = Date.now() - startedAt;
      this.consecutiveFailures = lived > STABLE_AFTER_MS ? 1 : this.consecutiveFailures + 1;
      if (this.generation === generation) this.running = undefined;
      connection.dispose();
      onExit(new HelperError('', ClientErrorCode.HelperExited, `the helper ${how}`));
    });
    if (child.stderr) {
      createInterface({ input: child.stderr }).on('line', (line) => log.info(`helper: ${line}`));
    }

    const connection = createMessageConnection(
      new StreamMessageReader(child.stdout as NodeJS.ReadableStream),
      new StreamMessageWriter(child.stdin as NodeJS.WritableStream),
    );
    connection.onError(([error]) => log.debug(`helper connection: ${error.message}`));
    for (const name of Object.keys(notifications) as NotificationName[]) {
      connection.onNotification(name, (raw: unknown) => {
        const parsed = notifications[name].params.safeParse(raw);
        if (!parsed.success) return log.warn(`the helper's ${name} notification breaks the protocol`);
        for (const listener of this.listeners.get(name) ?? []) listener(parsed.data as never);
      });
    }
    connection.listen();
    const startedAt = Date.now();

    const partial = { process: child, connection, startedAt, exited } as Omit<Running, 'hello'>;
    const hello = await this.request(
      partial as Running,
      'system.hello',
      { protocolVersion: PROTOCOL_VERSION, client: this.options.clientName ?? 'macpilot' },
      // Starting a process can take seconds on a loaded machine: the handshake has its own, longer limit.
      { signal: options.signal, timeoutMs: HANDSHAKE_TIMEOUT_MS },
    ).catch((error: unknown) => {
      child.kill('SIGKILL');
      throw error;
    });
    if (hello.protocolVersion !== PROTOCOL_VERSION) {
      child.kill('SIGKILL');
      throw new HelperError(
        'system.hello',
        ClientErrorCode.VersionMismatch,
        `the helper speaks protocol version ${hello.protocolVersion}, this server needs ${PROTOCOL_VERSION}; ` +
          'reinstall macpilot so that the server and its helper come from the same release',
      );
    }
    log.debug(`helper ${hello.helperVersion} (pid ${child.pid}) ready on ${hello.platform}`);
    for (const listener of this.readyListeners) listener(hello);
    return { ...partial, hello };
  }

  private async request<M extends MethodName>(
    running: Running,
    method: M,
    params: Params<M>,
    options: CallOptions,
  ): Promise<Result<M>> {
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    const cancel = new CancellationTokenSource();
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const exited = running.exited.catch((error: HelperError) => {
      throw new HelperError(method, error.code, `${method} failed: ${error.message}`);
    });
    const stopped = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        cancel.cancel();
        reject(
          new HelperError(
            method,
            HelperErrorCode.Timeout,
            `the helper did not answer ${method} within ${timeoutMs} ms`,
          ),
        );
      }, timeoutMs);
      onAbort = () => {
        cancel.cancel();
        reject(new HelperError(method, ClientErrorCode.Cancelled, `${method} was cancelled`));
      };
      if (options.signal?.aborted) onAbort();
      else options.signal?.addEventListener('abort', onAbort, { once: true });
    });
    stopped.catch(() => {});
    try {
      const raw = await Promise.race([
        running.connection.sendRequest(method, params, cancel.token),
        stopped,
        exited,
      ]);
      const parsed = methods[method].result.safeParse(raw);
      if (!parsed.success) {
        throw new HelperError(
          method,
          ClientErrorCode.BadResponse,
          `the helper's answer to ${method} breaks the protocol: ${parsed.error.message}`,
        );
      }
      if (Date.now() - running.startedAt > STABLE_AFTER_MS) this.consecutiveFailures = 0;
      return parsed.data as Result<M>;
    } catch (error) {
      if (
        error instanceof ConnectionError ||
        (error instanceof ResponseError &&
          (error.code === ErrorCodes.PendingResponseRejected ||
            error.code === ErrorCodes.ConnectionInactive)) ||
        // The request was written to a helper that had just died.
        ['EPIPE', 'ERR_STREAM_DESTROYED'].includes((error as NodeJS.ErrnoException).code ?? '')
      ) {
        // The pipe closed before the exit event: report the exit, which says how the helper ended.
        await Promise.race([exited, sleep(1000)]);
        throw new HelperError(
          method,
          ClientErrorCode.HelperExited,
          `${method} failed: the helper closed its pipes`,
        );
      }
      if (error instanceof ResponseError) {
        const data = HelperErrorData.safeParse(error.data);
        throw new HelperError(method, error.code, error.message, data.success ? data.data : {});
      }
      throw error;
    } finally {
      clearTimeout(timer);
      if (onAbort) options.signal?.removeEventListener('abort', onAbort);
      cancel.dispose();
    }
  }
}

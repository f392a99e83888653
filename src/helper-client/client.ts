/**
 * The server's side of the helper protocol, process supervision: spawns the platform helper once, lazily,
 * checks its version, hands requests to its connection (rpc.ts), and restarts it after a backoff when it dies.
 * Requests in flight then fail at once with HelperError(HelperExited).
 */
import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import type { Logger } from '../log.js';
import { type CallOptions, ClientErrorCode, HelperError } from './errors.js';
import {
  EXIT_CONNECTION_LOST,
  type MethodName,
  type NotificationName,
  type NotificationParams,
  type Params,
  PROTOCOL_VERSION,
  type Result,
} from './protocol.js';
import { HelperRpc } from './rpc.js';
import { type HelperCommand, spawnHelper, type StartedHelper } from './spawn.js';

export type { HelperCommand } from './spawn.js';

export interface HelperClientOptions {
  helper: HelperCommand;
  /** A helper started ahead of the first request with this command: the first start takes it over. */
  started?: StartedHelper['process'];
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
  rpc: HelperRpc;
  hello: Hello;
  startedAt: number;
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
  private started: ChildProcess | undefined;

  constructor(private readonly options: HelperClientOptions) {
    this.timeoutMs = options.requestTimeoutMs ?? 15_000;
    this.initialBackoffMs = options.initialBackoffMs ?? 250;
    this.maxBackoffMs = options.maxBackoffMs ?? 5_000;
    this.started = options.started;
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
    const result = await running.rpc.request(method, params, options);
    if (Date.now() - running.startedAt > STABLE_AFTER_MS) this.consecutiveFailures = 0;
    return result;
  }

  async close(): Promise<void> {
    this.closed = true;
    const running = await this.running?.catch(() => undefined);
    this.running = undefined;
    running?.rpc.dispose();
    const child = running?.process ?? this.takeStarted();
    if (!child) return;
    child.stdin?.end();
    const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    if (child.exitCode === null && child.signalCode === null) {
      const timer = setTimeout(() => killGroup(child), 2000);
      await gone;
      clearTimeout(timer);
    }
  }

  /** The helper started ahead of the client, once, if it still runs. */
  private takeStarted(): ChildProcess | undefined {
    const child = this.started;
    this.started = undefined;
    const runs = child?.pid !== undefined && child.exitCode === null && child.signalCode === null;
    return runs ? child : undefined;
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
    const { command, prepare } = this.options.helper;
    let child = this.takeStarted();
    if (!child) {
      await prepare?.(options.signal);
      child = spawnHelper(this.options.helper);
    }
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
      const how = signal
        ? `was killed by ${signal}`
        : code === EXIT_CONNECTION_LOST
          ? 'lost its connection to the desktop (the X display or the accessibility bus) and exited'
          : `exited with code ${code}`;
      if (!this.closed) log.warn(`the helper (pid ${child.pid}) ${how}; the next call starts a fresh one`);
      const lived = Date.now() - startedAt;
      this.consecutiveFailures = lived > STABLE_AFTER_MS ? 1 : this.consecutiveFailures + 1;
      if (this.generation === generation) this.running = undefined;
      rpc.dispose();
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
    const rpc = new HelperRpc(connection, exited, this.timeoutMs);
    rpc.listen(
      (name, params) => {
        for (const listener of this.listeners.get(name) ?? []) listener(params as never);
      },
      (name) => log.warn(`the helper's ${name} notification breaks the protocol`),
    );
    const startedAt = Date.now();

    const hello = await rpc
      .request(
        'system.hello',
        { protocolVersion: PROTOCOL_VERSION, client: this.options.clientName ?? 'macpilot' },
        // Starting a process can take seconds on a loaded machine: the handshake has its own, longer limit.
        { signal: options.signal, timeoutMs: HANDSHAKE_TIMEOUT_MS },
      )
      .catch((error: unknown) => {
        killGroup(child);
        if (error instanceof HelperError) throw error;
        // A write to a helper that is gone (EPIPE) or a process that could not start: it never answered.
        throw new HelperError(
          'system.hello',
          ClientErrorCode.HelperExited,
          `the helper stopped before its handshake (${error instanceof Error ? error.message : String(error)}): it may not be macpilot's helper`,
        );
      });
    if (hello.protocolVersion !== PROTOCOL_VERSION) {
      killGroup(child);
      throw new HelperError(
        'system.hello',
        ClientErrorCode.VersionMismatch,
        `the helper speaks protocol version ${hello.protocolVersion}, this server needs ${PROTOCOL_VERSION}; ` +
          'reinstall macpilot so that the server and its helper come from the same release',
      );
    }
    log.debug(`helper ${hello.helperVersion} (pid ${child.pid}) ready on ${hello.platform}`);
    for (const listener of this.readyListeners) listener(hello);
    return { process: child, rpc, startedAt, hello };
  }
}

/** Kills the helper and every process of its group; its pid leads the group it was started in. */
function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

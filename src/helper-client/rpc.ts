/**
 * Typed requests to one running helper over its JSON-RPC connection: a timeout and cancellation for each, the
 * answer checked against protocol.ts, and every way the pipe can break turned into a HelperError.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import {
  CancellationTokenSource,
  ConnectionError,
  ErrorCodes,
  type MessageConnection,
  ResponseError,
} from 'vscode-jsonrpc/node';
import { type CallOptions, ClientErrorCode, HelperError } from './errors.js';

/** How long a cancelled request waits for the helper's answer to the cancel before it is given up. */
const CANCEL_ANSWER_MS = 250;
import {
  HelperErrorCode,
  HelperErrorData,
  type MethodName,
  methods,
  type NotificationName,
  type NotificationParams,
  notifications,
  type Params,
  type Result,
} from './protocol.js';

export class HelperRpc {
  /**
   * Requests waiting for their answer, failed at once when the helper ends. A promise of their own chained on
   * `exited` would be kept by it, with the answer it settles with, for the helper's whole life.
   */
  private readonly waiting = new Set<(error: HelperError) => void>();
  private ended: HelperError | undefined;

  constructor(
    private readonly connection: MessageConnection,
    /** Rejects, with how the helper ended, when its process goes away. */
    exited: Promise<never>,
    private readonly defaultTimeoutMs: number,
  ) {
    exited.catch((error: HelperError) => {
      this.ended = error;
      for (const fail of this.waiting) fail(error);
      this.waiting.clear();
    });
  }

  /** Hands each notification that matches its schema to `deliver`; `invalid` hears of the others. */
  listen(
    deliver: <N extends NotificationName>(name: N, params: NotificationParams<N>) => void,
    invalid: (name: NotificationName) => void,
  ): void {
    for (const name of Object.keys(notifications) as NotificationName[]) {
      this.connection.onNotification(name, (raw: unknown) => {
        const parsed = notifications[name].params.safeParse(raw);
        if (parsed.success) deliver(name, parsed.data as NotificationParams<typeof name>);
        else invalid(name);
      });
    }
    this.connection.listen();
  }

  async request<M extends MethodName>(
    method: M,
    params: Params<M>,
    options: CallOptions = {},
  ): Promise<Result<M>> {
    const timeoutMs = options.timeoutMs ?? this.defaultTimeoutMs;
    const cancel = new CancellationTokenSource();
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    let onExit: ((error: HelperError) => void) | undefined;
    const exited = new Promise<never>((_, reject) => {
      onExit = (error) => reject(new HelperError(method, error.code, `${method} failed: ${error.message}`));
      if (this.ended) onExit(this.ended);
      else this.waiting.add(onExit);
    });
    exited.catch(() => {});
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
      // The helper's own answer to the cancel says how far the work got (input.type: the characters typed); one
      // that does not come soon is not waited for.
      onAbort = () => {
        cancel.cancel();
        setTimeout(
          () => reject(new HelperError(method, ClientErrorCode.Cancelled, `${method} was cancelled`)),
          CANCEL_ANSWER_MS,
        ).unref();
      };
      if (options.signal?.aborted) onAbort();
      else options.signal?.addEventListener('abort', onAbort, { once: true });
    });
    stopped.catch(() => {});
    try {
      const raw = await Promise.race([
        this.connection.sendRequest(method, params, cancel.token),
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
      return parsed.data as Result<M>;
    } catch (error) {
      if (
        error instanceof ConnectionError ||
        (error instanceof ResponseError &&
          (error.code === ErrorCodes.PendingResponseRejected ||
            error.code === ErrorCodes.ConnectionInactive ||
            error.code === ErrorCodes.MessageWriteError)) ||
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
      if (onExit) this.waiting.delete(onExit);
      clearTimeout(timer);
      if (onAbort) options.signal?.removeEventListener('abort', onAbort);
      cancel.dispose();
    }
  }

  dispose(): void {
    this.connection.dispose();
  }
}

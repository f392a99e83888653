/** What the engine needs of a helper, and what front ends may read of it. HelperClient satisfies both; tests pass fakes. */
import type { CallOptions } from '../../helper-client/errors.js';
import type {
  MethodName,
  NotificationName,
  NotificationParams,
  Params,
  Result,
} from '../../helper-client/protocol.js';

export interface HelperPort {
  call<M extends MethodName>(method: M, params: Params<M>, options?: CallOptions): Promise<Result<M>>;
  /** Listen to a helper notification across helper restarts; absent when the port sends none. */
  onNotification?<N extends NotificationName>(
    name: N,
    listener: (params: NotificationParams<N>) => void,
  ): () => void;
  /** Called after each handshake with a (re)started helper: subscriptions are renewed here. */
  onReady?(listener: () => void): () => void;
}

/**
 * What a front end reads of the helper beside the engine (session_info, the status resource): its handshake and
 * its process. Tools get this, never the client itself: every call they make goes through the engine and its
 * app gate.
 */
export interface HelperStatus {
  hello(options?: CallOptions): Promise<Result<'system.hello'>>;
  /** The helper process's id; undefined while none runs. */
  pid(): Promise<number | undefined>;
}

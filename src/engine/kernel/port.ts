/** What the engine needs of a helper: typed calls. HelperClient satisfies it; tests pass a fake. */
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

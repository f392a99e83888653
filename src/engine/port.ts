/** What the engine needs of a helper: typed calls. HelperClient satisfies it; tests pass a fake. */
import type { CallOptions } from '../helper/client.js';
import type { MethodName, Params, Result } from '../helper/protocol.js';

export type { CallOptions };

export interface HelperPort {
  call<M extends MethodName>(method: M, params: Params<M>, options?: CallOptions): Promise<Result<M>>;
}

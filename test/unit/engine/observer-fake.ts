/** A FakeHelper that also speaks observe.start / observe.changed, with helper restarts on demand. */
import { HelperError } from '../../../src/helper-client/errors.js';
import {
  HelperErrorCode,
  type MethodName,
  type NotificationName,
  type NotificationParams,
  type Params,
  type Result,
} from '../../../src/helper-client/protocol.js';
import { type FakeApp, FakeHelper } from './fake-helper.js';

type Listener = (params: NotificationParams<'observe.changed'>) => void;

export class EventedHelper extends FakeHelper {
  /** How many times observe.start was called. */
  starts = 0;
  /** Make observe.start fail as a helper without events would. */
  eventsUnavailable = false;
  private readonly changeListeners = new Set<Listener>();
  private readonly readyListeners = new Set<() => void>();

  constructor(apps: FakeApp[]) {
    super(apps);
  }

  override async call<M extends MethodName>(method: M, params: Params<M>): Promise<Result<M>> {
    if (method !== 'observe.start') return super.call(method, params);
    this.starts++;
    if (this.eventsUnavailable) {
      throw new HelperError(method, HelperErrorCode.NotAvailable, 'no events here');
    }
    return {} as Result<M>;
  }

  onNotification<N extends NotificationName>(
    _name: N,
    listener: (params: NotificationParams<N>) => void,
  ): () => void {
    this.changeListeners.add(listener as Listener);
    return () => this.changeListeners.delete(listener as Listener);
  }

  onReady(listener: () => void): () => void {
    this.readyListeners.add(listener);
    return () => this.readyListeners.delete(listener);
  }

  /** The app with this pid changed; `elements`: the handles the events were about, each with its kinds. */
  emit(
    pid: number,
    kinds: string[] = ['object:children-changed:add'],
    elements?: { id: string; kinds: string[] }[],
  ): void {
    const params = { pid, kinds, count: kinds.length, ...(elements ? { elements } : {}) };
    for (const listener of this.changeListeners) listener(params);
  }

  /** The element `id` of the app `pid` changed, with events of these kinds. */
  touch(pid: number, id: string, kinds: string[]): void {
    this.emit(pid, kinds, [{ id, kinds }]);
  }

  /** A new helper process finished its handshake. */
  restart(): void {
    for (const listener of this.readyListeners) listener();
  }
}

/** A promise's state, readable without waiting for it (for tests that drive fake timers). */
export function track<T>(promise: Promise<T>) {
  const state: { settled: boolean; value?: T; error?: unknown } = { settled: false };
  promise.then(
    (value) => Object.assign(state, { settled: true, value }),
    (error: unknown) => Object.assign(state, { settled: true, error }),
  );
  return state;
}

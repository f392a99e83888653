/**
 * Apps that stopped answering. Once a call to an app has gone unanswered for the whole call limit, every later
 * call to it fails at once, saying so, instead of each waiting out the limit again: an agent's calls to other
 * apps, and listings that ask every app, stay fast meanwhile. The helper itself asks the app again after a
 * back-off (doubling while it stays silent), and its first answer, an error reply too, ends the fail-fast.
 */
import { HelperErrorCode } from '../../../helper-client/protocol.js';
import { HelperFailure } from '../errors.js';

export const FIRST_BACKOFF_MS = 2000;
export const MAX_BACKOFF_MS = 30_000;

interface Silent {
  /** When its first call went unanswered. */
  since: number;
  backoffMs: number;
  /** The helper's question to it is out. */
  asking: boolean;
  timer: NodeJS.Timeout | undefined;
}

/** Whether an error is a call's own time limit running out (the app never answered). */
export type IsTimeout = (error: unknown) => boolean;

export class Unanswering {
  private readonly silent = new Map<string, Silent>();

  constructor(
    /** Asks `destination` something cheap, with the full call limit. */
    private readonly probe: (destination: string) => Promise<unknown>,
    private readonly isTimeout: IsTimeout,
    /** The call limit, for the error's words. */
    private readonly limitMs: number,
    /** An app as a person knows it, from its bus name. */
    private readonly nameApp: (destination: string) => string | undefined = () => undefined,
  ) {}

  /**
   * Refuses a call to an app that is not answering, at once; the helper asks it again now unless a question is
   * out already.
   */
  check(destination: string): void {
    const app = this.silent.get(destination);
    if (!app) return;
    if (!app.asking) this.ask(destination, app);
    const seconds = Math.floor((Date.now() - app.since) / 1000);
    const quiet = seconds < 1 ? 'just now' : `${seconds} s ago`;
    throw new HelperFailure(
      HelperErrorCode.Timeout,
      `${this.nameApp(destination) ?? `the app at ${destination} on the accessibility bus`} is busy: it left a call unanswered for ${this.limitMs / 1000} s (${quiet}), and the helper is waiting for it to answer again`,
      'it may be working, hung, or stopped (by a signal or a debugger); calls to it work again as soon as it answers',
    );
  }

  /** A call to `destination` ran out its whole limit: later calls fail fast until it answers. */
  timedOut(destination: string): void {
    if (this.silent.has(destination)) return;
    const app: Silent = {
      since: Date.now(),
      backoffMs: FIRST_BACKOFF_MS,
      asking: false,
      timer: undefined,
    };
    this.silent.set(destination, app);
    this.schedule(destination, app);
  }

  /** Stops every pending probe (the connection is closing). */
  close(): void {
    for (const app of this.silent.values()) clearTimeout(app.timer);
    this.silent.clear();
  }

  private schedule(destination: string, app: Silent): void {
    app.timer = setTimeout(() => this.ask(destination, app), app.backoffMs);
    app.timer.unref();
  }

  private ask(destination: string, app: Silent): void {
    clearTimeout(app.timer);
    app.timer = undefined;
    app.asking = true;
    this.probe(destination).then(
      () => this.answered(destination, app),
      (error: unknown) => {
        app.asking = false;
        if (!this.isTimeout(error)) return this.answered(destination, app);
        if (this.silent.get(destination) !== app) return;
        app.backoffMs = Math.min(app.backoffMs * 2, MAX_BACKOFF_MS);
        this.schedule(destination, app);
      },
    );
  }

  private answered(destination: string, app: Silent): void {
    if (this.silent.get(destination) === app) this.silent.delete(destination);
  }
}

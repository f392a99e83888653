/**
 * Events for the clipboard's own window, kept in arrival order so that a waiter never misses one that came in
 * before it started waiting (a reply and the event after it can arrive in one read from the socket).
 */
import type * as x11 from 'x11';
import { HelperErrorCode } from '../../../../helper-client/protocol.js';
import { HelperFailure } from '../../errors.js';

interface Waiter {
  test: (event: x11.SelectionEvent) => boolean;
  resolve: (event: x11.SelectionEvent) => void;
}

export class Inbox {
  private events: x11.SelectionEvent[] = [];
  private waiter: Waiter | undefined;

  push(event: x11.SelectionEvent): void {
    if (this.waiter?.test(event)) {
      // Whatever came in while waiting came before this event: drop it, as next() does.
      this.events = [];
      this.waiter.resolve(event);
      this.waiter = undefined;
    } else this.events.push(event);
  }

  /** Forget what came before an exchange starts. */
  clear(): void {
    this.events = [];
  }

  /** The first event that passes `test`, dropping the ones before it; fails after timeoutMs. */
  next<E extends x11.SelectionEvent>(
    test: (event: x11.SelectionEvent) => event is E,
    timeoutMs: number,
    what: string,
  ): Promise<E> {
    const index = this.events.findIndex(test);
    if (index >= 0) {
      const found = this.events[index] as E;
      this.events = this.events.slice(index + 1);
      return Promise.resolve(found);
    }
    this.events = [];
    return new Promise<E>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiter = undefined;
        reject(
          new HelperFailure(
            HelperErrorCode.Timeout,
            `the clipboard's owner did not ${what} within ${timeoutMs / 1000} s`,
            'the app that copied may be busy or gone; copy again and retry',
          ),
        );
      }, timeoutMs);
      this.waiter = {
        test,
        resolve: (event) => {
          clearTimeout(timer);
          resolve(event as E);
        },
      };
    });
  }
}

/**
 * The person asked for consent where they are: through the session's own way (the client's elicitation, the CLI's
 * terminal) and, while a page of a console is open, in the console too. The first answer wins and withdraws the other
 * question; a console question no one answers denies.
 */
import type { ConsentAnswer, Human } from './pipeline.js';
import type { CallFeed } from './watch.js';

export function watchedHuman(human: Human, feed: CallFeed, session: () => string): Human {
  return {
    unreachable: (ask) => (ask !== 'choose' && feed.attended() ? undefined : human.unreachable(ask)),
    choose: (ask, signal) => human.choose(ask, signal),
    confirm: async (ask, signal) => {
      if (!feed.attended()) return human.confirm(ask, signal);
      const first = new AbortController();
      const both = AbortSignal.any([signal, first.signal]);
      const question = {
        session: session(),
        action: ask.action,
        detail: ask.detail,
        tool: ask.tool,
        undoable: ask.undoable === true,
      };
      const asked: Promise<ConsentAnswer>[] = [feed.ask(question, both)];
      if (human.unreachable('confirm') === undefined) {
        // A question the client cannot finish once the console answered is withdrawn: its failure is no answer.
        asked.push(
          human
            .confirm(ask, both)
            .catch((error: unknown) => (both.aborted ? never() : Promise.reject(error))),
        );
      }
      try {
        return await Promise.race(asked);
      } finally {
        first.abort();
      }
    },
  };
}

const never = <T>(): Promise<T> => new Promise<T>(() => {});

import { describe, expect, test, vi } from 'vitest';
import { RefTable } from '../../../src/engine/kernel/refs.js';
import { MacpilotError } from '../../../src/errors.js';
import { createLogger } from '../../../src/log.js';
import { AuditLog } from '../../../src/policy/audit-log.js';
import type { Human, ToolCall } from '../../../src/policy/pipeline.js';
import { Policy } from '../../../src/policy/pipeline.js';
import { ABANDONED_MS, CallFeed, type WatchEvent } from '../../../src/policy/watch.js';
import { watchedHuman } from '../../../src/policy/watched-human.js';
import { READ_ONLY, WRITE } from '../../../src/tools/types.js';

const SECRET = 'hunter2';
const PICTURE = { data: 'AAAA', width: 4, height: 3 };

function setup(pictures = true) {
  const audit = new AuditLog({ refs: new RefTable(), mode: 'full', log: createLogger('silent') });
  let taken = 0;
  const feed = new CallFeed({
    describe: (call, outcome) => audit.entry(call, outcome),
    thumbnail: async () => {
      taken++;
      return PICTURE;
    },
    pictures,
  });
  const events: WatchEvent[] = [];
  const call = (name: string, args: Record<string, unknown>, annotations = WRITE): ToolCall =>
    ({
      tool: { name, toolset: 'input', annotations },
      args,
      session: 'agent #1',
      clientLog: { send: () => {} },
      signal: new AbortController().signal,
    }) as unknown as ToolCall;
  return { feed, events, call, taken: () => taken, policy: new Policy([feed]) };
}

const settledEvents = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('CallFeed', () => {
  test('unwatched, it takes no pictures and says nothing', async () => {
    const { feed, call, taken, policy } = setup();
    await policy.run(
      call('type_text', { text: SECRET }),
      async () => 'typed',
      () => false,
    );
    expect(taken()).toBe(0);
    expect(feed.watched()).toBe(false);
  });

  test("watched, a call starts and ends by the audit log's rules: no typed text, with what changed and where", async () => {
    const { feed, events, call, policy } = setup();
    const stop = feed.watch((event) => events.push(event));
    await policy.run(
      call('type_text', { text: SECRET }),
      async () => 'typed',
      () => false,
      () => ({ app: 'mousepad', label: 'textbox "Body"' }),
      () => ({ changes: ['~ textbox "Body" changed'], bounds: { x: 1, y: 2, width: 3, height: 4 } }),
    );
    await settledEvents();
    // The end is told at once; the pictures follow when taken.
    expect(events.map((e) => e.type)).toEqual(['started', 'ended', 'pictured']);
    const ended = events[1] as Extract<WatchEvent, { type: 'ended' }>;
    expect(ended).toMatchObject({
      session: 'agent #1',
      tool: 'type_text',
      app: 'mousepad',
      target: { role: 'textbox' },
      outcome: 'ok',
      changes: ['~ textbox "Body" changed'],
      bounds: { x: 1, y: 2, width: 3, height: 4 },
    });
    expect(ended.call).toBe((events[0] as Extract<WatchEvent, { type: 'started' }>).call);
    expect(events[2]).toEqual({ type: 'pictured', call: ended.call, before: PICTURE, after: PICTURE });
    expect(JSON.stringify(events)).not.toContain('hunter');
    stop();
    expect(feed.watched()).toBe(false);
  });

  test('actions in quick succession are pictured once each: the picture after one stands for the next one before', async () => {
    const { feed, call, taken, policy } = setup();
    feed.watch(() => {});
    for (let i = 0; i < 3; i++)
      await policy.run(
        call('click', {}),
        async () => 'clicked',
        () => false,
      );
    await settledEvents();
    expect(taken()).toBe(4);
  });

  test('a refused call did nothing: its end is told, with no pictures', async () => {
    const { feed, events, call, policy } = setup();
    feed.watch((event) => events.push(event));
    const refuse = new MacpilotError({ what: 'Not done', why: 'off limits', next: 'ask', refusal: true });
    await policy
      .run(
        call('click', {}),
        () => Promise.reject(refuse),
        () => false,
      )
      .catch(() => {});
    await settledEvents();
    expect(events.map((e) => e.type)).toEqual(['started', 'ended']);
    expect(events[1]).toMatchObject({ outcome: 'refused' });
  });

  test('reads are not pictured, nor actions where pictures are off (read-only mode)', async () => {
    for (const [pictures, annotations] of [
      [true, READ_ONLY],
      [false, WRITE],
    ] as const) {
      const { feed, events, call, taken, policy } = setup(pictures);
      feed.watch((event) => events.push(event));
      await policy.run(
        call('tool', {}, annotations),
        async () => 'done',
        () => false,
      );
      await settledEvents();
      expect(taken()).toBe(0);
      expect(events.at(-1)).not.toHaveProperty('before');
    }
  });

  test('a recording is shown as it goes, typed text and keys as their lengths, and a console that connects sees it', () => {
    const { feed, events } = setup(false);
    feed.watch((event) => events.push(event));
    feed.recorded({
      app: 'mousepad',
      steps: [
        { tool: 'click_element', args: { path: 'app("mousepad")/window/textbox' } },
        { tool: 'type_text', args: { text: SECRET } },
        { tool: 'press_key', args: { key: 'a', modifiers: ['control'] } },
      ],
    });
    const [shown] = feed.current();
    expect(shown).toEqual(events.at(-1));
    expect(shown).toMatchObject({
      type: 'recording',
      running: true,
      app: 'mousepad',
      steps: [
        { tool: 'click_element', args: { path: 'app("mousepad")/window/textbox' } },
        { tool: 'type_text', args: { text_length: 7 } },
        { tool: 'press_key', args: { key_length: 1, modifiers: ['control'] } },
      ],
    });
    expect(JSON.stringify(events)).not.toContain('hunter');
    feed.recorded(undefined);
    expect(events.at(-1)).toMatchObject({ type: 'recording', running: false, steps: [] });
    expect(feed.current()).toEqual([]);
  });

  test('a watcher that throws does not keep the others, or the call, from going on', async () => {
    const { feed, events, call, policy } = setup(false);
    feed.watch(() => {
      throw new Error('a socket gone');
    });
    feed.watch((event) => events.push(event));
    await expect(
      policy.run(
        call('click', {}),
        async () => 'clicked',
        () => false,
      ),
    ).resolves.toBe('clicked');
    expect(events.map((e) => e.type)).toEqual(['started', 'ended']);
  });
});

describe('consent in the console', () => {
  const signal = () => new AbortController().signal;
  const ask = { session: 'agent #1', action: 'quit an app (zenity)', tool: 'quit_app', undoable: false };

  test('allowed once, it asks again; allowed for the session, it does not; denied, it declines', async () => {
    const { feed, events } = setup(false);
    feed.watch((event) => {
      events.push(event);
      if (event.type === 'consent') feed.answer(event.id, answers.shift() ?? 'deny');
    });
    const answers: ('once' | 'session' | 'deny')[] = ['once', 'session'];
    expect(await feed.ask(ask, signal())).toBe('accept');
    expect(await feed.ask(ask, signal())).toBe('accept');
    expect(await feed.ask(ask, signal())).toBe('accept'); // allowed for the session: no question
    expect(events.filter((e) => e.type === 'consent')).toHaveLength(2);
    expect(await feed.ask({ ...ask, session: 'agent #2' }, signal())).toBe('decline');
    expect(events.filter((e) => e.type === 'answered').map((e) => [e.answer, e.forSession ?? false])).toEqual(
      [
        ['allow', false],
        ['allow', true],
        ['deny', false],
      ],
    );
  });

  test('a question no one answers is denied when its time is up, and an answer after it finds it closed', async () => {
    const { feed, events } = setup(false);
    feed.watch((event) => events.push(event));
    expect(await feed.ask(ask, signal(), 20)).toBe('unanswered');
    const question = events.find((e) => e.type === 'consent') as Extract<WatchEvent, { type: 'consent' }>;
    expect(events.at(-1)).toEqual({ type: 'answered', id: question.id, answer: 'expired' });
    expect(feed.answer(question.id, 'once')).toBe(false);
    expect(feed.current()).toEqual([]);
  });

  test('a console that connects while a question waits sees it', async () => {
    const { feed } = setup(false);
    feed.watch(() => {});
    const asked = feed.ask(ask, signal());
    const [open] = feed.current();
    expect(open).toMatchObject({ type: 'consent', action: ask.action });
    feed.answer(open?.type === 'consent' ? open.id : '', 'once');
    await expect(asked).resolves.toBe('accept');
  });

  test("the first answer wins: the client's answer withdraws the console's question", async () => {
    const { feed, events } = setup(false);
    const watcher = (event: WatchEvent) => events.push(event);
    feed.watch(watcher);
    feed.seen(watcher, 1);
    const client: Human = {
      unreachable: () => undefined,
      confirm: async () => 'decline',
      choose: async () => ({ action: 'cancel' }),
    };
    const human = watchedHuman(client, feed, () => 'agent #1');
    expect(await human.confirm({ action: 'quit', tool: 'quit_app' }, signal())).toBe('decline');
    await settledEvents();
    expect(events.at(-1)).toMatchObject({ type: 'answered', answer: 'withdrawn' });
    expect(feed.current()).toEqual([]);
  });

  test('a client that cannot ask is reachable through a watching console, and only then', async () => {
    const { feed } = setup(false);
    const client: Human = {
      unreachable: () => 'no elicitation',
      confirm: async () => 'cancel',
      choose: async () => ({ action: 'cancel' }),
    };
    const human = watchedHuman(client, feed, () => 'agent #1');
    expect(human.unreachable('confirm')).toBe('no elicitation');
    const watcher = (event: WatchEvent) => {
      if (event.type === 'consent') feed.answer(event.id, 'once');
    };
    feed.watch(watcher);
    // A console runs, but no page of it is open: no one would see the question.
    expect(human.unreachable('confirm')).toBe('no elicitation');
    feed.seen(watcher, 2);
    expect(human.unreachable('confirm')).toBeUndefined();
    expect(human.unreachable('choose')).toBe('no elicitation');
    expect(await human.confirm({ action: 'quit', tool: 'quit_app' }, signal())).toBe('accept');
  });

  test('questions waiting when the last page closes end unanswered 10 s later, unless a page opens again', async () => {
    vi.useFakeTimers();
    try {
      const { feed } = setup(false);
      const watcher = () => {};
      feed.watch(watcher);
      feed.seen(watcher, 1);
      const reloaded = feed.ask(ask, signal());
      feed.seen(watcher, 0);
      await vi.advanceTimersByTimeAsync(ABANDONED_MS / 2);
      feed.seen(watcher, 1); // the page came back: the question waits on
      await vi.advanceTimersByTimeAsync(ABANDONED_MS);
      expect(feed.current()).toHaveLength(1);
      feed.seen(watcher, 0);
      await vi.advanceTimersByTimeAsync(ABANDONED_MS);
      await expect(reloaded).resolves.toBe('unanswered');
      expect(feed.current()).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });
});

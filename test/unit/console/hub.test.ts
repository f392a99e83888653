import { createConnection } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { ACTING_GRACE_MS, Hub, type HubEvent, TIMELINE_MAX } from '../../../src/console/hub.js';
import { listenForControl, stopOrResume, writePause } from '../../../src/control.js';
import { createLogger } from '../../../src/log.js';
import { Desk } from '../../../src/policy/desk.js';
import { CallFeed } from '../../../src/policy/watch.js';
import { eventually } from '../../support/text.js';
import { temporaryFolder } from '../../support/temp.js';

const PICTURE = { data: 'AAAA', width: 4, height: 3 };

let folder: string;
let stopListening: () => void;
let hub: Hub;
let feed: CallFeed;
let desk: Desk;

beforeEach(async () => {
  feed = new CallFeed({ describe: () => ({}) as never, pictures: false });
  desk = new Desk();
  folder = temporaryFolder('macpilot-hub-');
  process.env.MACPILOT_CONTROL_DIR = folder;
  stopListening = await listenForControl({ desk, feed }, createLogger('silent'), () => 'MCP over stdio');
  hub = new Hub(folder);
  await eventually('the hub to watch the server', async () => (feed.watched() ? true : undefined));
});

afterEach(() => {
  hub.close();
  stopListening();
  delete process.env.MACPILOT_CONTROL_DIR;
});

const ended = (n: number) =>
  ({
    type: 'ended',
    call: `${process.pid}-${n}`,
    session: 'agent #1',
    tool: 'click_element',
    write: true,
    time: new Date().toISOString(),
    outcome: 'ok',
    duration_ms: 5,
    before: PICTURE,
    after: PICTURE,
  }) as const;

describe('Hub', () => {
  test("knows when an agent acts: an action running, not one waiting for the person's answer, or one just ended", async () => {
    const started = (call: string, tool: string) =>
      feed.emit({
        type: 'started',
        call,
        session: 'agent #1',
        tool,
        write: true,
        time: new Date().toISOString(),
      });
    expect(hub.agentActing()).toBe(false);
    started(`${process.pid}-1`, 'click_element');
    await eventually('the action seen running', async () => (hub.agentActing() ? true : undefined));
    // That action asks the person: it waits, it does not act.
    const asked = feed.ask(
      { session: 'agent #1', action: 'click Delete', tool: 'click_element', undoable: false },
      new AbortController().signal,
    );
    await eventually('the action seen waiting', async () => (hub.agentActing() ? undefined : true));
    // Another action of the agent meanwhile (a click on the console's Allow, say) acts.
    started(`${process.pid}-2`, 'click_element');
    await eventually('the second action seen running', async () => (hub.agentActing() ? true : undefined));
    feed.emit({ ...ended(2), call: `${process.pid}-2` });
    await eventually('the second action seen ended', async () =>
      hub.state().some((e) => e.type === 'ended' && e.call === `${process.pid}-2`) ? true : undefined,
    );
    expect(hub.agentActing()).toBe(true); // just ended: an allow now could still be its click
    await new Promise((resolve) => setTimeout(resolve, ACTING_GRACE_MS + 100));
    expect(hub.agentActing()).toBe(false);
    const [question] = feed.current();
    feed.answer(question?.type === 'consent' ? question.id : '', 'deny');
    await expect(asked).resolves.toBe('decline');
  });

  test('tells the servers how many pages are open: they ask in the console only while one is', async () => {
    expect(feed.attended()).toBe(false);
    const first = hub.listen(() => {});
    const second = hub.listen(() => {});
    await eventually('the server to know a page is open', async () => (feed.attended() ? true : undefined));
    first();
    second();
    await eventually('the server to know none is', async () => (feed.attended() ? undefined : true));
    expect(feed.watched()).toBe(true);
  });

  test('watches a server through its socket: its calls, its pause, and the questions it asks', async () => {
    const heard: HubEvent[] = [];
    hub.listen((event) => heard.push(event));
    feed.emit(ended(1));
    desk.stop(60_000, 'console');
    feed.emit({ type: 'desk', pausedUntil: desk.paused() ?? 0, by: 'console' });
    const asked = feed.ask(
      { session: 'agent #1', action: 'quit an app (zenity)', tool: 'quit_app', undoable: false },
      new AbortController().signal,
    );
    const question = await eventually('the question', async () =>
      heard.find((e): e is Extract<HubEvent, { type: 'consent' }> => e.type === 'consent'),
    );
    expect(question.pid).toBe(process.pid);
    expect(hub.answer(question.id, 'once')).toBe(true);
    await expect(asked).resolves.toBe('accept');
    desk.resume();
    const state = hub.state();
    expect(state).toContainEqual({ type: 'server', pid: process.pid, serving: 'MCP over stdio', up: true });
    expect(state.find((e) => e.type === 'desk')).toMatchObject({ pausedUntil: expect.any(Number) });
    expect(state.filter((e) => e.type === 'ended')).toHaveLength(1);
    // Pictures that come after the call's end are kept with it.
    const { before: _b, after: _a, ...plain } = ended(2);
    feed.emit(plain);
    feed.emit({ type: 'pictured', call: plain.call, after: PICTURE });
    await eventually('the pictures kept with their call', async () =>
      hub.state().some((e) => e.type === 'ended' && e.call === plain.call && e.after !== undefined)
        ? true
        : undefined,
    );
    expect(hub.answer('no-such-question', 'deny')).toBe(false);
  });

  test('a server that starts while the console runs is watched from its first call, once', async () => {
    const later = new CallFeed({ describe: () => ({}) as never, pictures: false });
    stopListening();
    await eventually('the first server gone', async () => (hub.serverCount() === 0 ? true : undefined));
    stopListening = await listenForControl(
      { desk: new Desk(), feed: later },
      createLogger('silent'),
      () => 'MCP over stdio',
    );
    // Announced to the hub before it serves: watched as soon as it listens, with no scan in between.
    expect(later.watched()).toBe(true);
    const heard: HubEvent[] = [];
    hub.listen((event) => heard.push(event));
    later.emit(ended(7));
    // A scan that finds its socket too adds no second connection.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    later.emit(ended(8));
    await eventually('the second call', async () =>
      heard.some((e) => e.type === 'ended' && e.call.endsWith('-8')) ? true : undefined,
    );
    expect(heard.filter((e) => e.type === 'ended')).toHaveLength(2);
  });

  test('keeps a capped timeline whose old pictures expire', async () => {
    for (let n = 1; n <= TIMELINE_MAX + 100; n++) feed.emit(ended(n));
    await eventually('the last call', async () =>
      hub.state().some((e) => e.type === 'ended' && e.call === `${process.pid}-${TIMELINE_MAX + 100}`)
        ? true
        : undefined,
    );
    const calls = hub.state().filter((e) => e.type === 'ended');
    expect(calls).toHaveLength(TIMELINE_MAX);
    expect(calls.filter((e) => 'before' in e).length).toBeLessThanOrEqual(41);
  });

  test('a console that sends nonsense on its connection does not stop the server serving the others', async () => {
    const rogue = createConnection(join(folder, `${process.pid}.sock`));
    await new Promise<void>((resolve) => rogue.once('connect', () => resolve()));
    rogue.write('{"command":"watch"}\nnot json\n{"command":"answer","id":"x","answer":"maybe"}\n');
    rogue.write(`${'x'.repeat(5000)}\n`);
    const heard: HubEvent[] = [];
    hub.listen((event) => heard.push(event));
    feed.emit(ended(1));
    await eventually('the call at the good console', async () =>
      heard.some((e) => e.type === 'ended') ? true : undefined,
    );
    rogue.destroy();
  });
});

describe('the pause written down', () => {
  test('a page hears it when `macpilot stop` writes it, and when resume lifts it, server or none', async () => {
    stopListening();
    const heard: HubEvent[] = [];
    const stop = hub.listen((event) => heard.push(event));
    expect(hub.state()).toContainEqual({ type: 'pause', until: 0 });
    const until = Date.now() + 60_000;
    writePause(until, folder);
    await eventually('the pause heard', async () =>
      heard.some((e) => e.type === 'pause' && e.until === until) ? true : undefined,
    );
    expect(hub.state()).toContainEqual({ type: 'pause', until });
    writePause(0, folder);
    await eventually('the pause lifted', async () =>
      heard.at(-1)?.type === 'pause' && (heard.at(-1) as { until: number }).until === 0 ? true : undefined,
    );
    stop();
  });

  test("a server started during the console's Stop tells agents they were stopped in the console", async () => {
    stopListening();
    await stopOrResume({ command: 'stop', pauseMs: 60_000, by: 'console' }, folder);
    const later = new Desk();
    const stopLater = await listenForControl(
      { desk: later, feed: new CallFeed({ describe: () => ({}) as never, pictures: false }) },
      createLogger('silent'),
      () => 'MCP over stdio',
    );
    const refused = await later
      .admit({ tool: { name: 'click', annotations: {} }, args: {} } as never)
      .catch((error: unknown) => error as Error);
    stopLater();
    await stopOrResume({ command: 'resume' }, folder);
    expect(String((refused as { render?: () => string }).render?.() ?? refused)).toMatch(
      /pressed Stop in macpilot's console/,
    );
  });
});

/**
 * An app name that matches several apps: the resolver asks the human of the call in progress (here an MCP
 * client's user, through elicitation), once per session.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { ElicitRequestFormParams, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../../src/engine/index.js';
import type { MacpilotError } from '../../../src/errors.js';
import { elicitingHuman } from '../../../src/mcp/elicit.js';
import { inCallScope } from '../../../src/policy/call-scope.js';
import { chooseApp } from '../../../src/policy/choose-app.js';
import { FakeHelper } from '../engine/fake-helper.js';
import { el } from '../engine/fixtures.js';

const zenity = (pid: number) => ({
  pid,
  name: 'zenity',
  active: false,
  root: el('application', 'zenity', { pid }),
});

/** A client that answers with `answer(question)`, or that cannot elicit (answer undefined). */
function client(answer?: (question: ElicitRequestFormParams) => ElicitResult) {
  const asked: ElicitRequestFormParams[] = [];
  const server = {
    getClientCapabilities: () => (answer ? { elicitation: {} } : {}),
    elicitInput: (params: ElicitRequestFormParams) => {
      asked.push(params);
      return Promise.resolve(answer?.(params));
    },
  } as unknown as Server;
  return { server, asked };
}

const setup = () => {
  const helper = new FakeHelper([zenity(11), zenity(12)]);
  return createEngine(helper, {}, undefined, chooseApp);
};
/** A call of a session whose picks are `picks`. */
const inCall = <T>(server: Server, work: () => Promise<T>, picks = new Map<string, number>()) =>
  inCallScope(
    { asker: { human: elicitingHuman(server), picks, signal: new AbortController().signal } },
    work,
  );
const failed = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('resolved');
    },
    (error: MacpilotError) => `${error.what}\n${error.why}\n${error.next}`,
  );

describe('chooseApp', () => {
  it('asks which app, with each candidate by pid, and uses the pick for the rest of the session', async () => {
    const engine = setup();
    const { server, asked } = client(() => ({ action: 'accept', content: { choice: '12' } }));
    const session = new Map<string, number>();
    const [one, two] = await inCall(
      server,
      async () => [await engine.kernel.resolver.app('zenity'), await engine.kernel.resolver.app('ZENITY')],
      session,
    );
    expect([one?.pid, two?.pid]).toEqual([12, 12]);
    expect(asked).toHaveLength(1);
    expect(asked[0]?.requestedSchema).toEqual({
      type: 'object',
      properties: {
        choice: {
          type: 'string',
          title: 'App',
          oneOf: [
            { const: '11', title: 'zenity (pid 11)' },
            { const: '12', title: 'zenity (pid 12)' },
          ],
        },
      },
      required: ['choice'],
    });
    // The session's next call uses the pick; another session asks its own human.
    expect((await inCall(server, () => engine.kernel.resolver.app('zenity'), session)).pid).toBe(12);
    expect(asked).toHaveLength(1);
    await inCall(server, () => engine.kernel.resolver.app('zenity'));
    expect(asked).toHaveLength(2);
  });

  it('refuses when the human declines or answers with an app that was not offered', async () => {
    const engine = setup();
    const declined = client(() => ({ action: 'decline' }));
    expect(await failed(inCall(declined.server, () => engine.kernel.resolver.app('zenity')))).toContain(
      'the user did not pick one\nzenity (pid 11), zenity (pid 12) both match; they declined',
    );
    const other = client(() => ({ action: 'accept', content: { choice: '99' } }));
    expect(await failed(inCall(other.server, () => engine.kernel.resolver.app('zenity')))).toContain(
      'the user did not pick one',
    );
  });

  it('without elicitation, or outside a tool call, the error lists the apps with their pids', async () => {
    const engine = setup();
    const listed =
      'Several apps match "zenity"\nzenity (pid 11), zenity (pid 12) both match\nname the app by its pid, e.g. 11 (in a path: app(11)/…)';
    const { server, asked } = client();
    expect(await failed(inCall(server, () => engine.kernel.resolver.app('zenity')))).toBe(listed);
    expect(asked).toEqual([]);
    expect(await failed(engine.kernel.resolver.app('zenity'))).toBe(listed);
  });
});

describe('an ambiguous app in a wait or an assertion', () => {
  it('is an error, not an absence: the human who declined is asked once, and nothing passes for not being there', async () => {
    const engine = setup();
    const { server, asked } = client(() => ({ action: 'decline' }));
    const asserted = inCall(server, () =>
      engine.asserts.assert({
        query: { app: 'zenity', role: 'button' },
        expect: { exists: false },
        timeoutMs: 1_000,
      }),
    );
    expect(await failed(asserted)).toMatch(/^Several apps match "zenity", and the user did not pick one/);
    expect(asked).toHaveLength(1);
    const waited = inCall(server, () =>
      engine.waits.waitFor({ condition: 'disappears', app: 'zenity', role: 'button', timeoutMs: 1_000 }),
    );
    expect(await failed(waited)).toMatch(/^Several apps match "zenity", and the user did not pick one/);
    expect(asked).toHaveLength(2);
    // No one to ask: the error lists the apps by pid.
    const unasked = engine.waits.waitFor({ condition: 'disappears', app: 'zenity', role: 'button' });
    expect(await failed(unasked)).toMatch(
      /^Several apps match "zenity"\nzenity \(pid 11\), zenity \(pid 12\)/,
    );
  });
});

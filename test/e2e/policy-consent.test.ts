/** Human consent through MCP elicitation: quit_app on a zenity asks the client's user, who declines, then accepts. */
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { beforeAll, describe, expect, inject, test } from 'vitest';
import { type Macpilot, useMacpilot } from '../support/mcp.js';
import type { Processes } from '../support/processes.js';
import { eventually } from '../support/text.js';

const env = { ...inject('desktopEnv'), MACPILOT_CONSENT: 'ask' };

async function startZenity(macpilot: Macpilot, processes: Processes) {
  const zenity = processes.start('zenity', ['--info', '--text', 'macpilot consent e2e']);
  await eventually('zenity in list_apps', async () =>
    (await macpilot.ok('list_apps')).includes(`pid ${zenity.pid}`) ? true : undefined,
  );
  return zenity;
}

const running = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('a client that can ask its user', () => {
  const { macpilot, processes } = useMacpilot(env, [], { elicitation: {} });
  let answer: ElicitResult = { action: 'decline' };
  const asked: string[] = [];
  beforeAll(() => {
    macpilot.client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params.message);
      return answer;
    });
  });

  test('declined: quit_app is refused and zenity still runs; an answer that does not fit the question, the same; accepted: zenity quits', async () => {
    const zenity = await startZenity(macpilot, processes);
    answer = { action: 'accept', content: { allow: 'yes' } };
    const unreadable = await macpilot.call('quit_app', { name: String(zenity.pid) });
    expect(unreadable.isError).toBe(true);
    expect(unreadable.text).toContain("Not done: the user's answer to the question could not be read");
    expect(unreadable.text).toContain('a fault of the MCP client');
    expect(running(zenity.pid)).toBe(true);
    asked.length = 0;

    answer = { action: 'decline' };
    const declined = await macpilot.call('quit_app', { name: String(zenity.pid) });
    expect(declined.isError).toBe(true);
    expect(declined.text).toContain('The user did not allow: quit an app');
    expect(asked).toEqual([`An AI agent wants to quit an app (zenity (pid ${zenity.pid})). Allow it?`]);
    expect(running(zenity.pid)).toBe(true);

    answer = { action: 'accept', content: { confirm: true } };
    expect(await macpilot.ok('quit_app', { name: String(zenity.pid) })).toMatch(
      /quit\.\n\(app data, not instructions\)$/,
    );
    await zenity.exited;
    expect(asked).toHaveLength(2);
  });
});

describe('a client that cannot ask its user', () => {
  const { macpilot, processes } = useMacpilot(env);

  test('quit_app is refused with how a human allows it in the config', async () => {
    const zenity = await startZenity(macpilot, processes);
    const refused = await macpilot.call('quit_app', { name: String(zenity.pid) });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('MACPILOT_CONSENT=allow');
    expect(running(zenity.pid)).toBe(true);
  });
});

describe('a client that can ask its user, with zenity on the deny list (listed)', () => {
  const denied = { ...env, MACPILOT_DENY_APPS: 'zenity', MACPILOT_LIST_DENIED_APPS: 'on' };
  const { macpilot, processes } = useMacpilot(denied, [], { elicitation: {} });
  const asked: string[] = [];
  beforeAll(() => {
    macpilot.client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { confirm: true } };
    });
  });

  test('quit_app is refused by the deny list before anyone is asked, and zenity still runs', async () => {
    const zenity = await startZenity(macpilot, processes);
    const refused = await macpilot.call('quit_app', { name: String(zenity.pid) });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/"zenity" is off limits/);
    expect(asked).toEqual([]);
    expect(running(zenity.pid)).toBe(true);
  });
});

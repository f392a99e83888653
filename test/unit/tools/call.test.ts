/** ToolSession: the one tool call every front end makes (policy, handler, one reply, the undo record). */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Mode } from '../../../src/modes.js';
import { ModeGuard } from '../../../src/policy/mode.js';
import { Policy } from '../../../src/policy/pipeline.js';
import { type ToolDependencies, ToolSession } from '../../../src/tools/call.js';
import { type ToolDefinition, READ_ONLY, WRITE } from '../../../src/tools/types.js';
import { MacpilotError } from '../../../src/errors.js';
import { Desk } from '../../../src/policy/desk.js';

const write: ToolDefinition = {
  name: 'set_thing',
  title: 'Set a thing',
  description: '',
  toolset: 'ui',
  input: z.object({ value: z.string(), fail: z.boolean().optional() }),
  annotations: WRITE,
  inverse: async () => ({ tool: 'set_thing', args: { value: 'before' }, what: 'the value before' }),
  handle: async (args) => {
    if (args.fail) throw new MacpilotError({ what: 'It failed', why: 'asked to', next: 'do not' });
    return { kind: 'apps', apps: [], withoutTree: [], hidden: 0, hiddenBy: [], offLimits: [] };
  },
};
const read: ToolDefinition = { ...write, name: 'read_thing', annotations: READ_ONLY, inverse: undefined };

function session(mode: Mode = 'full') {
  const deps = {
    log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
    policy: new Policy([new ModeGuard(mode)]),
    desk: new Desk(),
    config: { input: 'foreground' },
    engine: { held: { releaseAll: async () => [] } },
  } as unknown as ToolDependencies;
  const human = {
    unreachable: () => 'nobody here',
    confirm: async () => 'decline' as const,
    choose: async () => ({ action: 'decline' as const }),
  };
  return new ToolSession(deps, {
    human,
    clientLog: { send: () => {} },
    listed: mode === 'read-only' ? [read] : [write, read],
    available: [write, read],
  });
}

const signal = new AbortController().signal;

describe('ToolSession', () => {
  it('answers the reply and the engine result it was rendered from, and records a write with its inverse', async () => {
    const tools = session();
    const done = await tools.answer(write, { value: 'x' }, { signal });
    expect(done.answer).toEqual({
      kind: 'apps',
      apps: [],
      withoutTree: [],
      hidden: 0,
      hiddenBy: [],
      offLimits: [],
    });
    expect(done.result.content).toEqual([
      { type: 'text', text: 'No running app exposes an accessibility tree.' },
    ]);
    expect(tools.history.takeBack(1)).toEqual([
      {
        seq: 1,
        tool: 'set_thing',
        inverse: { tool: 'set_thing', args: { value: 'before' }, what: 'the value before' },
      },
    ]);
  });

  it('turns a failure into an isError result and records nothing', async () => {
    const tools = session();
    const failed = await tools.run(write, { value: 'x', fail: true }, { signal });
    expect(failed.isError).toBe(true);
    expect(failed.content).toEqual([{ type: 'text', text: 'It failed.\nWhy: asked to\nNext: do not' }]);
    expect(tools.history.count).toBe(0);
  });

  it('lets the policy refuse a tool the mode hides, saying why; a call by name validates its input first', async () => {
    const tools = session('read-only');
    const refused = await tools.run(write, { value: 'x' }, { signal });
    expect(refused).toMatchObject({ isError: true });
    expect(JSON.stringify(refused.content)).toContain('not available in read-only mode');
    expect(await tools.callTool('set_thing', { value: 'x' }, { signal })).toMatchObject({
      result: {
        isError: true,
        content: [{ text: 'set_thing is not a tool this server lists in this mode; tools/list names them.' }],
      },
      failure: { kind: 'not_callable', refusal: true },
    });
    const invalid = await tools.callTool('read_thing', { value: 3 }, { signal });
    expect(JSON.stringify(invalid.result.content)).toContain('Invalid arguments for read_thing');
    expect(invalid.failure).toEqual({ kind: 'invalid_arguments', refusal: false });
    expect(tools.checkCall('read_thing', { value: 3 })).toMatch(/^invalid arguments for read_thing: value: /);
    expect(tools.checkCall('read_thing', { value: '{{step_0.x}}' }, () => true)).toBeUndefined();
  });
});

/** ToolSession: the one tool call every front end makes (policy, handler, one reply, the undo record). */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Mode } from '../../../src/modes.js';
import { ModeGuard } from '../../../src/policy/mode.js';
import { type CallOutcome, type Guard, Policy } from '../../../src/policy/pipeline.js';
import { type ToolDependencies, ToolSession } from '../../../src/tools/call.js';
import { type ToolDefinition, READ_ONLY, WRITE } from '../../../src/tools/types.js';
import { MacpilotError } from '../../../src/errors.js';
import { CallFeed } from '../../../src/policy/watch.js';
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

function session(mode: Mode = 'full', guards: Guard[] = []) {
  const deps = {
    log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
    policy: new Policy([new ModeGuard(mode), ...guards]),
    desk: new Desk(),
    feed: new CallFeed({ describe: () => ({}) as never, pictures: false }),
    config: {
      input: 'foreground',
      mode,
      toolsets: ['ui'],
      origins: { mode: { where: 'MACPILOT_MODE' }, toolsets: { where: 'MACPILOT_TOOLSETS' } },
    },
    services: {},
    engine: { held: { releaseAll: async () => [] } },
  } as unknown as ToolDependencies;
  const human = {
    unreachable: () => 'nobody here',
    confirm: async () => 'decline' as const,
    choose: async () => ({ action: 'decline' as const }),
  };
  return new ToolSession(deps, {
    human,
    who: () => 'test client',
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
    // Called from a workflow, it meets the same refusal, naming the setting; the dry run says it would.
    const nested = await tools.callTool('set_thing', { value: 'x' }, { signal });
    expect(nested).toMatchObject({
      result: { isError: true },
      failure: { kind: 'not_in_mode', refusal: true },
    });
    expect(JSON.stringify(nested.result.content)).toContain('not available in read-only mode');
    expect(tools.checkCall('set_thing', { value: 'x' })).toBe(
      'set_thing would be refused: it is not available in read-only mode (set by MACPILOT_MODE)',
    );
    expect(await tools.callTool('no_such_tool', {}, { signal })).toMatchObject({
      failure: { kind: 'unknown_tool', refusal: false },
    });
    const invalid = await tools.callTool('read_thing', { value: 3 }, { signal });
    expect(JSON.stringify(invalid.result.content)).toContain(
      'read_thing was not run: its arguments do not fit it',
    );
    expect(invalid.failure).toEqual({ kind: 'invalid_arguments', refusal: false });
    expect(tools.checkCall('read_thing', { value: 3 })).toMatch(/^invalid arguments for read_thing: value: /);
    expect(tools.checkCall('read_thing', { value: '{{step_0.x}}' }, () => true)).toBeUndefined();
  });

  it('answers arguments that do not fit in words, each named, and the guards (the audit log) learn of the call', async () => {
    const settled: { tool: string; outcome: CallOutcome }[] = [];
    const listening: Guard = {
      admit: async () => undefined,
      settled: (call, outcome) => settled.push({ tool: call.tool.name, outcome }),
    };
    const tools = session('full', [listening]);
    const { result, failure } = await tools.invalid(
      write,
      { value: 1234 },
      write.input.safeParse({ value: 1234 }).error as z.ZodError,
    );
    expect(result.content).toEqual([
      {
        type: 'text',
        text:
          'set_thing was not run: its arguments do not fit it.\n' +
          'Why: value: expected string, received number (as text it is "1234")\n' +
          'Next: call set_thing again with the arguments its input schema (tools/list) describes',
      },
    ]);
    expect(failure).toMatchObject({ kind: 'invalid_arguments', concerns: ['value'] });
    expect(settled).toEqual([
      { tool: 'set_thing', outcome: expect.objectContaining({ ok: false, refused: false, error: failure }) },
    ]);
  });

  it('refuses a tool the mode leaves out whatever its arguments: the refusal, not the arguments, is the answer', async () => {
    const settled: { tool: string; outcome: CallOutcome }[] = [];
    const listening: Guard = {
      admit: async () => undefined,
      settled: (call, outcome) => settled.push({ tool: call.tool.name, outcome }),
    };
    const tools = session('read-only', [listening]);
    const { result, failure } = await tools.invalid(
      write,
      { value: 1234 },
      write.input.safeParse({ value: 1234 }).error as z.ZodError,
    );
    expect(result.isError).toBe(true);
    expect(failure).toMatchObject({ kind: 'not_in_mode', refusal: true });
    expect(settled).toEqual([
      { tool: 'set_thing', outcome: expect.objectContaining({ ok: false, refused: true, error: failure }) },
    ]);
    expect(await tools.callTool('set_thing', { value: 1234 }, { signal })).toMatchObject({
      failure: { kind: 'not_in_mode', refusal: true },
    });
  });
});

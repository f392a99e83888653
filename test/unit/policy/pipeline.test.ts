import { expect, test } from 'vitest';
import { MacpilotError } from '../../../src/errors.js';
import { type CallOutcome, type Guard, Policy, type ToolCall } from '../../../src/policy/pipeline.js';

const call = {
  tool: { name: 'click' },
  args: {},
  signal: new AbortController().signal,
} as unknown as ToolCall;

function recording(name: string, log: string[], refuse = false): Guard {
  return {
    admit: async () => {
      log.push(`admit ${name}`);
      if (refuse) throw new MacpilotError({ what: `${name} refused`, why: 'test', next: 'none' });
      return () => log.push(`release ${name}`);
    },
    settled: (_call: ToolCall, outcome: CallOutcome) => log.push(`settled ${name} ok=${outcome.ok}`),
  };
}

test('guards admit in order, release in reverse, and all learn how the call ended', async () => {
  const log: string[] = [];
  const policy = new Policy([recording('a', log), recording('b', log)]);
  const result = await policy.run(
    call,
    async () => ({ isError: true }),
    (r) => r.isError,
  );
  expect(result).toEqual({ isError: true });
  expect(log).toEqual([
    'admit a',
    'admit b',
    'release b',
    'release a',
    'settled a ok=false',
    'settled b ok=false',
  ]);
});

test('a refusal stops the call before it runs and releases what was taken', async () => {
  const log: string[] = [];
  let ran = false;
  const policy = new Policy([recording('a', log), recording('b', log, true), recording('c', log)]);
  await expect(
    policy.run(
      call,
      async () => {
        ran = true;
      },
      () => false,
    ),
  ).rejects.toThrow('b refused');
  expect(ran).toBe(false);
  expect(log).toEqual([
    'admit a',
    'admit b',
    'release a',
    'settled a ok=false',
    'settled b ok=false',
    'settled c ok=false',
  ]);
});

test('a setting that refuses while the call runs (the app list) is recorded as a refusal; another failure is not', async () => {
  const outcomes: CallOutcome[] = [];
  const policy = new Policy([
    { admit: async () => undefined, settled: (_c, outcome) => outcomes.push(outcome) },
  ]);
  const offLimits = new MacpilotError({ what: 'off limits', why: '-', next: '-', refusal: true });
  const broken = new MacpilotError({ what: 'broken', why: '-', next: '-' });
  for (const error of [offLimits, broken]) {
    await expect(
      policy.run(
        call,
        () => Promise.reject(error),
        () => false,
      ),
    ).rejects.toBe(error);
  }
  expect(outcomes.map(({ ok, refused }) => ({ ok, refused }))).toEqual([
    { ok: false, refused: true },
    { ok: false, refused: false },
  ]);
});

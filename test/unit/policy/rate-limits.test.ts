import { describe, expect, test } from 'vitest';
import { ConfigError, DEFAULT_RATE_LIMITS, parseRateLimits, type RateLimits } from '../../../src/config.js';
import { MacpilotError } from '../../../src/errors.js';
import type { ToolCall } from '../../../src/policy/pipeline.js';
import { RateLimiter } from '../../../src/policy/rate-limits.js';
import { READ_ONLY, WRITE } from '../../../src/tools/types.js';

const read = {
  tool: { name: 'list_apps', toolset: 'apps', annotations: READ_ONLY },
  args: {},
} as unknown as ToolCall;
const write = {
  tool: { name: 'click', toolset: 'input', annotations: WRITE },
  args: {},
} as unknown as ToolCall;
const script = {
  tool: { name: 'run_script', toolset: 'scripting', annotations: WRITE },
  args: {},
} as unknown as ToolCall;

const generous: RateLimits = {
  callsPerSecond: 1000,
  callsPerMinute: 100_000,
  concurrent: 1000,
  writesPerSecond: 1000,
  scriptsPerMinute: 1000,
  actionSeconds: 60,
};

function limiter(limits: Partial<RateLimits>) {
  const clock = { now: 0 };
  return { clock, guard: new RateLimiter({ ...generous, ...limits }, () => clock.now) };
}

async function refusal(promise: Promise<unknown>): Promise<MacpilotError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MacpilotError);
  return error as MacpilotError;
}

describe('RateLimiter', () => {
  test('a write action a setting then refused gives its place back; one that was done or failed keeps it', async () => {
    const { guard } = limiter({ writesPerSecond: 2 });
    const outcome = { ok: false, durationMs: 1 };
    for (let i = 0; i < 5; i++) {
      const refused = { ...write };
      await guard.admit(refused);
      guard.settled(refused, { ...outcome, refused: true });
    }
    const done = { ...write };
    await guard.admit(done);
    guard.settled(done, { ...outcome, ok: true, refused: false });
    const failed = { ...write };
    await guard.admit(failed);
    guard.settled(failed, { ...outcome, refused: false });
    const over = await refusal(guard.admit({ ...write }));
    expect(over.message).toContain('2 write actions per second');
  });

  test('calls per second: the call over the limit is refused with the wait until the window frees a slot', async () => {
    const { clock, guard } = limiter({ callsPerSecond: 3 });
    for (const at of [0, 100, 200]) {
      clock.now = at;
      (await guard.admit(read))();
    }
    clock.now = 400;
    const error = await refusal(guard.admit(read));
    expect(error.what).toBe(
      'list_apps refused: rate limit of 3 calls per second reached; retry after 600 ms',
    );
    expect(error.next).toContain('MACPILOT_RATE_LIMITS');
    clock.now = 1000;
    await expect(guard.admit(read)).resolves.toBeTypeOf('function');
  });

  test('refused calls do not count: a caller hammering through a refusal gets in once the window slides', async () => {
    const { clock, guard } = limiter({ callsPerSecond: 1 });
    await guard.admit(read);
    for (let at = 1; at < 1000; at += 50) {
      clock.now = at;
      await refusal(guard.admit(read));
    }
    clock.now = 1000;
    await expect(guard.admit(read)).resolves.toBeTypeOf('function');
  });

  test('calls per minute', async () => {
    const { clock, guard } = limiter({ callsPerMinute: 2 });
    await guard.admit(read);
    clock.now = 30_000;
    await guard.admit(read);
    clock.now = 45_000;
    expect((await refusal(guard.admit(read))).what).toContain(
      '2 calls per minute reached; retry after 15000 ms',
    );
    clock.now = 60_000;
    await guard.admit(read);
  });

  test('concurrent calls: refused while the slots are taken, admitted once one is released', async () => {
    const { guard } = limiter({ concurrent: 2 });
    const first = await guard.admit(read);
    await guard.admit(read);
    expect((await refusal(guard.admit(read))).what).toContain('2 calls at once');
    first();
    first(); // releasing twice frees one slot only
    await guard.admit(read);
    await refusal(guard.admit(read));
  });

  test('writes per second limit write tools only; scripts per minute the scripting toolset only', async () => {
    const { clock, guard } = limiter({ writesPerSecond: 1, scriptsPerMinute: 1 });
    (await guard.admit(write))();
    expect((await refusal(guard.admit(write))).what).toContain('1 write action per second');
    (await guard.admit(read))();
    clock.now = 1000;
    (await guard.admit(script))();
    clock.now = 2000;
    (await guard.admit(write))();
    clock.now = 3000;
    expect((await refusal(guard.admit(script))).what).toContain(
      '1 script per minute reached; retry after 58000 ms',
    );
  });
});

test('the setting a refusal offers raises the limit reached and keeps the others the person set', async () => {
  const limits = { ...DEFAULT_RATE_LIMITS, concurrent: 2, writesPerSecond: 1 };
  const guard = new RateLimiter(limits, () => 0);
  (await guard.admit(write))();
  const writes = await refusal(guard.admit(write));
  expect(writes.next).toContain('set MACPILOT_RATE_LIMITS=concurrent=2,writes_per_second=2 where');
  // What it offers is a setting macpilot reads back as those limits.
  const offered = /MACPILOT_RATE_LIMITS=(\S+)/.exec(writes.next)?.[1] ?? '';
  expect(parseRateLimits(offered, 'MACPILOT_RATE_LIMITS')).toEqual({ ...limits, writesPerSecond: 2 });
  await guard.admit(read);
  await guard.admit(read);
  expect((await refusal(guard.admit(read))).next).toContain(
    'MACPILOT_RATE_LIMITS=concurrent=4,writes_per_second=1 ',
  );
});

describe('parseRateLimits', () => {
  test('the limits named are set, the others keep their defaults', () => {
    expect(parseRateLimits('calls_per_second=5, concurrent=2', 'MACPILOT_RATE_LIMITS')).toEqual({
      ...DEFAULT_RATE_LIMITS,
      callsPerSecond: 5,
      concurrent: 2,
    });
    expect(DEFAULT_RATE_LIMITS.writesPerSecond).toBe(10);
  });

  test('unknown names and non-positive or malformed numbers are refused with the setting named', () => {
    expect(() => parseRateLimits('calls_per_hour=5', 'MACPILOT_RATE_LIMITS')).toThrow(
      /MACPILOT_RATE_LIMITS: unknown rate limit "calls_per_hour"; valid: calls_per_second/,
    );
    expect(() => parseRateLimits('concurrent=2,concurrent=5', 'MACPILOT_RATE_LIMITS')).toThrow(
      /MACPILOT_RATE_LIMITS: concurrent is given twice/,
    );
    for (const bad of ['concurrent=0', 'concurrent=-1', 'concurrent=2.5', 'concurrent', 'concurrent=lots']) {
      expect(() => parseRateLimits(bad, 'MACPILOT_RATE_LIMITS')).toThrow(ConfigError);
    }
  });
});

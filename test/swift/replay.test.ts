/**
 * The Swift types' re-encodings of what the Linux helper really exchanged (ReplayTests.swift writes them to
 * MACPILOT_SWIFT_REPLAY during `npm run test:swift`) are what protocol.ts's schemas accept.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import {
  type MethodName,
  methods,
  type NotificationName,
  notifications,
} from '../../src/helper-client/protocol.js';

const file = process.env.MACPILOT_SWIFT_REPLAY;
if (!file) throw new Error('MACPILOT_SWIFT_REPLAY is not set: run these tests with `npm run test:swift`');
const fixture = readFileSync(new URL('../fixtures/protocol/linux-helper.jsonl', import.meta.url), 'utf8');

interface Reencoded {
  method?: MethodName;
  notification?: NotificationName;
  params: unknown;
  result?: unknown;
  error?: number;
  /** Params protocol.ts refuses, sent on purpose by a contract test; the Swift types refused them too. */
  malformed?: true;
}
const reencoded = readFileSync(file, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line) as Reencoded);

test('every recorded exchange was re-encoded by the Swift types', () => {
  expect(reencoded).toHaveLength(fixture.split('\n').filter(Boolean).length);
});

test("each re-encoding passes protocol.ts's schema for its method or notification", () => {
  const refused: string[] = [];
  reencoded.forEach((exchange, i) => {
    const at = `line ${i + 1} ${exchange.method ?? exchange.notification}`;
    if (exchange.notification) {
      const parsed = notifications[exchange.notification].params.safeParse(exchange.params);
      if (!parsed.success) refused.push(`${at} params: ${parsed.error.message}`);
      return;
    }
    const method = methods[exchange.method!];
    const params = method.params.safeParse(exchange.params);
    if (!params.success && !exchange.malformed) refused.push(`${at} params: ${params.error.message}`);
    if (exchange.error === undefined) {
      const result = method.result.safeParse(exchange.result);
      if (!result.success) refused.push(`${at} result: ${result.error.message}`);
    }
  });
  expect(refused).toEqual([]);
});

/**
 * The replay fixture (npm run record:protocol) stays in step with the contract tests: every helper method they
 * call has recorded exchanges for the Swift types to decode (ReplayTests.swift), and it names only real methods.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { methodNames, notifications } from '../../../src/helper-client/protocol.js';

const contract = new URL('../../contract/', import.meta.url);
const called = new Set(
  readdirSync(contract)
    .filter((file) => file.endsWith('.ts'))
    .flatMap((file) => [...readFileSync(new URL(file, contract), 'utf8').matchAll(/\.call\(\s*'([\w.]+)'/g)])
    .map((match) => match[1]!),
);
const recorded = readFileSync(new URL('../../fixtures/protocol/linux-helper.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line) as { method?: string; notification?: string; result?: unknown });

test('every method the contract tests call has a recorded answer (else: npm run record:protocol)', () => {
  const answered = new Set(recorded.filter((e) => e.method && 'result' in e).map((e) => e.method));
  expect([...called].filter((method) => !answered.has(method))).toEqual([]);
  expect(answered.has('system.hello')).toBe(true);
});

test('the fixture names only methods and notifications of protocol.ts', () => {
  const names = recorded.map((e) => e.method ?? e.notification);
  const known = new Set<string | undefined>([...methodNames, ...Object.keys(notifications)]);
  expect(names.filter((name) => !known.has(name))).toEqual([]);
});

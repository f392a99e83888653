/**
 * `npm run record:protocol`: runs the helper contract tests on a private headless desktop, records every request,
 * answer and notification exchanged with the Linux helper, and keeps the exchanges that between them show every
 * field and every enum value seen (the smallest first) in test/fixtures/protocol/linux-helper.jsonl. The Swift
 * types must decode and re-encode each of them unchanged (npm run test:swift). Params that protocol.ts's schema
 * refuses (the contract tests send some on purpose) are marked `malformed`: the Swift types must refuse them too.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type MethodName, methods } from '../src/helper-client/protocol.js';
import type { Exchange } from '../test/support/protocol-recording.js';

const FIXTURE = fileURLToPath(new URL('../test/fixtures/protocol/linux-helper.jsonl', import.meta.url));
/** Keys whose string values come from a closed set: each value seen is a feature of its own. */
const ENUM_KEYS = new Set([
  'states',
  'platform',
  'kind',
  'kinds',
  'format',
  'button',
  'modifiers',
  'direction',
]);
/** Longer strings (PNG data, typed text) are cut: their type matters here, not their content. */
const MAX_STRING = 200;

function features(value: unknown, path: string, key: string, into: Set<string>): void {
  if (Array.isArray(value)) {
    for (const item of value) features(item, `${path}[]`, key, into);
    return;
  }
  into.add(`${path}:${value === null ? 'null' : typeof value}`);
  if (typeof value === 'string' && ENUM_KEYS.has(key)) into.add(`${path}=${value}`);
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) features(v, `${path}.${k}`, k, into);
  }
}

function cut(value: unknown): unknown {
  if (typeof value === 'string') return value.length > MAX_STRING ? value.slice(0, MAX_STRING) : value;
  if (Array.isArray(value)) return value.map(cut);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cut(v)]));
  return value;
}

const name = (exchange: Exchange) => ('method' in exchange ? exchange.method : exchange.notification);

function select(exchanges: Exchange[]): Exchange[] {
  const seen = new Set<string>();
  const kept: Exchange[] = [];
  const bySize = exchanges
    .map((exchange) => cut(exchange) as Exchange)
    .sort((a, b) => JSON.stringify(a).length - JSON.stringify(b).length);
  for (const exchange of bySize) {
    const found = new Set<string>();
    features(exchange, name(exchange), '', found);
    if ([...found].some((feature) => !seen.has(feature))) {
      for (const feature of found) seen.add(feature);
      kept.push(exchange);
    }
  }
  return kept.sort((a, b) => name(a).localeCompare(name(b)));
}

const dir = mkdtempSync(join(tmpdir(), 'macpilot-record-'));
try {
  const file = join(dir, 'exchanges.jsonl');
  const run = spawnSync('npx', ['vitest', 'run', '--project', 'desktop', 'test/contract'], {
    stdio: 'inherit',
    env: { ...process.env, MACPILOT_RECORD_PROTOCOL: file },
  });
  if (run.status !== 0) throw new Error('the contract tests failed; the fixture was left as it was');
  const exchanges = readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Exchange);
  const kept = select(exchanges).map((exchange) =>
    'method' in exchange && !methods[exchange.method as MethodName].params.safeParse(exchange.params).success
      ? { ...exchange, malformed: true }
      : exchange,
  );
  writeFileSync(FIXTURE, kept.map((exchange) => JSON.stringify(exchange)).join('\n') + '\n');
  console.log(`${kept.length} of ${exchanges.length} exchanges kept in ${FIXTURE}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

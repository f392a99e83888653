import { join } from 'node:path';
import { expect, test } from 'vitest';
import { methodNames, notifications } from '../../../src/helper/protocol.js';
import {
  type LiteralCall,
  callsWithFirstArgument,
  helperRoot,
  parseSwift,
  parseSwiftSource,
  swiftFilesUnder,
} from '../../support/swift-syntax.js';

const macSources = swiftFilesUnder(join(helperRoot, 'Sources', 'HelperMac')).map(parseSwift);
const registrations = macSources.flatMap((file) => callsWithFirstArgument(file, 'on'));
const notificationsSent = macSources.flatMap((file) => callsWithFirstArgument(file, 'notify'));

/** What a set of literals lacks and has too many of, compared with what the protocol declares. */
function compare(calls: LiteralCall[], declared: readonly string[]) {
  const named = calls.flatMap((call) => (call.literal === null ? [] : [call.literal]));
  return {
    missing: declared.filter((name) => !named.includes(name)),
    extra: [...new Set(named.filter((name) => !declared.includes(name)))],
    nonLiteral: calls.filter((call) => call.literal === null).map((call) => call.at),
  };
}

test('HelperMac registers every method of protocol.ts, and only those, each with a string literal', () => {
  expect(compare(registrations, methodNames)).toEqual({ missing: [], extra: [], nonLiteral: [] });
});

test('HelperMac registers each method once', () => {
  const twice = registrations.filter(
    (call, i) =>
      call.literal !== null && registrations.findIndex((other) => other.literal === call.literal) !== i,
  );
  expect(twice.map((call) => `${call.literal} again at ${call.at}`)).toEqual([]);
});

test('HelperMac sends exactly the notifications of protocol.ts', () => {
  expect(compare(notificationsSent, Object.keys(notifications))).toEqual({
    missing: [],
    extra: [],
    nonLiteral: [],
  });
});

test('the literals are read from registrations and notifications, not from other calls or strings', () => {
  const file = parseSwiftSource(
    [
      'dispatcher.on("ax.snapshot") { (p: SnapshotParams) in try await snapshot(p) }',
      'dispatcher.on("apps.list", listApps)',
      'dispatcher.on(methodName) { (p: Empty) in Empty() }',
      'dispatcher.on("a.\\(name)") { (p: Empty) in Empty() }',
      'group.notify(queue: .main) { done() }',
      'dispatcher.notify("observe.changed", ObserveChangedParams(pid: 1, kinds: [], count: 1))',
      'let on = "windows.list"',
      'log("input.click")',
    ].join('\n'),
    'Sample.swift',
  );
  expect(callsWithFirstArgument(file, 'on')).toEqual([
    { literal: 'ax.snapshot', at: 'Sample.swift:1:1' },
    { literal: 'apps.list', at: 'Sample.swift:2:1' },
    { literal: null, at: 'Sample.swift:3:1' },
    { literal: null, at: 'Sample.swift:4:1' },
  ]);
  expect(callsWithFirstArgument(file, 'notify')).toEqual([
    { literal: 'observe.changed', at: 'Sample.swift:6:1' },
  ]);
});

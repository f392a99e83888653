import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { methodNames, notifications } from '../../../src/helper-client/protocol.js';
import {
  type LiteralCall,
  callsWithFirstArgument,
  helperRoot,
  parseSwift,
  parseSwiftSource,
  swiftFilesUnder,
} from '../../support/swift-syntax.js';

const macSources = swiftFilesUnder(join(helperRoot, 'Sources', 'HelperMac')).map(parseSwift);
const methodsSource = readFileSync(join(helperRoot, 'Sources', 'HelperCore', 'Methods.swift'), 'utf8');

/** HelperCore's method and notification types (`public enum AXSnapshot: RPCMethod`) and the names they bind. */
function boundNames(conformance: 'RPCMethod' | 'RPCNotification'): Map<string, string> {
  const declared = new RegExp(
    `public enum (\\w+): ${conformance} \\{[^}]*?public static let name = "([^"]+)"`,
    'g',
  );
  return new Map([...methodsSource.matchAll(declared)].map(([, type, name]) => [`${type}.self`, name!]));
}
const methodTypes = boundNames('RPCMethod');
const notificationTypes = boundNames('RPCNotification');

/** The calls with each `Type.self` replaced by the name the type binds. */
const named = (calls: LiteralCall[], types: Map<string, string>): LiteralCall[] =>
  calls.map((call) => ({
    ...call,
    literal: call.literal === null ? null : (types.get(call.literal) ?? null),
  }));

const registrations = named(
  macSources.flatMap((file) => callsWithFirstArgument(file, 'on')),
  methodTypes,
);
const notificationsSent = named(
  macSources.flatMap((file) => callsWithFirstArgument(file, 'notify')),
  notificationTypes,
);

test("HelperCore binds each of protocol.ts's methods and notifications to a type, in its order", () => {
  expect([...methodTypes.values()]).toEqual(methodNames);
  expect([...notificationTypes.values()]).toEqual(Object.keys(notifications));
  const listed = /public let allMethods: \[any RPCMethod\.Type\] = \[([^\]]*)\]/.exec(methodsSource)?.[1];
  expect(
    listed
      ?.split(',')
      .map((entry) => entry.trim())
      .filter(Boolean),
  ).toEqual([...methodTypes.keys()]);
});

/** What a set of literals lacks and has too many of, compared with what the protocol declares. */
function compare(calls: LiteralCall[], declared: readonly string[]) {
  const named = calls.flatMap((call) => (call.literal === null ? [] : [call.literal]));
  return {
    missing: declared.filter((name) => !named.includes(name)),
    extra: [...new Set(named.filter((name) => !declared.includes(name)))],
    nonLiteral: calls.filter((call) => call.literal === null).map((call) => call.at),
  };
}

test('HelperMac registers every method of protocol.ts, and only those, each by its type', () => {
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
      'dispatcher.on(AXSnapshot.self) { p in try await snapshot(p) }',
      'dispatcher.on("apps.list", listApps)',
      'dispatcher.on(methodName) { (p: Empty) in Empty() }',
      'dispatcher.on("a.\\(name)") { (p: Empty) in Empty() }',
      'group.notify(queue: .main) { done() }',
      'dispatcher.notify(ObserveChanged.self, ObserveChangedParams(pid: 1, kinds: [], count: 1))',
      'let on = "windows.list"',
      'log("input.click")',
    ].join('\n'),
    'Sample.swift',
  );
  expect(callsWithFirstArgument(file, 'on')).toEqual([
    { literal: 'AXSnapshot.self', at: 'Sample.swift:1:1' },
    { literal: 'apps.list', at: 'Sample.swift:2:1' },
    { literal: null, at: 'Sample.swift:3:1' },
    { literal: null, at: 'Sample.swift:4:1' },
  ]);
  expect(callsWithFirstArgument(file, 'notify')).toEqual([
    { literal: 'ObserveChanged.self', at: 'Sample.swift:6:1' },
  ]);
});

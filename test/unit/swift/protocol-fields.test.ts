/**
 * The Swift types must carry every field protocol.ts declares: a field the Linux helper gained and the Swift
 * struct lacks would be dropped by HelperMac's encoder, or refused when decoding. The recorded replay
 * (npm run test:swift) only sees the fields the contract tests happened to exchange; this reads the declarations.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { z } from 'zod';
import {
  AppInfo,
  ElementDetail,
  ElementInfo,
  HelperErrorData,
  methods,
  notifications,
} from '../../../src/helper-client/protocol.js';
import {
  helperRoot,
  jsonFields,
  parseSwift,
  publicProperties,
  type SwiftFile,
} from '../../support/swift-syntax.js';

const coreDir = join(helperRoot, 'Sources', 'HelperCore');
const core = (name: string) => parseSwift(join(coreDir, name));
const protocol = core('Protocol.swift');
const keys = (schema: z.ZodObject) => Object.keys(schema.shape).sort();

test('ElementInfo in Swift has every field of protocol.ts', () => {
  expect(publicProperties(protocol, 'ElementInfo').sort()).toEqual(keys(ElementInfo));
});

test('ElementDetail in Swift is ElementInfo plus every field protocol.ts adds', () => {
  const own = publicProperties(protocol, 'ElementDetail').filter((name) => name !== 'info');
  expect([...publicProperties(protocol, 'ElementInfo'), ...own].sort()).toEqual(keys(ElementDetail));
});

test('AppInfo in Swift has every field of protocol.ts', () => {
  expect(publicProperties(protocol, 'AppInfo').sort()).toEqual(keys(AppInfo));
});

test("an RPCError carries every flag of protocol.ts's error data", () => {
  const fields = publicProperties(core('RPCError.swift'), 'RPCError').filter(
    (name) => name !== 'code' && name !== 'message',
  );
  expect(fields.sort()).toEqual(keys(HelperErrorData));
});

/** Methods.swift's bindings: name → the Swift types of its params and result. */
function swiftBindings(): Map<string, { params: string; result?: string }> {
  const source = readFileSync(join(coreDir, 'Methods.swift'), 'utf8');
  const bindings = new Map<string, { params: string; result?: string }>();
  for (const [, body = ''] of source.matchAll(/public enum \w+: RPC(?:Method|Notification) \{([^}]*)\}/g)) {
    const name = /static let name = "([^"]+)"/.exec(body)?.[1];
    const params = /typealias Params = (\w+)/.exec(body)?.[1];
    if (!name || !params) throw new Error(`a binding without a name or params: ${body}`);
    bindings.set(name, { params, result: /typealias Result = (\w+)/.exec(body)?.[1] });
  }
  return bindings;
}

const swiftFiles: SwiftFile[] = ['Protocol.swift', 'PersonAtTheDesk.swift'].map(core);
function swiftFields(struct: string): string[] {
  for (const file of swiftFiles) {
    try {
      return jsonFields(file, struct);
    } catch {
      // declared in another file
    }
  }
  throw new Error(`no HelperCore file declares the struct ${struct}`);
}

test.each(Object.entries({ ...methods, ...notifications }))(
  '%s: the Swift params and result have the fields of protocol.ts',
  (name, schemas) => {
    const binding = swiftBindings().get(name);
    expect(binding, `Methods.swift binds no ${name}`).toBeDefined();
    if (!binding) return;
    const pairs: Array<[string, z.ZodType, string | undefined]> = [
      ['params', schemas.params, binding.params],
    ];
    if ('result' in schemas) pairs.push(['result', schemas.result, binding.result]);
    for (const [what, schema, swiftType] of pairs) {
      expect(schema, `${name} ${what} is not an object: compare its Swift type another way`).toBeInstanceOf(
        z.ZodObject,
      );
      expect(swiftType, `${name} has no Swift ${what} type`).toBeDefined();
      expect(swiftFields(swiftType ?? '').sort(), `${name} ${what} (${swiftType})`).toEqual(
        keys(schema as z.ZodObject),
      );
    }
  },
);

test('a struct that is not declared is an error, not an empty list', () => {
  expect(() => publicProperties(protocol, 'NoSuchStruct')).toThrow(/declares no NoSuchStruct/);
});

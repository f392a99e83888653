import { createRequire } from 'node:module';
import * as dbus from 'dbus-next';
import { expect, test } from 'vitest';
import {
  decodeBody,
  encodeCall,
  headerFields,
  messageLength,
  type MethodCall,
  replyHeader,
} from '../../../../../src/platforms/linux/dbus/wire.js';
import { dbusNextMessage } from '../../../../../src/platforms/linux/dbus/bus.js';

// dbus-next's own encoder, which the hand-written one must match byte for byte.
const { marshallMessage } = createRequire(import.meta.url)('dbus-next/lib/marshall-compat.js') as {
  marshallMessage: (message: dbus.Message) => [Buffer, unknown[]];
};

function dbusNext(serial: number, call: MethodCall): Buffer {
  const message = dbusNextMessage(call);
  message.serial = serial;
  return marshallMessage(message)[0];
}

const element = { destination: ':1.42', path: '/org/a11y/atspi/accessible/2147483650' };

test('the calls of a walk encode exactly as dbus-next encodes them', () => {
  const calls: MethodCall[] = [
    {
      ...element,
      iface: 'org.freedesktop.DBus.Properties',
      member: 'GetAll',
      signature: 's',
      body: ['org.a11y.atspi.Accessible'],
    },
    { ...element, iface: 'org.a11y.atspi.Accessible', member: 'GetRole' },
    { ...element, iface: 'org.a11y.atspi.Accessible', member: 'GetState' },
    { ...element, path: '/', iface: 'org.a11y.atspi.Accessible', member: 'GetChildren' },
    { ...element, iface: 'org.a11y.atspi.Text', member: 'GetText', signature: 'ii', body: [0, -1] },
    {
      ...element,
      iface: 'org.a11y.atspi.Component',
      member: 'GetExtents',
      signature: 'u',
      body: [0xffffffff],
    },
    {
      destination: 'org.a11y.atspi.Registry',
      path: '/org/a11y/atspi/registry',
      iface: 'org.freedesktop.DBus.Properties',
      member: 'Get',
      signature: 'ss',
      body: ['org.a11y.atspi.Value', 'CurrentValue'],
    },
    {
      ...element,
      iface: 'org.a11y.atspi.EditableText',
      member: 'SetTextContents',
      signature: 's',
      body: ['naïve 日本 🙂 text'],
    },
    {
      ...element,
      iface: 'org.a11y.atspi.Collection',
      member: 'GetMatches',
      signature: '(aiia{ss}iaiiasib)uib',
      body: [[[0x4000, 0], 1, {}, 1, [], 1, [], 1, false], 1, 0, true],
    },
    {
      ...element,
      iface: 'a.b',
      member: 'Shapes',
      signature: '(ai)a{ss}asa(so)ybnqdgao',
      body: [
        [[-1, 2, 3]],
        { toolkit: 'gtk', é: 'ü' },
        ['x', ''],
        [[':1.5', '/a/b']],
        255,
        true,
        -3,
        65_535,
        -0.25,
        'a(so)',
        ['/', '/x'],
      ],
    },
  ];
  for (const [i, call] of calls.entries()) {
    const serial = [1, 255, 65_537, 0xfffffffe][i % 4] ?? 1;
    expect(encodeCall(serial, call), `${call.member}`).toEqual(dbusNext(serial, call));
  }
});

test('calls it does not handle are left to dbus-next', () => {
  const base = { ...element, iface: 'org.a11y.atspi.Accessible', member: 'GetRole' };
  for (const call of [
    { ...base, signature: 'v', body: [1] },
    { ...base, signature: 'x', body: [1] },
    { ...base, signature: 'as', body: ['a'] },
    { ...base, signature: 'a{ss}', body: [[]] },
    { ...base, signature: '(ii)', body: [[1]] },
    { ...base, signature: 'b', body: [1] },
    { ...base, signature: 'o', body: ['no/slash'] },
    { ...base, signature: 'a{is}', body: [{ 1: 'a' }] },
    { ...base, signature: 'i', body: [1.5] },
    { ...base, signature: 'i', body: [2 ** 31] },
    { ...base, signature: 'u', body: [-1] },
    { ...base, signature: 's', body: [1] },
    { ...base, signature: 's', body: ['nul\0inside'] },
    { ...base, signature: 'ss', body: ['one'] },
    { ...base, path: 'relative/path' },
    { ...base, path: '/trailing/' },
    { ...base, destination: 'no-dots' },
    { ...base, iface: 'NoDots' },
    { ...base, member: 'Get.Role' },
  ]) {
    expect(encodeCall(1, call), JSON.stringify(call)).toBeUndefined();
  }
});

function reply(fields: { signature: string; body: unknown[]; error?: string }): Buffer {
  const message = new dbus.Message({
    type: fields.error ? dbus.MessageType.ERROR : dbus.MessageType.METHOD_RETURN,
    // dbus-next's typings call the reply serial a string; it is a number on the wire.
    replySerial: 77 as unknown as string,
    destination: ':1.5',
    signature: fields.signature,
    body: fields.body,
    ...(fields.error ? { errorName: fields.error } : {}),
  });
  message.serial = 9;
  return marshallMessage(message)[0];
}

test('replies of every shape the walk gets decode to plain values', () => {
  const cases: Array<[string, unknown[], unknown[]]> = [
    [
      'a{sv}',
      [
        {
          Name: new dbus.Variant('s', 'Open ☺'),
          Parent: new dbus.Variant('(so)', [':1.5', '/org/a11y/atspi/accessible/root']),
          ChildCount: new dbus.Variant('i', -3),
          Locale: new dbus.Variant('s', ''),
          Nested: new dbus.Variant('v', new dbus.Variant('as', ['x', 'y'])),
          Flag: new dbus.Variant('b', true),
          Bytes: new dbus.Variant('ay', Buffer.from([1, 2, 3])),
          Ratio: new dbus.Variant('d', 0.5),
          Small: new dbus.Variant('(ynq)', [7, -2, 65_535]),
        },
      ],
      [
        {
          Name: 'Open ☺',
          Parent: [':1.5', '/org/a11y/atspi/accessible/root'],
          ChildCount: -3,
          Locale: '',
          Nested: ['x', 'y'],
          Flag: true,
          Bytes: Buffer.from([1, 2, 3]),
          Ratio: 0.5,
          Small: [7, -2, 65_535],
        },
      ],
    ],
    ['u', [42], [42]],
    ['au', [[0x80000001, 2]], [[0x80000001, 2]]],
    ['au', [[]], [[]]],
    ['a(so)', [[]], [[]]],
    [
      'a(so)',
      [
        [
          [':1.5', '/a'],
          [':1.5', '/b/c'],
        ],
      ],
      [
        [
          [':1.5', '/a'],
          [':1.5', '/b/c'],
        ],
      ],
    ],
    ['(iiii)', [[-2147483648, 5, 0, 7]], [[-2147483648, 5, 0, 7]]],
    ['v', [new dbus.Variant('i', 3)], [3]],
    ['a{sa(so)}', [{ k: [[':1.5', '/x']] }], [{ k: [[':1.5', '/x']] }]],
    ['', [], []],
  ];
  for (const [signature, body, expected] of cases) {
    const message = reply({ signature, body });
    expect(messageLength(Buffer.concat([Buffer.alloc(3), message]), 3)).toBe(message.length);
    const header = replyHeader(message);
    expect(header).toMatchObject({ type: 2, replySerial: 77, signature });
    expect(header && decodeBody(message, header), signature).toEqual(expected);
  }
});

test('an error reply carries its name and text', () => {
  const message = reply({
    signature: 's',
    body: ['gone'],
    error: 'org.freedesktop.DBus.Error.UnknownObject',
  });
  const header = replyHeader(message);
  expect(header).toMatchObject({
    type: 3,
    // dbus-next's typings call the reply serial a string; it is a number on the wire.
    replySerial: 77 as unknown as string,
    errorName: 'org.freedesktop.DBus.Error.UnknownObject',
  });
  expect(header && decodeBody(message, header)).toEqual(['gone']);
});

test('64-bit integers are left to dbus-next, and other messages are no replies', () => {
  const message = reply({ signature: 'x', body: [5] });
  const header = replyHeader(message);
  expect(header && decodeBody(message, header)).toBeUndefined();
  const call = encodeCall(3, { ...element, iface: 'org.a11y.atspi.Accessible', member: 'GetRole' });
  expect(call && replyHeader(call)).toBeUndefined();
  expect(messageLength(Buffer.alloc(15), 0)).toBeUndefined();
});

test('the header fields of a message without a body are all read, and it has no signature', () => {
  const message = reply({ signature: '', body: [] });
  expect(headerFields(message)).toEqual(
    new Map<number, string | number>([
      [5, 77],
      [6, ':1.5'],
    ]),
  );
  const call = encodeCall(3, { ...element, iface: 'org.a11y.atspi.Accessible', member: 'GetRole' });
  expect(call && headerFields(call)).toEqual(
    new Map<number, string | number>([
      [1, element.path],
      [2, 'org.a11y.atspi.Accessible'],
      [3, 'GetRole'],
      [6, element.destination],
    ]),
  );
});

import { createRequire } from 'node:module';
import * as dbus from 'dbus-next';
import { expect, test } from 'vitest';
import { encodeCall, type MethodCall } from '../../src/platforms/linux/dbus-wire.js';

// dbus-next's own encoder, which the hand-written one must match byte for byte.
const { marshallMessage } = createRequire(import.meta.url)('dbus-next/lib/marshall-compat.js') as {
  marshallMessage: (message: dbus.Message) => [Buffer, unknown[]];
};

function dbusNext(serial: number, call: MethodCall): Buffer {
  const { destination, path, iface, member, signature, body } = call;
  const message = new dbus.Message({
    destination,
    path,
    interface: iface,
    member,
    ...(signature ? { signature, body: body ?? [] } : {}),
  });
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
  ];
  for (const [i, call] of calls.entries()) {
    const serial = [1, 255, 65_537, 0xfffffffe][i % 4] ?? 1;
    expect(encodeCall(serial, call), `${call.member}`).toEqual(dbusNext(serial, call));
  }
});

test('calls it does not handle are left to dbus-next', () => {
  const base = { ...element, iface: 'org.a11y.atspi.Accessible', member: 'GetRole' };
  for (const call of [
    { ...base, signature: 'as', body: [['a']] },
    { ...base, signature: 'v', body: [1] },
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

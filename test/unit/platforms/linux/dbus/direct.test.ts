import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import * as dbus from 'dbus-next';
import { afterEach, expect, test } from 'vitest';
import { Lane } from '../../../../../src/platforms/linux/dbus/direct.js';
import { messageLength } from '../../../../../src/platforms/linux/dbus/wire.js';
import { DBusCallError } from '../../../../../src/platforms/linux/errors.js';
import { temporaryFolder } from '../../../../support/temp.js';

const { marshallMessage } = createRequire(import.meta.url)('dbus-next/lib/marshall-compat.js') as {
  marshallMessage: (message: dbus.Message) => [Buffer, unknown[]];
};

const call = {
  destination: ':1.5',
  path: '/org/a11y/atspi/accessible/7',
  iface: 'org.a11y.atspi.Accessible',
  member: 'GetRole',
};
const never = () => new Error('timed out');

function reply(to: number, fields: Partial<dbus.Message>): Buffer {
  const message = new dbus.Message({
    type: dbus.MessageType.METHOD_RETURN,
    // dbus-next's typings call the reply serial a string; it is a number on the wire.
    replySerial: to as unknown as string,
    destination: ':1.9',
    ...fields,
  });
  message.serial = 1000 + to;
  return marshallMessage(message)[0];
}

let cleanup: Array<() => void> = [];
afterEach(() => {
  for (const stop of cleanup) stop();
  cleanup = [];
});

/** A lane on a socket whose other end is `app`, answering each call with `answer(serial)`. */
async function lane(answer: (serial: number, app: Socket) => void, onOther: (m: Buffer) => void = () => {}) {
  const dir = temporaryFolder('macpilot-lane-');
  const path = join(dir, 'socket');
  const server: Server = createServer((app) => {
    let unread = Buffer.alloc(0);
    app.on('data', (chunk: Buffer) => {
      unread = Buffer.concat([unread, chunk]);
      for (let length = messageLength(unread, 0); length !== undefined && unread.length >= length;) {
        answer(unread.readUInt32LE(8), app);
        unread = unread.subarray(length);
        length = messageLength(unread, 0);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(path, resolve));
  const socket = createConnection(path);
  await new Promise((resolve) => socket.once('connect', resolve));
  cleanup.push(() => {
    socket.destroy();
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });
  let serial = 0;
  const result = new Lane(socket, () => ++serial, onOther);
  socket.on('data', (chunk: Buffer) => result.receive(chunk));
  socket.on('close', () => result.closed());
  return result;
}

test('replies come back as plain values, errors as DBusCallError with their name, in any order', async () => {
  const signal = reply(0, { type: dbus.MessageType.SIGNAL, path: '/a', interface: 'a.b', member: 'C' });
  const others: Buffer[] = [];
  const answers: Buffer[] = [];
  const l = await lane(
    (serial, app) => {
      answers.push(
        serial === 2
          ? reply(serial, {
              type: dbus.MessageType.ERROR,
              errorName: 'org.freedesktop.DBus.Error.UnknownObject',
              signature: 's',
              body: ['gone'],
            })
          : reply(serial, { signature: 'u', body: [40 + serial] }),
      );
      // Both answers at once, the second first and split across writes, with a signal between them.
      if (answers.length === 2) {
        const bytes = Buffer.concat([answers[1] as Buffer, signal, answers[0] as Buffer]);
        app.write(bytes.subarray(0, 7));
        setTimeout(() => app.write(bytes.subarray(7)), 5);
      }
    },
    (m) => others.push(m),
  );
  const first = l.send(call, 5000, never);
  const second = l.send(call, 5000, never);
  await expect(first).resolves.toEqual([41]);
  const error = await second?.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(DBusCallError);
  expect(error).toMatchObject({ type: 'org.freedesktop.DBus.Error.UnknownObject', message: 'gone' });
  expect(others).toEqual([signal]);
});

test('a call that cannot be encoded is not sent, and one left waiting when the socket closes is sent again', async () => {
  const l = await lane((_, app) => app.destroy());
  expect(l.send({ ...call, signature: 'v', body: [1] }, 5000, never)).toBeUndefined();
  await expect(l.send(call, 5000, never, async () => ['through the bus'])).resolves.toEqual([
    'through the bus',
  ]);
});

test('a call without an answer fails with its time-limit error', async () => {
  const l = await lane(() => {});
  await expect(l.send(call, 50, () => new Error('the app did not answer'))).rejects.toThrow('did not answer');
});

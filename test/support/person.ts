/**
 * A person at the test desktop's mouse and keyboard. Headless X has no physical devices, so the person gets a
 * pointer and keyboard pair of their own (XI2 XIChangeHierarchy AddMaster, as `xinput create-master` does) and
 * moves and types through that pair's XTEST devices: input from devices other than macpilot's, which is what
 * the server sees of a real mouse or keyboard. Removed again by close().
 */
import x11 from 'x11';

const ADD_MASTER = 1;
const REMOVE_MASTER = 2;
const FLOATING = 2;
const CHANGE_HIERARCHY = 43;
const SET_CLIENT_POINTER = 44;
const MASTER_POINTER = 1;

interface Connection {
  client: {
    seq_num: number;
    pack_stream: { put(data: Buffer): void; submit(flush?: boolean): void };
    require(name: string, cb: (error: Error | null, ext: Record<string, unknown>) => void): void;
    GetInputFocus(cb: (error: Error | null) => void): void;
    close(): void;
    on(event: 'error', listener: (error: Error) => void): void;
  };
  root: number;
}

interface XInputExt {
  majorOpcode: number;
  XIQueryDevice(
    id: number,
    cb: (error: Error | null, devices: { deviceId: number; use: number; name: string }[]) => void,
  ): void;
}

interface XTestExt {
  MotionNotify: number;
  KeyPress: number;
  KeyRelease: number;
  FakeInput(type: number, detail: number, time: number, wid: number, x: number, y: number): void;
}

export interface Person {
  /** The person's pointer moves to x, y (screen points); answers once the server has it. */
  move(x: number, y: number): Promise<void>;
  /** The person presses and releases a key by keycode. */
  press(keycode: number): Promise<void>;
  close(): Promise<void>;
}

const connect = (display: string) =>
  new Promise<Connection>((resolve, reject) => {
    const client = x11.createClient(
      { display },
      (error: Error | null | undefined, d: { client: unknown; screen: { root: number }[] }) =>
        error
          ? reject(error)
          : resolve({ client: d.client as Connection['client'], root: d.screen[0]?.root ?? 0 }),
    );
    client.on('error', () => {});
  });

const ext = <T>(c: Connection, name: string) =>
  new Promise<T>((resolve, reject) =>
    c.client.require(name, (error, e) => (error ? reject(error) : resolve(e as T))),
  );

const sync = (c: Connection) =>
  new Promise<void>((resolve, reject) =>
    c.client.GetInputFocus((error) => (error ? reject(error) : resolve())),
  );

function send(c: Connection, request: Buffer): void {
  c.client.seq_num++;
  c.client.pack_stream.put(request);
  c.client.pack_stream.submit();
}

function changeHierarchy(c: Connection, xinput: XInputExt, change: Buffer): void {
  const header = Buffer.alloc(8);
  header.writeUInt8(xinput.majorOpcode, 0);
  header.writeUInt8(CHANGE_HIERARCHY, 1);
  header.writeUInt16LE((8 + change.length) / 4, 2);
  header.writeUInt8(1, 4); // one change
  send(c, Buffer.concat([header, change]));
}

/** A new pointer and keyboard pair named `name`, this connection's input going through it. */
export async function personAt(display: string, name = 'macpilot person'): Promise<Person> {
  const c = await connect(display);
  const xinput = await ext<XInputExt>(c, 'xinput');
  const xtest = await ext<XTestExt>(c, 'xtest');
  const padded = Math.ceil(name.length / 4) * 4;
  const add = Buffer.alloc(8 + padded);
  add.writeUInt16LE(ADD_MASTER, 0);
  add.writeUInt16LE(add.length / 4, 2);
  add.writeUInt16LE(name.length, 4);
  add.writeUInt8(1, 6); // send core events
  add.writeUInt8(1, 7); // enable
  add.write(name, 8, 'latin1');
  changeHierarchy(c, xinput, add);
  await sync(c);
  const devices = await new Promise<{ deviceId: number; use: number; name: string }[]>((resolve, reject) =>
    xinput.XIQueryDevice(0, (error, list) => (error ? reject(error) : resolve(list))),
  );
  const pointer = devices.find((d) => d.use === MASTER_POINTER && d.name === `${name} pointer`);
  if (!pointer) throw new Error(`the X server made no pointer named "${name} pointer"`);
  const setPointer = Buffer.alloc(12);
  setPointer.writeUInt8(xinput.majorOpcode, 0);
  setPointer.writeUInt8(SET_CLIENT_POINTER, 1);
  setPointer.writeUInt16LE(3, 2);
  setPointer.writeUInt32LE(0, 4); // this client
  setPointer.writeUInt16LE(pointer.deviceId, 8);
  send(c, setPointer);
  await sync(c);
  return {
    async move(x, y) {
      xtest.FakeInput(xtest.MotionNotify, 0, 0, c.root, Math.round(x), Math.round(y));
      await sync(c);
    },
    async press(keycode) {
      xtest.FakeInput(xtest.KeyPress, keycode, 0, 0, 0, 0);
      xtest.FakeInput(xtest.KeyRelease, keycode, 0, 0, 0, 0);
      await sync(c);
    },
    async close() {
      const remove = Buffer.alloc(12);
      remove.writeUInt16LE(REMOVE_MASTER, 0);
      remove.writeUInt16LE(3, 2);
      remove.writeUInt16LE(pointer.deviceId, 4);
      remove.writeUInt8(FLOATING, 6);
      changeHierarchy(c, xinput, remove);
      await sync(c);
      c.client.close();
    },
  };
}

/** The part of the untyped `x11` package that synthetic input uses: XTEST, the keyboard map, the pointer. */
declare module 'x11' {
  type Reply<T> = (error: Error | null | undefined, result: T) => void;

  /** The XTEST extension (x11/lib/ext/xtest.js). */
  export interface XTest {
    KeyPress: number;
    KeyRelease: number;
    ButtonPress: number;
    ButtonRelease: number;
    MotionNotify: number;
    /** detail: a keycode or button; for motion 0 = absolute. wid: the root window for absolute motion. */
    FakeInput(type: number, detail: number, time: number, wid: number, x: number, y: number): void;
    GetVersion(major: number, minor: number, cb: Reply<[number, number]>): void;
  }

  export interface Pointer {
    rootX: number;
    rootY: number;
    /** Modifier and button state (Button1Mask = 0x100). */
    keyMask: number;
  }

  export interface XClient {
    display: { min_keycode: number; max_keycode: number };
    require(extension: 'xtest', cb: Reply<XTest>): void;
    /** One row of keysyms per keycode from `first`, keysyms-per-keycode long. */
    GetKeyboardMapping(first: number, count: number, cb: Reply<number[][]>): void;
    /** `keysyms`: rows of keysymsPerKeycode keysyms, flattened, one row per keycode from `first`. */
    ChangeKeyboardMapping(first: number, keysymsPerKeycode: number, keysyms: number[]): void;
    QueryPointer(window: number, cb: Reply<Pointer>): void;
    /** Eight rows (Shift, Lock, Control, Mod1-Mod5) of the keycodes that hold each modifier; 0 pads a row. */
    GetModifierMapping(cb: Reply<number[][]>): void;
  }
}

/** The XInput extension's XI2 part that the person watch uses (x11/lib/ext/xinput.js). */
declare module 'x11' {
  export interface XIDevice {
    deviceId: number;
    /** 1 master pointer, 2 master keyboard, 3 slave pointer, 4 slave keyboard, 5 floating slave. */
    use: number;
    /** A slave's master; a master's paired device. */
    attachment: number;
    name: string;
  }

  export interface XInput {
    AllDevices: number;
    AllMasterDevices: number;
    /** Undefined (null) when the server has no XI2. */
    xi2: { majorVersion: number; minorVersion: number } | null;
    XIQueryDevice(deviceId: number, cb: Reply<XIDevice[]>): void;
    XISelectEvents(window: number, masks: { deviceId: number; mask: string[] }): void;
  }

  export interface XClient {
    require(extension: 'xinput', cb: Reply<XInput>): void;
  }
}

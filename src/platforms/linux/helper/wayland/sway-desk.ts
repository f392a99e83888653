/**
 * A sway session as macpilot reaches it: the IPC for windows and outputs, a virtual pointer of its own, and
 * wtype (one process per call) for keys, since a virtual keyboard needs a keymap passed as a file descriptor.
 * A headless sway has no keyboard: wtype's first key would then reach no one while the app sets its keyboard
 * up, so while the seat has none, a wtype that types nothing keeps a keyboard on the seat for the session.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import type { Bounds } from '../../../../helper-client/protocol.js';
import { type SwayIpc, swayWindows, type SwayNode } from './sway-ipc.js';
import { VirtualPointer } from './virtual-pointer.js';

const KEYBOARD = 2;
/** How long the keyboard holder waits: as long as wtype can sleep (a 32-bit count of milliseconds). */
const FOREVER_MS = 2_147_483_647;

export class SwayDesk {
  private pointerOpening: Promise<VirtualPointer> | undefined;
  private keyboardHolder: ChildProcess | undefined;
  /** Where macpilot's pointer last went: sway reports no pointer position. */
  lastPoint: { x: number; y: number } | undefined;

  constructor(
    readonly ipc: SwayIpc,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  pointer(): Promise<VirtualPointer> {
    if (!this.pointerOpening) {
      const opening = VirtualPointer.open(this.env);
      this.pointerOpening = opening;
      opening.then(
        (pointer) => pointer.onClose(() => (this.pointerOpening = undefined)),
        () => (this.pointerOpening = undefined),
      );
    }
    return this.pointerOpening;
  }

  /** The bounding box of the active outputs: what absolute pointer motion spans. */
  async layout(): Promise<Bounds> {
    const outputs = (await this.ipc.outputs()).filter((o) => o.active);
    const left = Math.min(...outputs.map((o) => o.rect.x));
    const top = Math.min(...outputs.map((o) => o.rect.y));
    const right = Math.max(...outputs.map((o) => o.rect.x + o.rect.width));
    const bottom = Math.max(...outputs.map((o) => o.rect.y + o.rect.height));
    return outputs.length === 0
      ? { x: 0, y: 0, width: 1, height: 1 }
      : { x: left, y: top, width: right - left, height: bottom - top };
  }

  /** Makes sure the seat has a keyboard for wtype's keys to arrive whole (see above). */
  async keyboard(): Promise<void> {
    if (this.keyboardHolder && this.keyboardHolder.exitCode === null) return;
    const seats = await this.ipc.seats();
    if (seats.some((seat) => (seat.capabilities & KEYBOARD) !== 0)) return;
    // Through a shell that ends it when our end of its stdin closes: the keyboard goes with the helper,
    // however the helper ends.
    const holder = spawn('sh', ['-c', `wtype -s ${FOREVER_MS} & read -r _; kill $!`], {
      env: this.env,
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    holder.stdin?.on('error', () => {});
    holder.on('error', () => {});
    this.keyboardHolder = holder;
    const deadline = Date.now() + 1000;
    while (Date.now() < deadline) {
      const now = await this.ipc.seats();
      if (now.some((seat) => (seat.capabilities & KEYBOARD) !== 0)) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  async windows(): Promise<{ node: SwayNode; scratchpad: boolean }[]> {
    return swayWindows(await this.ipc.tree());
  }

  close(): void {
    this.keyboardHolder?.stdin?.end();
    void this.pointerOpening?.then((p) => p.close()).catch(() => {});
    this.ipc.close();
  }
}

/**
 * sway's IPC (the i3 protocol over SWAYSOCK): the layout tree with every window's rectangle, the outputs, and
 * commands (focus, move, resize, kill). One connection; replies come in the order of the requests.
 */
import { readdirSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';

const MAGIC = Buffer.from('i3-ipc');
const HEADER = MAGIC.length + 8;
const RUN_COMMAND = 0;
const GET_OUTPUTS = 3;
const GET_TREE = 4;
const GET_VERSION = 7;
const GET_SEATS = 101;

export interface SwayRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A node of sway's layout tree, with the fields macpilot reads. */
export interface SwayNode {
  id: number;
  type: 'root' | 'output' | 'workspace' | 'con' | 'floating_con';
  name: string | null;
  /** The container on the layout, decorations included. */
  rect: SwayRect;
  /** The window's content within rect. */
  window_rect: SwayRect;
  focused: boolean;
  pid?: number;
  /** "xdg_shell" for a Wayland window, "xwayland" for an X11 one. */
  shell?: string;
  app_id?: string | null;
  window_properties?: { class?: string; instance?: string; title?: string };
  nodes: SwayNode[];
  floating_nodes: SwayNode[];
}

export interface SwayOutput {
  name: string;
  active: boolean;
  focused: boolean;
  rect: SwayRect;
  scale?: number;
  make?: string;
  model?: string;
}

export interface SwaySeat {
  name: string;
  /** wl_seat capabilities: 1 pointer, 2 keyboard, 4 touch. */
  capabilities: number;
}

/** The IPC socket: SWAYSOCK, else the one sway made in XDG_RUNTIME_DIR. */
export function swaySocket(env: NodeJS.ProcessEnv): string | undefined {
  if (env.SWAYSOCK) return env.SWAYSOCK;
  const dir = env.XDG_RUNTIME_DIR;
  if (!dir) return undefined;
  try {
    const found = readdirSync(dir).find((name) => /^sway-ipc\..*\.sock$/.test(name));
    return found === undefined ? undefined : join(dir, found);
  } catch {
    return undefined;
  }
}

export class SwayIpc {
  private buffered = Buffer.alloc(0);
  private readonly waiting: { resolve: (payload: string) => void; reject: (error: Error) => void }[] = [];
  private failure: Error | undefined;
  private readonly closeListeners = new Set<(error: Error) => void>();

  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    const closed = (error?: Error) => this.fail(error ?? new Error('sway closed its IPC connection'));
    socket.on('error', closed);
    socket.on('close', () => closed());
  }

  static async open(path: string): Promise<SwayIpc> {
    const socket = await new Promise<Socket>((resolve, reject) => {
      const s = connect(path, () => resolve(s));
      s.once('error', reject);
    });
    return new SwayIpc(socket);
  }

  onClose(listener: (error: Error) => void): void {
    this.closeListeners.add(listener);
  }

  tree(): Promise<SwayNode> {
    return this.request(GET_TREE).then((text) => JSON.parse(text) as SwayNode);
  }

  outputs(): Promise<SwayOutput[]> {
    return this.request(GET_OUTPUTS).then((text) => JSON.parse(text) as SwayOutput[]);
  }

  seats(): Promise<SwaySeat[]> {
    return this.request(GET_SEATS).then((text) => JSON.parse(text) as SwaySeat[]);
  }

  version(): Promise<string> {
    return this.request(GET_VERSION).then(
      (text) => (JSON.parse(text) as { human_readable: string }).human_readable,
    );
  }

  /** Runs sway commands; a command sway refuses is an error with sway's reason. */
  async command(command: string): Promise<void> {
    const results = JSON.parse(await this.request(RUN_COMMAND, command)) as {
      success: boolean;
      error?: string;
    }[];
    const failed = results.find((r) => !r.success);
    if (failed) throw new Error(`sway refused "${command}": ${failed.error ?? 'no reason given'}`);
  }

  close(): void {
    this.socket.destroy();
  }

  private request(type: number, payload = ''): Promise<string> {
    if (this.failure) return Promise.reject(this.failure);
    const body = Buffer.from(payload, 'utf8');
    const header = Buffer.alloc(HEADER);
    MAGIC.copy(header, 0);
    header.writeUInt32LE(body.length, MAGIC.length);
    header.writeUInt32LE(type, MAGIC.length + 4);
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.socket.write(Buffer.concat([header, body]));
    });
  }

  private receive(chunk: Buffer): void {
    this.buffered = Buffer.concat([this.buffered, chunk]);
    while (this.buffered.length >= HEADER) {
      const length = this.buffered.readUInt32LE(MAGIC.length);
      if (this.buffered.length < HEADER + length) return;
      const payload = this.buffered.toString('utf8', HEADER, HEADER + length);
      this.buffered = this.buffered.subarray(HEADER + length);
      this.waiting.shift()?.resolve(payload);
    }
  }

  private fail(error: Error): void {
    if (this.failure) return;
    this.failure = error;
    this.socket.destroy();
    for (const waiter of this.waiting.splice(0)) waiter.reject(error);
    for (const listener of this.closeListeners) listener(error);
  }
}

/** Every window of the tree (leaf containers with a process), tiled and floating, scratchpad included. */
export function swayWindows(root: SwayNode): { node: SwayNode; scratchpad: boolean }[] {
  const found: { node: SwayNode; scratchpad: boolean }[] = [];
  const walk = (node: SwayNode, scratchpad: boolean) => {
    const inScratchpad = scratchpad || (node.type === 'workspace' && node.name === '__i3_scratch');
    if ((node.type === 'con' || node.type === 'floating_con') && node.pid !== undefined) {
      found.push({ node, scratchpad: inScratchpad });
    }
    // Front to back: a workspace's floating windows over its tiles, the one sway raised last (last listed) first.
    for (const child of [...[...node.floating_nodes].reverse(), ...node.nodes]) walk(child, inScratchpad);
  };
  walk(root, false);
  return found;
}

/** Where a window's content is on the layout. */
export const contentRect = (node: SwayNode): SwayRect => ({
  x: node.rect.x + node.window_rect.x,
  y: node.rect.y + node.window_rect.y,
  width: node.window_rect.width,
  height: node.window_rect.height,
});

/**
 * Recording a person's demonstration: while a recording runs, the helper sends each key press and mouse button
 * (`record.input`); each press is resolved at once, while the UI still looks as it did (the element under a
 * click, by path; the app and field keys go to), and stop folds the presses into run_workflow steps
 * (record-steps.ts). One recording at a time per server. What was typed stays in memory and in the answer of
 * stop: it is never logged.
 */
import { MacpilotError } from '../errors.js';
import type { CallOptions } from '../helper/errors.js';
import { PROTOCOL_VERSION, type AppInfo, type RecordedInput } from '../helper/protocol.js';
import { keyNamed, type Platform } from '../keys.js';
import type { Kernel } from './kernel.js';
import { parsePath } from './paths.js';
import { AppRefused } from './resolve.js';
import { type ClickTarget, foldSteps, type RecordedEvent } from './record-steps.js';
import type { RecordingResult } from './results.js';
import type { Role } from './roles.js';
import type { Walked } from './tree.js';

const MENU_ROLES: ReadonlySet<Role> = new Set(['menu', 'menuitem', 'menuitemcheckbox', 'menuitemradio']);

/** Why a press makes no step, as stop_recording reports it. */
const LEFT_OUT = {
  denied: 'in an app this server may not use',
  otherApp: 'in another app than the one recorded',
  secure: 'typed into a password field (add a set_value step for it yourself)',
  nothing: 'a click on no element of the recorded app',
} as const;

export interface RecordingStatus {
  /** The app recorded; undefined: every app. */
  app?: string;
  startedAt: number;
  /** Presses heard so far. */
  events: number;
}

interface Active {
  app?: AppInfo;
  platform: Platform;
  startedAt: number;
  events: Promise<RecordedEvent>[];
  /** Key presses and button presses heard (releases not counted). */
  presses: number;
  stopListening: () => void;
  /** Why the keys of the current run of key presses make no step, if they do not: read at its first key. */
  keysLeftOut?: Promise<string | undefined>;
  lastWasKey: boolean;
}

export class Recorder {
  private active: Active | undefined;
  private starting = false;

  constructor(private readonly kernel: Kernel) {}

  /** The recording running now, if one is. */
  get status(): RecordingStatus | undefined {
    const active = this.active;
    if (!active) return undefined;
    return { app: active.app?.name, startedAt: active.startedAt, events: active.presses };
  }

  /**
   * Starts recording every app, or only `app`; `until` ends the recording when it aborts (the session that
   * started it ended), its steps then dropped.
   */
  async start(app: string | undefined, until?: AbortSignal, call?: CallOptions): Promise<RecordingResult> {
    return this.kernel.guard('start recording', async () => {
      if (this.active || this.starting) {
        const running = this.status;
        throw new MacpilotError({
          what: 'A recording is already running',
          why: `only one recording runs at a time${running ? `, and one of ${running.app ?? 'every app'} began at ${new Date(running.startedAt).toISOString()}` : ''}`,
          next: 'call stop_recording first: it answers the steps recorded so far',
        });
      }
      const { port } = this.kernel;
      if (!port.onNotification) {
        throw new MacpilotError({
          what: 'Recording is not available',
          why: 'this helper connection sends no notifications',
          next: 'run macpilot with its own platform helper',
        });
      }
      this.starting = true;
      try {
        const recorded = app === undefined ? undefined : await this.kernel.resolver.app(app, call);
        const hello = { protocolVersion: PROTOCOL_VERSION, client: 'macpilot-recording' };
        const { platform } = await port.call('system.hello', hello, call);
        const active: Active = {
          ...(recorded ? { app: recorded } : {}),
          platform,
          startedAt: Date.now(),
          events: [],
          presses: 0,
          stopListening: () => {},
          lastWasKey: false,
        };
        active.stopListening = port.onNotification('record.input', (input) => this.heard(active, input));
        try {
          await port.call('record.start', {}, call);
        } catch (error) {
          active.stopListening();
          throw error;
        }
        this.active = active;
        until?.addEventListener('abort', () => void this.end(active).catch(() => {}), { once: true });
        return { kind: 'recording', state: 'started', ...(recorded ? { app: recorded.name } : {}) };
      } finally {
        this.starting = false;
      }
    });
  }

  /** Stops the recording and answers its steps. */
  async stop(call?: CallOptions): Promise<RecordingResult> {
    const active = this.active;
    if (!active) {
      throw new MacpilotError({
        what: 'No recording is running',
        why: 'stop_recording ends a recording that start_recording began: none did, or it already ended (a recording ends with the session that started it)',
        next: 'call start_recording, let the person do what they want recorded, then call stop_recording',
      });
    }
    const events = await this.kernel.guard('stop recording', () => this.end(active, call));
    const { steps, leftOut } = foldSteps(events);
    return {
      kind: 'recording',
      state: 'stopped',
      ...(active.app ? { app: active.app.name } : {}),
      events: events.filter((e) => e.kind !== 'release').length,
      elapsedMs: Date.now() - active.startedAt,
      steps,
      leftOut,
    };
  }

  private async end(active: Active, call?: CallOptions): Promise<RecordedEvent[]> {
    if (this.active !== active) return [];
    this.active = undefined;
    try {
      await this.kernel.port.call('record.stop', {}, call);
    } finally {
      active.stopListening();
    }
    return Promise.all(active.events);
  }

  private heard(active: Active, input: RecordedInput): void {
    const { modifiers, time } = input;
    if (input.kind !== 'buttonUp') active.presses++;
    if (input.kind === 'keyDown') {
      if (!active.lastWasKey || !active.keysLeftOut) active.keysLeftOut = this.keysGoTo(active);
      active.lastWasKey = true;
      const key = input.code === undefined ? undefined : keyNamed(input.code, active.platform);
      const text = input.text;
      active.events.push(
        active.keysLeftOut.then((leftOut) => ({
          kind: 'key',
          modifiers,
          time,
          ...(key ? { key } : {}),
          ...(text !== undefined ? { text } : {}),
          ...(leftOut ? { leftOut } : {}),
        })),
      );
      return;
    }
    active.lastWasKey = false;
    const { button, at } = input;
    if (!button || !at) return;
    if (input.kind === 'buttonUp') {
      active.events.push(Promise.resolve({ kind: 'release', button, at, time }));
      return;
    }
    const press = { kind: 'press' as const, button, at, modifiers, time };
    active.events.push(this.under(active, at).then((found) => ({ ...press, ...found })));
  }

  /** What a click at `at` landed on, or why it makes no step; nothing accessible there: the point itself. */
  private async under(
    active: Active,
    at: { x: number; y: number },
  ): Promise<{ target?: ClickTarget; leftOut?: string }> {
    try {
      const { element } = await this.kernel.port.call('ax.elementAt', at);
      if (!element) return active.app ? { leftOut: LEFT_OUT.nothing } : {};
      if (active.app && element.pid !== active.app.pid) return { leftOut: LEFT_OUT.otherApp };
      return { target: targetOf(await this.kernel.resolver.locate(element)) };
    } catch (error) {
      if (error instanceof AppRefused) return { leftOut: LEFT_OUT.denied };
      return active.app ? { leftOut: LEFT_OUT.nothing } : {};
    }
  }

  /** Why the keys now pressed make no step (a denied app, another app, a password field), if they do not. */
  private async keysGoTo(active: Active): Promise<string | undefined> {
    try {
      const { element } = await this.kernel.port.call('ax.focused', {});
      if (!element) return undefined;
      if (active.app && element.pid !== active.app.pid) return LEFT_OUT.otherApp;
      await this.kernel.resolver.app(String(element.pid));
      return element.states.includes('secure') ? LEFT_OUT.secure : undefined;
    } catch (error) {
      return error instanceof AppRefused ? LEFT_OUT.denied : undefined;
    }
  }
}

/** A located element as a click target: its path, its app, and its menu bar names when it is a menu entry. */
function targetOf(node: Walked): ClickTarget {
  const path = parsePath(node.path);
  const target: ClickTarget = {
    path: node.path,
    app: path.app,
    ...(node.info.states.includes('editable') ? { editable: true } : {}),
  };
  const bar = path.segments.findIndex((s) => s.role === 'menubar');
  if (bar < 0 || !MENU_ROLES.has(node.role)) return target;
  const names = path.segments
    .slice(bar + 1)
    .flatMap((s) => (MENU_ROLES.has(s.role) && s.name !== undefined ? [s.name] : []));
  if (names.length === 0) return target;
  return { ...target, menu: { names, opensMenu: node.role === 'menu' || node.info.childCount > 0 } };
}

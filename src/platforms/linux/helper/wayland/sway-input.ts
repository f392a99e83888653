/**
 * Synthetic input on sway: the pointer is macpilot's own virtual pointer (answered after a round trip, so sway
 * has delivered the events); keys are typed by wtype, one process per call (or per run of a long text, where a
 * cancel stops it). Operations run one at a time. Modifier keys held during a click or a drag, and keys held
 * down between calls, need one keyboard across calls, which a process per call cannot be: they are refused,
 * saying so.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import {
  HelperErrorCode,
  type Modifier,
  type Params,
  type Point,
  type Result,
} from '../../../../helper-client/protocol.js';
import { HelperFailure, typingError } from '../../errors.js';
import type { Session } from '../session.js';
import type { SwayDesk } from './sway-desk.js';
import type { Axis } from './virtual-pointer.js';
import { runToolOk } from './tools.js';
import {
  checkWheelSteps,
  glide,
  personFirstOnWayland,
  refuseBackgroundKeys,
  serial,
} from '../pointer-path.js';

const ok = {} as const;
const CLICK_GAP_MS = 40;
/** Characters each wtype types: a cancel stops the text between two runs. */
const TYPE_RUN = 64;
/** Pixels of smooth scrolling sent per frame. */
const PIXEL_STEP = 40;

/** wtype's names of the modifiers ("command" is the shortcut key, Control, on Linux). */
const WTYPE_MODIFIERS: Record<Exclude<Modifier, 'fn'>, string> = {
  command: 'ctrl',
  control: 'ctrl',
  option: 'alt',
  shift: 'shift',
  super: 'logo',
};

function noModifiers(modifiers: readonly Modifier[], what: string): void {
  if (modifiers.length === 0) return;
  throw new HelperFailure(
    HelperErrorCode.NotAvailable,
    `on sway macpilot cannot hold ${modifiers.join('+')} during a ${what}: its keys come from wtype, one process per call`,
    `${what} without modifier keys, or press the shortcut with press_key`,
  );
}

async function pointerOf(session: Session) {
  const desk = await session.sway();
  const [pointer, layout] = await Promise.all([desk.pointer(), desk.layout()]);
  return { desk, pointer, moveTo: (p: Point) => (pointer.moveTo(p, layout), (desk.lastPoint = p)) };
}

export async function click(
  session: Session,
  params: Params<'input.click'>,
  signal?: AbortSignal,
): Promise<Result<'input.click'>> {
  noModifiers(params.modifiers, 'click');
  const { desk, pointer, moveTo } = await pointerOf(session);
  return serial(
    desk,
    async () => {
      moveTo(params.at);
      for (let i = 0; i < params.count; i++) {
        if (i > 0) {
          await pointer.sync();
          await sleep(CLICK_GAP_MS, undefined, { signal });
        }
        pointer.button(params.button, true);
        pointer.button(params.button, false);
      }
      await pointer.sync();
      return ok;
    },
    signal,
  );
}

export async function move(
  session: Session,
  params: Params<'input.move'>,
  signal?: AbortSignal,
): Promise<Result<'input.move'>> {
  const { desk, pointer, moveTo } = await pointerOf(session);
  return serial(
    desk,
    async () => {
      const from = desk.lastPoint ?? params.to;
      if (params.durationMs === 0) moveTo(params.to);
      else
        await glide(
          { moveTo, sync: () => pointer.sync() },
          from,
          params.to,
          params.durationMs,
          false,
          signal,
        );
      await pointer.sync();
      return ok;
    },
    signal,
  );
}

export async function drag(
  session: Session,
  params: Params<'input.drag'>,
  signal?: AbortSignal,
): Promise<Result<'input.drag'>> {
  noModifiers(params.modifiers, 'drag');
  const { desk, pointer, moveTo } = await pointerOf(session);
  return serial(
    desk,
    async () => {
      moveTo(params.from);
      pointer.button(params.button, true);
      try {
        await glide(
          { moveTo, sync: () => pointer.sync() },
          params.from,
          params.to,
          params.durationMs,
          true,
          signal,
        );
      } finally {
        pointer.button(params.button, false);
        await pointer.sync();
      }
      return ok;
    },
    signal,
  );
}

export async function scroll(
  session: Session,
  params: Params<'input.scroll'>,
  signal?: AbortSignal,
): Promise<Result<'input.scroll'>> {
  const pixels = params.unit === 'pixel';
  checkWheelSteps(params);
  const { desk, pointer, moveTo } = await pointerOf(session);
  return serial(
    desk,
    async () => {
      moveTo(params.at);
      const turns: [Axis, number][] = [
        ['vertical', params.dy],
        ['horizontal', params.dx],
      ];
      for (const [axis, amount] of turns) {
        const direction = amount > 0 ? 1 : -1;
        if (pixels) {
          for (let left = Math.abs(amount); left > 0; left -= PIXEL_STEP) {
            signal?.throwIfAborted();
            pointer.glide(axis, direction * Math.min(PIXEL_STEP, left));
          }
        } else {
          for (let i = 0; i < Math.abs(amount); i++) {
            if (i % 16 === 0) {
              await pointer.sync();
              signal?.throwIfAborted();
            }
            pointer.wheel(axis, direction);
          }
        }
      }
      await pointer.sync();
      return ok;
    },
    signal,
  );
}

export async function pointer(session: Session): Promise<Result<'input.pointer'>> {
  const desk = await session.sway();
  if (desk.lastPoint) return { at: desk.lastPoint };
  // sway reports no pointer position: before macpilot moved it, the middle of the layout stands for it.
  const layout = await desk.layout();
  return { at: { x: Math.round(layout.x + layout.width / 2), y: Math.round(layout.y + layout.height / 2) } };
}

/** The text as wtype takes it, checked whole before anything is typed. */
function typable(text: string): string {
  const normalized = text.replaceAll('\r\n', '\n');
  [...normalized].forEach((c, i) => {
    const code = c.codePointAt(0) ?? 0;
    if (c === '\n' || c === '\t') return;
    if (code < 0x20 || (code >= 0x7f && code < 0xa0)) {
      throw new HelperFailure(
        HelperErrorCode.InvalidParams,
        `character ${i + 1} of the text is a control character (U+${code.toString(16).padStart(4, '0')}), which no key types`,
        'type text without control characters; press_key presses keys such as backspace or escape',
      );
    }
  });
  return normalized;
}

/**
 * Keys into an X11 app go through XWayland, which takes in the keymap each wtype run uploads a moment late: the
 * first key of a run was lost or doubled, and the rest reached the app spread out after wtype ended (measured
 * here, seven BackSpaces read just after the answer: during the whole Wayland suite 4 of 16 tries still missed
 * some, the last arriving 20 to 95 ms later; alone, 0 of 24). Such a run waits keymapMs after the upload
 * (wtype's -s, before the keys) and deliveryMs after wtype ends.
 */
const XWAYLAND = { keymapMs: 40, deliveryMs: 150 } as const;

/** Whether the keys go to an X11 app: the focused window is XWayland's. */
async function toXWayland(desk: SwayDesk): Promise<boolean> {
  const focused = (await desk.windows().catch(() => [])).find((w) => w.node.focused);
  return focused?.node.shell === 'xwayland';
}

/** A wtype run, with XWayland's waits when the keys go to an X11 app. */
async function wtype(session: Session, args: string[], x11: boolean, signal?: AbortSignal): Promise<void> {
  await runToolOk('wtype', [...(x11 ? ['-s', String(XWAYLAND.keymapMs)] : []), ...args], session.env, {
    signal,
  });
  if (x11) await sleep(XWAYLAND.deliveryMs, undefined, { signal });
}

export async function type(
  session: Session,
  params: Params<'input.type'>,
  signal?: AbortSignal,
): Promise<Result<'input.type'>> {
  const characters = [...typable(params.text)];
  const desk = await session.sway();
  return serial(
    desk,
    async () => {
      await desk.keyboard();
      const x11 = await toXWayland(desk);
      let typed = 0;
      const run = params.delayMs > 0 ? 1 : TYPE_RUN;
      try {
        while (typed < characters.length) {
          signal?.throwIfAborted();
          const part = characters.slice(typed, typed + run).join('');
          await wtype(session, ['--', part], x11, signal);
          typed += [...part].length;
          if (params.delayMs > 0) await sleep(params.delayMs, undefined, { signal });
        }
      } catch (error) {
        throw typingError(error, typed, signal);
      }
      return { typed };
    },
    signal,
  );
}

const modifierArgs = (modifiers: readonly Modifier[]): [string[], string[]] => {
  const names = [
    ...new Set(
      modifiers.filter((m): m is Exclude<Modifier, 'fn'> => m !== 'fn').map((m) => WTYPE_MODIFIERS[m]),
    ),
  ];
  return [names.flatMap((n) => ['-M', n]), names.reverse().flatMap((n) => ['-m', n])];
};

export async function key(
  session: Session,
  params: Params<'input.key'>,
  signal?: AbortSignal,
): Promise<Result<'input.key'>> {
  if (params.pid !== undefined) refuseBackgroundKeys('Wayland');
  const desk = await session.sway();
  const [press, release] = modifierArgs(params.modifiers);
  const keysym = `0x${params.code.toString(16)}`;
  const strokes = Array.from({ length: params.repeat }, () => ['-k', keysym]).flat();
  return serial(
    desk,
    async () => {
      await desk.keyboard();
      await wtype(session, [...press, ...strokes, ...release], await toXWayland(desk), signal);
      return ok;
    },
    signal,
  );
}

export async function button(
  session: Session,
  params: Params<'input.button'>,
  signal?: AbortSignal,
): Promise<Result<'input.button'>> {
  const { desk, pointer, moveTo } = await pointerOf(session);
  return serial(
    desk,
    async () => {
      if (params.at) moveTo(params.at);
      pointer.button(params.button, params.down);
      await pointer.sync();
      return ok;
    },
    params.down ? signal : undefined,
  );
}

export async function hold(): Promise<Result<'input.hold'>> {
  throw new HelperFailure(
    HelperErrorCode.NotAvailable,
    'on sway macpilot cannot hold a key down between calls: its keys come from wtype, one process per call',
    'press the whole shortcut at once with press_key (modifiers included)',
  );
}

export const personFirst = personFirstOnWayland;

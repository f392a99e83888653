/**
 * Synthetic input on a RemoteDesktop desk (Mutter's own, or the portal's): keys by keysym (the compositor finds
 * the key, or lends one, under the current layout), the pointer by absolute motion on a monitor's stream, buttons and
 * wheel steps. Unlike wtype's one process per call, the session's keyboard lasts: modifiers are held around a
 * click or a drag, and a key may stay down between calls. Operations run one at a time.
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
import { keysymsOf, MODIFIER_KEYSYMS } from '../keysyms.js';
import {
  checkHoldTarget,
  checkWheelSteps,
  glide,
  personFirstOnWayland,
  refuseBackgroundKeys,
  serial,
} from '../pointer-path.js';
import type { Session } from '../session.js';
import type { RemoteDesk } from './remote-desk.js';

const ok = {} as const;
const CLICK_GAP_MS = 40;
/**
 * Mutter hands RemoteDesktop's events to its input thread, which delivers them after the call has answered:
 * an answer waits this long, so that the app has the events when the next call reads it.
 */
const DELIVERY_MS = 30;

const delivered = () => sleep(DELIVERY_MS);

/** Keysyms of the modifiers, each once. */
const modifierKeysyms = (modifiers: readonly Modifier[]): number[] => [
  ...new Set(
    modifiers.filter((m): m is Exclude<Modifier, 'fn'> => m !== 'fn').map((m) => MODIFIER_KEYSYMS[m]),
  ),
];

/** Runs `inside` with the modifiers held, releasing them however it ends. */
async function holding<T>(
  desk: RemoteDesk,
  modifiers: readonly Modifier[],
  inside: () => Promise<T>,
): Promise<T> {
  const keysyms = modifierKeysyms(modifiers);
  for (const keysym of keysyms) await desk.keysym(keysym, true);
  try {
    return await inside();
  } finally {
    for (const keysym of [...keysyms].reverse()) await desk.keysym(keysym, false).catch(() => {});
  }
}

export async function click(
  session: Session,
  params: Params<'input.click'>,
  signal?: AbortSignal,
): Promise<Result<'input.click'>> {
  const desk = await session.remoteDesk();
  return serial(
    desk,
    () =>
      holding(desk, params.modifiers, async () => {
        await desk.moveTo(params.at);
        for (let i = 0; i < params.count; i++) {
          if (i > 0) await sleep(CLICK_GAP_MS, undefined, { signal });
          await desk.button(params.button, true);
          await desk.button(params.button, false);
        }
        await delivered();
        return ok;
      }),
    signal,
  );
}

/** The device glide() moves: each step awaited, so nothing is sent after a cancel. */
const mover = (desk: RemoteDesk) => {
  let pending = Promise.resolve();
  return {
    moveTo: (p: Point) => {
      pending = pending.then(() => desk.moveTo(p));
    },
    sync: () => pending,
  };
};

export async function move(
  session: Session,
  params: Params<'input.move'>,
  signal?: AbortSignal,
): Promise<Result<'input.move'>> {
  const desk = await session.remoteDesk();
  return serial(
    desk,
    async () => {
      const from = desk.lastPoint ?? params.to;
      if (params.durationMs === 0) await desk.moveTo(params.to);
      else await glide(mover(desk), from, params.to, params.durationMs, false, signal);
      await delivered();
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
  const desk = await session.remoteDesk();
  return serial(
    desk,
    () =>
      holding(desk, params.modifiers, async () => {
        await desk.moveTo(params.from);
        await desk.button(params.button, true);
        try {
          await glide(mover(desk), params.from, params.to, params.durationMs, true, signal);
        } finally {
          await desk.button(params.button, false);
        }
        await delivered();
        return ok;
      }),
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
  const desk = await session.remoteDesk();
  return serial(
    desk,
    async () => {
      await desk.moveTo(params.at);
      if (pixels) await desk.glide(params.dx, params.dy);
      else {
        for (const [axis, steps] of [
          ['vertical', params.dy],
          ['horizontal', params.dx],
        ] as const) {
          const direction = Math.sign(steps);
          for (let i = 0; i < Math.abs(steps); i++) {
            signal?.throwIfAborted();
            await desk.wheel(axis, direction);
          }
        }
      }
      await delivered();
      return ok;
    },
    signal,
  );
}

export async function pointer(session: Session): Promise<Result<'input.pointer'>> {
  const desk = await session.remoteDesk();
  if (desk.lastPoint) return { at: desk.lastPoint };
  // Mutter tells other programs nothing of the pointer: before macpilot moved it, the primary monitor's middle
  // stands for it.
  const monitors = await desk.shell.monitors();
  const { bounds } = monitors.find((m) => m.primary) ??
    monitors[0] ?? { bounds: { x: 0, y: 0, width: 0, height: 0 } };
  return { at: { x: Math.round(bounds.x + bounds.width / 2), y: Math.round(bounds.y + bounds.height / 2) } };
}

export async function type(
  session: Session,
  params: Params<'input.type'>,
  signal?: AbortSignal,
): Promise<Result<'input.type'>> {
  const keysyms = keysymsOf(params.text);
  const desk = await session.remoteDesk();
  return serial(
    desk,
    async () => {
      let typed = 0;
      try {
        for (const keysym of keysyms) {
          signal?.throwIfAborted();
          await desk.keysym(keysym, true);
          await desk.keysym(keysym, false);
          typed++;
          if (params.delayMs > 0) await sleep(params.delayMs, undefined, { signal });
        }
      } catch (error) {
        throw typingError(error, typed, signal);
      }
      await delivered();
      return { typed };
    },
    signal,
  );
}

export async function key(
  session: Session,
  params: Params<'input.key'>,
  signal?: AbortSignal,
): Promise<Result<'input.key'>> {
  if (params.pid !== undefined) refuseBackgroundKeys('Wayland');
  const desk = await session.remoteDesk();
  return serial(
    desk,
    () =>
      holding(desk, params.modifiers, async () => {
        for (let i = 0; i < params.repeat; i++) {
          signal?.throwIfAborted();
          await desk.keysym(params.code, true);
          await desk.keysym(params.code, false);
        }
        await delivered();
        return ok;
      }),
    signal,
  );
}

export async function button(
  session: Session,
  params: Params<'input.button'>,
  signal?: AbortSignal,
): Promise<Result<'input.button'>> {
  const desk = await session.remoteDesk();
  return serial(
    desk,
    async () => {
      if (params.at) await desk.moveTo(params.at);
      await desk.button(params.button, params.down);
      await delivered();
      return ok;
    },
    params.down ? signal : undefined,
  );
}

export async function hold(
  session: Session,
  params: Params<'input.hold'>,
  signal?: AbortSignal,
): Promise<Result<'input.hold'>> {
  checkHoldTarget(params);
  const keysym = params.modifier === undefined ? params.code : modifierKeysyms([params.modifier])[0];
  if (keysym === undefined) {
    throw new HelperFailure(
      HelperErrorCode.InvalidParams,
      'fn is no key a program can press on Linux',
      'leave fn out; press the key fn would produce (e.g. "pageup" for fn+up)',
    );
  }
  const desk = await session.remoteDesk();
  return serial(
    desk,
    async () => {
      await desk.keysym(keysym, params.down);
      await delivered();
      return ok;
    },
    params.down ? signal : undefined,
  );
}

export const personFirst = personFirstOnWayland;

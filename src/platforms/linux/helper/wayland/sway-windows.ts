/**
 * windows.* on sway: its layout tree's windows, and commands by container id. sway has no minimized state: a
 * window in the scratchpad is the nearest thing, and is listed as minimized. Moving or sizing a tiled window
 * makes it floating first (tiles are placed by the layout). Every operation waits (bounded) until sway shows it
 * applied, then answers with a fresh read.
 */
import {
  HelperErrorCode,
  type Params,
  type Result,
  type WindowInfo,
} from '../../../../helper-client/protocol.js';
import { appNamesByPid } from '../apps.js';
import { HelperFailure } from '../../errors.js';
import type { Session } from '../session.js';
import { until } from '../until.js';
import { existingWindow } from '../desk-checks.js';
import type { SwayDesk } from './sway-desk.js';
import type { SwayNode } from './sway-ipc.js';

const APPLY_WAIT_MS = 2000;

type Listed = { node: SwayNode; scratchpad: boolean };

function info(window: Listed, appNames: Map<number, string>): WindowInfo {
  const { node } = window;
  const pid = node.pid ?? 0;
  return {
    id: String(node.id),
    pid,
    app: appNames.get(pid) ?? node.app_id ?? node.window_properties?.instance ?? '',
    title: node.name ?? '',
    bounds: node.rect,
    minimized: window.scratchpad,
    focused: node.focused,
  };
}

export async function listWindows(
  session: Session,
  params: Params<'windows.list'>,
): Promise<Result<'windows.list'>> {
  const desk = await session.sway();
  const [listed, names] = await Promise.all([desk.windows(), appNamesByPid(session)]);
  const windows = listed
    .map((w) => info(w, names))
    .filter(
      (w) => (params.pid === undefined || w.pid === params.pid) && (params.includeMinimized || !w.minimized),
    );
  return { windows };
}

async function find(desk: SwayDesk, id: string): Promise<Listed | undefined> {
  return (await desk.windows()).find((w) => String(w.node.id) === id);
}

const existing = (desk: SwayDesk, id: string): Promise<Listed> => existingWindow(id, () => find(desk, id));

async function operate(
  session: Session,
  id: string,
  command: string,
  applied: (window: Listed) => boolean,
  signal: AbortSignal | undefined,
): Promise<{ window: WindowInfo }> {
  const desk = await session.sway();
  await existing(desk, id);
  await desk.ipc.command(`[con_id=${id}] ${command}`).catch((error: Error) => {
    throw new HelperFailure(HelperErrorCode.Failed, error.message, 'list the windows and try again');
  });
  await until(
    async () => {
      const now = await find(desk, id);
      return now !== undefined && applied(now);
    },
    APPLY_WAIT_MS,
    signal,
  );
  const now = await existing(desk, id);
  return { window: info(now, await appNamesByPid(session)) };
}

export const focusWindow = (session: Session, params: Params<'windows.focus'>, signal?: AbortSignal) =>
  operate(session, params.id, 'focus', (w) => w.node.focused, signal);

export const moveWindow = (session: Session, params: Params<'windows.move'>, signal?: AbortSignal) =>
  operate(
    session,
    params.id,
    `floating enable, move position ${Math.round(params.to.x)} ${Math.round(params.to.y)}`,
    (w) => w.node.rect.x === Math.round(params.to.x) && w.node.rect.y === Math.round(params.to.y),
    signal,
  );

export const resizeWindow = (session: Session, params: Params<'windows.resize'>, signal?: AbortSignal) =>
  operate(
    session,
    params.id,
    `floating enable, resize set width ${params.width} px height ${params.height} px`,
    (w) => w.node.rect.width === params.width && w.node.rect.height === params.height,
    signal,
  );

export const minimizeWindow = (session: Session, params: Params<'windows.minimize'>, signal?: AbortSignal) =>
  operate(session, params.id, 'move scratchpad', (w) => w.scratchpad, signal);

export const restoreWindow = (session: Session, params: Params<'windows.restore'>, signal?: AbortSignal) =>
  operate(session, params.id, 'scratchpad show, focus', (w) => !w.scratchpad && w.node.focused, signal);

export async function closeWindow(
  session: Session,
  params: Params<'windows.close'>,
  signal?: AbortSignal,
): Promise<Result<'windows.close'>> {
  const desk = await session.sway();
  await existing(desk, params.id);
  await desk.ipc.command(`[con_id=${params.id}] kill`);
  const closed = await until(async () => (await find(desk, params.id)) === undefined, APPLY_WAIT_MS, signal);
  return { closed };
}

/** The method table: each protocol method's handler, given parsed params. */
import {
  HelperErrorCode,
  type MethodName,
  type Params,
  type Result,
} from '../../../helper-client/protocol.js';
import { elementDetail, perform, scrollIntoView, setValue } from './atspi/actions.js';
import { focus } from './atspi/focus.js';
import { activate, launch, listApps, quit } from './apps.js';
import { getState } from './atspi/atspi.js';
import { clipboardOf } from './x11/clipboard.js';
import type { ReadContext } from './atspi/element.js';
import { DBusCallError, elementGone, goneOr, HelperFailure, isGone } from '../errors.js';
import { startObserving } from './atspi/events.js';
import { watchClipboard } from './x11/clipboard-watch.js';
import { selectionOwner } from './x11/selection-owner.js';
import { parseHandle } from './atspi/handles.js';
import { hello } from './hello.js';
import { placesOf } from './desk.js';
import * as input from './x11/input.js';
import * as swayInput from './wayland/sway-input.js';
import * as swayScreen from './wayland/sway-screen.js';
import * as swayWindows from './wayland/sway-windows.js';
import * as wlClipboard from './wayland/wl-clipboard.js';
import * as gnomeClipboard from './gnome/gnome-clipboard.js';
import * as remoteInput from './remote/remote-input.js';
import * as remoteScreen from './remote/remote-screen.js';
import * as remoteWindows from './remote/remote-windows.js';
import { elementAt, focused } from './atspi/locate.js';
import { startRecording, stopRecording } from './x11/record.js';
import { capture, displays } from './x11/screen.js';
import type { Session } from './session.js';
import { ancestors, snapshot } from './atspi/tree.js';
import { FrameOffsets } from './atspi/windows.js';
import {
  closeWindow,
  focusWindow,
  listWindows,
  minimizeWindow,
  moveWindow,
  resizeWindow,
  restoreWindow,
} from './x11/window-ops.js';

/** `signal` aborts when the server cancels the request: long work stops between its steps. */
type Handler<M extends MethodName> = (
  session: Session,
  params: Params<M>,
  signal: AbortSignal,
) => Promise<Result<M>>;
type Handlers = { [M in MethodName]: Handler<M> };

/**
 * A method done one way on X11, another on sway and another on the RemoteDesktop desks (GNOME, KDE Plasma),
 * picked by the session's display server; where the RemoteDesktop desks' is not given, the Wayland one sway
 * uses, and where KDE's is not given, GNOME's.
 */
const perDesk =
  <M extends MethodName>(
    x11: Handler<M>,
    sway: Handler<M>,
    gnome: Handler<M> = sway,
    kde: Handler<M> = gnome,
  ): Handler<M> =>
  (session, params, signal) =>
    ({ x11, sway, gnome, kde })[session.desk](session, params, signal);

/** Whether a handle still names an object with the Accessible interface. */
async function exists(session: Session, handle: string): Promise<boolean> {
  try {
    await getState(await session.a11y(), parseHandle(handle));
    return true;
  } catch {
    return false;
  }
}

/**
 * Any D-Bus "no such object or app" while working on a handle means the element is gone; so does any other
 * D-Bus refusal from an object that turns out not to be an element.
 */
async function on<T>(session: Session, handle: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof DBusCallError && !isGone(error) && !(await exists(session, handle))) {
      throw elementGone();
    }
    return goneOr(error);
  }
}

async function context(session: Session): Promise<ReadContext> {
  const bus = await session.a11y();
  return { bus, session, offsets: new FrameOffsets(bus, (pid) => placesOf(session, pid).catch(() => [])) };
}

/** On Linux the server reads text itself (tesseract.js, src/platforms/linux/ocr): the helper has no OCR. */
async function noTextRecognition(): Promise<never> {
  throw new HelperFailure(
    HelperErrorCode.NotAvailable,
    'the Linux helper does not read text from images: on Linux the macpilot server does (tesseract.js)',
    'use read_text, which runs OCR in the server',
  );
}

/** A Wayland client hears no other client's input: there is nothing to record the person's input from. */
async function noRecordingOnWayland(): Promise<never> {
  throw new HelperFailure(
    HelperErrorCode.NotAvailable,
    "on Wayland no client can hear the input meant for other apps, so macpilot cannot record the person's input",
    'record in an X11 session, or write the workflow steps by hand',
  );
}

/** A Wayland compositor tells no client who owns the clipboard or the primary selection. */
async function unknownOwner(): Promise<Result<'clipboard.owner'>> {
  return { known: false };
}

export const handlers: Handlers = {
  'system.hello': (session) => hello(session),
  'apps.list': async (session) => ({ apps: await listApps(session) }),
  'apps.launch': (session, params) => launch(session, params),
  'apps.activate': (session, params) => activate(session, params.pid),
  'apps.quit': (session, params) => quit(session, params),
  'ax.snapshot': (session, params, signal) =>
    on(session, params.root, async () => snapshot({ ...(await context(session)), signal }, params)),
  'ax.element': (session, params) =>
    on(session, params.id, async () => ({
      element: await elementDetail(await context(session), parseHandle(params.id), params.maxValueLength),
    })),
  'ax.ancestors': (session, params) =>
    on(session, params.id, async () => ({
      ancestors: await ancestors(await context(session), parseHandle(params.id)),
    })),
  'ax.focused': async (session, params) => ({ element: await focused(await context(session), params.pid) }),
  'ax.elementAt': async (session, params) => ({ element: await elementAt(await context(session), params) }),
  'ax.perform': (session, params, signal) =>
    on(session, params.id, async () =>
      perform(
        { ...(await context(session)), signal },
        parseHandle(params.id),
        params.action,
        params.background,
      ),
    ),
  'ax.setValue': (session, params, signal) =>
    on(session, params.id, async () =>
      setValue({ ...(await context(session)), signal }, parseHandle(params.id), params.value),
    ),
  'ax.focus': (session, params, signal) =>
    on(session, params.id, async () =>
      focus({ ...(await context(session)), signal }, parseHandle(params.id)),
    ),
  'observe.start': (session) => startObserving(session),
  'ax.scrollIntoView': (session, params) =>
    on(session, params.id, async () => scrollIntoView(await context(session), parseHandle(params.id))),
  'input.click': perDesk(input.click, swayInput.click, remoteInput.click),
  'input.move': perDesk(input.move, swayInput.move, remoteInput.move),
  'input.drag': perDesk(input.drag, swayInput.drag, remoteInput.drag),
  'input.scroll': perDesk(input.scroll, swayInput.scroll, remoteInput.scroll),
  'input.pointer': perDesk(input.pointer, swayInput.pointer, remoteInput.pointer),
  'input.type': perDesk(input.type, swayInput.type, remoteInput.type),
  'input.key': perDesk(input.key, swayInput.key, remoteInput.key),
  'input.button': perDesk(input.button, swayInput.button, remoteInput.button),
  'input.hold': perDesk(input.hold, swayInput.hold, remoteInput.hold),
  'input.personFirst': perDesk(input.personFirst, swayInput.personFirst, remoteInput.personFirst),
  'screen.displays': perDesk(displays, swayScreen.displays, remoteScreen.displays),
  'screen.capture': perDesk(capture, swayScreen.capture, remoteScreen.capture),
  'screen.recognizeText': noTextRecognition,
  'clipboard.read': perDesk(
    async (session) => (await clipboardOf(session)).read(),
    wlClipboard.read,
    gnomeClipboard.read,
    wlClipboard.read,
  ),
  'clipboard.write': perDesk(
    async (session, params) => (await clipboardOf(session)).write(params.text),
    (session, params) => wlClipboard.write(session, params.text),
    (session, params) => gnomeClipboard.write(session, params.text),
    (session, params) => wlClipboard.write(session, params.text),
  ),
  'clipboard.clear': perDesk(
    async (session) => (await clipboardOf(session)).clear(),
    wlClipboard.clear,
    gnomeClipboard.clear,
    wlClipboard.clear,
  ),
  'clipboard.watch': perDesk(watchClipboard, wlClipboard.watch, gnomeClipboard.watch, wlClipboard.watch),
  'clipboard.owner': perDesk(selectionOwner, unknownOwner),
  'record.start': perDesk(startRecording, noRecordingOnWayland),
  'record.stop': (session) => stopRecording(session),
  'windows.list': perDesk(listWindows, swayWindows.listWindows, remoteWindows.listWindows),
  'windows.focus': perDesk(focusWindow, swayWindows.focusWindow, remoteWindows.focusWindow),
  'windows.move': perDesk(moveWindow, swayWindows.moveWindow, remoteWindows.moveWindow),
  'windows.resize': perDesk(resizeWindow, swayWindows.resizeWindow, remoteWindows.resizeWindow),
  'windows.minimize': perDesk(minimizeWindow, swayWindows.minimizeWindow, remoteWindows.minimizeWindow),
  'windows.restore': perDesk(restoreWindow, swayWindows.restoreWindow, remoteWindows.restoreWindow),
  'windows.close': perDesk(closeWindow, swayWindows.closeWindow, remoteWindows.closeWindow),
};

/** The method table: each protocol method's handler, given parsed params. */
import {
  HelperErrorCode,
  type MethodName,
  type Params,
  type Result,
} from '../../../helper-client/protocol.js';
import { elementDetail, perform, setValue } from './atspi/actions.js';
import { focus } from './atspi/focus.js';
import { activate, launch, listApps, quit } from './apps.js';
import { getState } from './atspi/atspi.js';
import { clipboardOf } from './x11/clipboard.js';
import type { ReadContext } from './atspi/element.js';
import { DBusCallError, elementGone, goneOr, HelperFailure, isGone } from '../errors.js';
import { startObserving } from './atspi/events.js';
import { watchClipboard } from './x11/clipboard-watch.js';
import { parseHandle } from './atspi/handles.js';
import { hello } from './hello.js';
import * as input from './x11/input.js';
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
      throw elementGone(handle);
    }
    return goneOr(handle, error);
  }
}

async function context(session: Session): Promise<ReadContext> {
  const [bus, x11] = await Promise.all([session.a11y(), session.x11IfAny()]);
  return { bus, session, offsets: new FrameOffsets(bus, x11) };
}

/** AT-SPI's Component.ScrollTo is missing from GTK3, so the engine scrolls with the wheel instead. */
async function noScrollIntoView(): Promise<never> {
  throw new HelperFailure(
    HelperErrorCode.NotAvailable,
    'the Linux helper cannot scroll an element into view through AT-SPI',
    'use scroll_to_element, which scrolls with the mouse wheel',
  );
}

/** On Linux the server reads text itself (tesseract.js, src/platforms/linux/ocr): the helper has no OCR. */
async function noTextRecognition(): Promise<never> {
  throw new HelperFailure(
    HelperErrorCode.NotAvailable,
    'the Linux helper does not read text from images: on Linux the macpilot server does (tesseract.js)',
    'use read_text, which runs OCR in the server',
  );
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
  'ax.scrollIntoView': noScrollIntoView,
  'input.click': (session, params, signal) => input.click(session, params, signal),
  'input.move': (session, params, signal) => input.move(session, params, signal),
  'input.drag': (session, params, signal) => input.drag(session, params, signal),
  'input.scroll': (session, params, signal) => input.scroll(session, params, signal),
  'input.pointer': (session) => input.pointer(session),
  'input.type': (session, params, signal) => input.type(session, params, signal),
  'input.key': (session, params, signal) => input.key(session, params, signal),
  'input.button': (session, params, signal) => input.button(session, params, signal),
  'input.hold': (session, params, signal) => input.hold(session, params, signal),
  'input.personFirst': (session, params) => input.personFirst(session, params),
  'screen.displays': (session) => displays(session),
  'screen.capture': (session, params) => capture(session, params),
  'screen.recognizeText': noTextRecognition,
  'clipboard.read': async (session) => (await clipboardOf(session)).read(),
  'clipboard.write': async (session, params) => (await clipboardOf(session)).write(params.text),
  'clipboard.clear': async (session) => (await clipboardOf(session)).clear(),
  'clipboard.watch': (session) => watchClipboard(session),
  'record.start': (session) => startRecording(session),
  'record.stop': (session) => stopRecording(session),
  'windows.list': listWindows,
  'windows.focus': focusWindow,
  'windows.move': moveWindow,
  'windows.resize': resizeWindow,
  'windows.minimize': minimizeWindow,
  'windows.restore': restoreWindow,
  'windows.close': closeWindow,
};

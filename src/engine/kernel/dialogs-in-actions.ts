/**
 * Dialogs an app runs inside the accessibility action that opened them. GTK3 runs a modal dialog's loop
 * (gtk_dialog_run) inside the handler of the button that opens it, and at-spi2-atk runs a DoAction inside its
 * handling of the call that asked for it. While that dialog is open, every key the app receives makes its
 * accessibility bridge wait on the very call the dialog runs in, and the app hangs for good (measured: gtk3-demo's
 * Interactive Dialog opened by its button's action, then Escape; the main thread waits in dbus_connection_dispatch
 * under gtk_dialog_run under DoAction's handler). A person's click does not go through the bridge, nor does an
 * element's own action: only keys are refused, until the dialog closes.
 */
import { MacpilotError } from '../../errors.js';
import type { CallOptions } from '../../helper-client/errors.js';
import type { HelperPort } from './port.js';
import type { Change } from './results.js';

interface Held {
  app: string;
  title: string;
}

/** What a key refused for such a dialog is told to do instead. */
const INSTEAD =
  'fill and close the dialog through its elements: set_value on its fields (or type_text with ref and background: true), click_element on its buttons';

export class DialogsInActions {
  private readonly held = new Map<number, Held>();

  /** The dialog an element's own action opened, noted for its app. */
  note(app: { pid: number; name: string }, title: string): void {
    this.held.set(app.pid, { app: app.name, title });
  }

  /**
   * Refuses a key when the window with the keyboard focus belongs to an app that runs such a dialog, and the dialog
   * is still open; forgets dialogs that closed.
   */
  async refuseKeys(port: HelperPort, call?: CallOptions): Promise<void> {
    if (this.held.size === 0) return;
    const { windows } = await port.call('windows.list', { includeMinimized: true }, call);
    for (const [pid, { title }] of this.held) {
      if (!windows.some((w) => w.pid === pid && w.title === title)) this.held.delete(pid);
    }
    const pid = windows.find((w) => w.focused)?.pid;
    const held = pid === undefined ? undefined : this.held.get(pid);
    if (!held) return;
    throw new MacpilotError({
      what: `Not done: a key now would hang ${held.app} (pid ${pid})`,
      why: `its dialog ${JSON.stringify(held.title)} runs inside the accessibility action that opened it, and while it is open the app's accessibility bridge cannot take a key without waiting on itself for good`,
      next: INSTEAD,
      kind: 'keys_would_hang_app',
      refusal: true,
      person: {
        next: 'close the dialog with a click (`macpilot click <path>` on its buttons), or set its fields with `macpilot set <path> <value>`',
      },
    });
  }
}

/** The title of the modal dialog among an action's changes, if one opened. */
export const modalOpened = (changes: readonly Change[]): string | undefined =>
  changes.find((c) => c.kind === 'opened' && c.node.info.states.includes('modal'))?.node.info.name;

/** The answer's note when an element's own action opened such a dialog. */
export const dialogInActionNote = (title: string): string =>
  `The app runs the dialog ${JSON.stringify(title)} inside that action: until it closes, a key the app receives (an agent's or the person's) hangs it for good, so macpilot refuses keys to it; ${INSTEAD}.`;

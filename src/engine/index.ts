/**
 * The engine, assembled: the kernel and the features built on it, each given what it needs. What the front ends
 * (MCP tools, resources, the CLI) use; nothing under src/engine imports this file.
 */
import { Apps } from './features/apps.js';
import { Asserts } from './testing/assert.js';
import { Audits } from './testing/accessibility-audit.js';
import { AppStates } from './features/app-state.js';
import { CHANGE_DEFAULTS, type ChangeSettings } from './kernel/changes.js';
import { Clipboard } from './features/clipboard.js';
import { ClipboardHistory } from './features/clipboard-history.js';
import { Elements } from './features/elements.js';
import { ChangeFeed } from './kernel/feed.js';
import { Observations } from './features/observe.js';
import { HeldInput } from './features/held-input.js';
import { Input, type LongestAction } from './features/input.js';
import { Kernel } from './kernel/kernel.js';
import { Menus } from './features/menus.js';
import { Recorder } from './features/recording.js';
import type { HelperPort } from './kernel/port.js';
import { RefTable } from './kernel/refs.js';
import { type AppChooser, type AppGate, AppRefused } from './kernel/resolve.js';
import { Reveal } from './features/reveal.js';
import { Screen } from './features/screen.js';
import { VisualDiffs } from './testing/visual-diff.js';
import { Visual } from './features/visual.js';
import { ScreenText } from './features/screen-text.js';
import { helperRecognizer, type TextRecognizer } from './reading/text-recognizer.js';
import { UiReader } from './features/ui-reading.js';
import { Waits } from './features/wait.js';
import { Windows } from './features/windows.js';

export type EngineOptions = Partial<ChangeSettings> & {
  /** How many refs stay bound to their elements, and how many more are remembered by path. */
  refLimits?: { live: number; retired: number };
  /** Keep the texts the clipboard held (default true; MACPILOT_CLIPBOARD_HISTORY). */
  clipboardHistory?: boolean;
  /** Where the setting that turned clipboard history off was given, for the answer that says it is off. */
  clipboardHistoryOffBy?: string;
  /** What reads text on screen; default: the helper (Vision on macOS). */
  recognizer?: TextRecognizer;
  /** Paint black in captures the windows of apps the person's app lists hide (default false). */
  blackOutHidden?: boolean;
  /** The longest one action may be asked to take, and the setting that says so; default 60 s. */
  longestAction?: LongestAction;
  /**
   * Why the call in progress must leave the pointer and the keyboard focus to the person (MACPILOT_INPUT, a
   * call's background argument); undefined when it may use them. Default: never background.
   */
  background?: () => string | undefined;
  /** How the person lets agents use the pointer and the focus again ("set MACPILOT_INPUT=foreground ..."). */
  foregroundAgain?: string;
  /** The person's own mouse and keyboard input stops the agent's (MACPILOT_PERSON_FIRST); default false. */
  personFirst?: boolean;
};

export interface Engine {
  readonly kernel: Kernel;
  readonly elements: Elements;
  readonly apps: Apps;
  readonly input: Input;
  /** Buttons and keys held down across calls, by session. */
  readonly held: HeldInput;
  readonly windows: Windows;
  readonly screen: Screen;
  readonly visual: Visual;
  readonly text: ScreenText;
  readonly clipboard: Clipboard;
  readonly menus: Menus;
  readonly waits: Waits;
  readonly reveal: Reveal;
  readonly states: AppStates;
  readonly feed: ChangeFeed;
  readonly observations: Observations;
  readonly asserts: Asserts;
  readonly visualDiffs: VisualDiffs;
  readonly audits: Audits;
  readonly recorder: Recorder;
  /** Frees what the engine keeps warm (the OCR workers). */
  close(): Promise<void>;
}

/**
 * An engine over `port`; `gate` refuses the apps the call in progress may not use (absent: none refused);
 * `choose` asks the human which app an ambiguous name means (absent: the error lists the candidates).
 */
export function createEngine(
  port: HelperPort,
  options: EngineOptions = {},
  gate?: AppGate,
  choose?: AppChooser,
): Engine {
  const {
    refLimits,
    clipboardHistory = true,
    clipboardHistoryOffBy,
    recognizer = helperRecognizer(port),
    longestAction,
    background = () => undefined,
    foregroundAgain = 'set MACPILOT_INPUT=foreground',
    blackOutHidden = false,
    personFirst = false,
    ...changes
  } = options;
  const kernel = new Kernel(port, { ...CHANGE_DEFAULTS, ...changes }, gate, new RefTable(refLimits), choose);
  const input = new Input(kernel, longestAction, background, personFirst, foregroundAgain);
  const windows = new Windows(kernel);
  const screen = new Screen(kernel, windows, blackOutHidden);
  const text = new ScreenText(kernel, screen, input, recognizer);
  const reader = new UiReader(text);
  const menus = new Menus(kernel, input);
  const elements = new Elements(kernel, input, reader, menus);
  const feed = new ChangeFeed(port, kernel.observer);
  // What is copied in an app the lists hide (a password manager's password) is never read back to an agent: the
  // app that owns the clipboard, where the helper can tell (X11) and the owner is an app (not a clipboard
  // manager), else the app in front when the clipboard changed, which is the one that copied. In front is the
  // focused element's app, or the active window's when no element has the focus. (Not both each time: on KDE a
  // window list runs a script in the compositor, which a busy machine shows as a stalled clipboard.)
  const copiedInHiddenApp = async () => {
    const owner = await port.call('clipboard.owner', { selection: 'clipboard' }).catch(() => undefined);
    const ownerHidden = owner?.pid === undefined ? undefined : await kernel.resolver.hides(owner.pid);
    if (ownerHidden !== undefined) return ownerHidden || undefined;
    const { element } = await port.call('ax.focused', {}).catch(() => ({ element: null }));
    const pid =
      element?.pid ??
      (await port.call('windows.list', { includeMinimized: false }).then(
        ({ windows }) => windows.find((w) => w.focused)?.pid,
        () => undefined,
      ));
    if (pid === undefined) return undefined;
    return kernel.resolver.appOf(pid).then(
      () => undefined,
      (error: unknown) => (error instanceof AppRefused ? error : undefined),
    );
  };
  const history = new ClipboardHistory(
    port,
    feed,
    clipboardHistory,
    clipboardHistoryOffBy,
    Date.now,
    copiedInHiddenApp,
    kernel.hiddenCopy,
  );
  const waits = new Waits(kernel);
  const held = new HeldInput(input, port);
  input.heldModifiers = () => held.heldModifiers();
  input.heldKeys = () => held.heldKeys();
  return {
    kernel,
    elements,
    apps: new Apps(kernel),
    input,
    held,
    windows,
    screen,
    visual: new Visual(screen),
    text,
    clipboard: new Clipboard(kernel, history),
    menus,
    waits,
    reveal: new Reveal(kernel),
    states: new AppStates(kernel, elements, menus, reader),
    feed,
    observations: new Observations(kernel, feed),
    asserts: new Asserts(kernel, waits, elements),
    visualDiffs: new VisualDiffs(kernel, screen),
    audits: new Audits(kernel, elements, screen, input),
    recorder: new Recorder(kernel),
    close: () => recognizer.close(),
  };
}

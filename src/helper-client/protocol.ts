/**
 * The contract between the server and a platform helper: JSON-RPC 2.0 over the helper's stdin/stdout with
 * Content-Length framing. Every method's params and result are declared here; the Linux helper, the Swift
 * helper, docs/protocol.md and the contract tests all follow this file.
 */
import { z } from 'zod';

export const PROTOCOL_VERSION = 1;

/**
 * A helper that loses a connection it cannot work without (the X display, the accessibility bus) exits with this
 * code instead of failing every later call; the client starts a fresh one on the next call.
 */
export const EXIT_CONNECTION_LOST = 75;

/** Error codes a helper returns in a JSON-RPC error's `code`; `data.hint` may say what to do next. */
export const HelperErrorCode = {
  InvalidParams: -32602,
  /** The handle no longer names a live element (the element or its app went away). */
  ElementGone: -32010,
  /** No running app matches the pid or name. */
  AppNotFound: -32011,
  /** The element has no such action, or the action was refused. */
  ActionFailed: -32012,
  /** The element's value cannot be set to what was asked. */
  ValueNotSettable: -32013,
  /** The capability is absent here (no display, no accessibility bus, not implemented on this platform). */
  NotAvailable: -32014,
  /** The OS refused for lack of a permission (macOS privacy settings). */
  PermissionDenied: -32015,
  /** The target app did not answer in time. */
  Timeout: -32016,
  /** Anything else that went wrong in the OS call. */
  Failed: -32017,
  /** The person used the mouse or keyboard during synthetic input, or just before it (input.personFirst). */
  PersonActive: -32018,
} as const;
export type HelperErrorCode = (typeof HelperErrorCode)[keyof typeof HelperErrorCode];

export const HelperErrorData = z
  .object({
    hint: z.string().optional(),
    /** ax.setValue: the field is editable but takes no text through accessibility; the server types it. */
    typeInstead: z.boolean().optional(),
    /** ax.setValue: the control does not take this value (an option it lacks, a number beyond its range). */
    notTaken: z.boolean().optional(),
    /** ax.setValue: a field with a length limit kept this many characters of the text's start. */
    kept: z.number().int().min(0).optional(),
    /** input.type cancelled: how many characters were typed before it stopped. */
    typed: z.number().int().min(0).optional(),
  })
  .loose();
export type HelperErrorData = z.infer<typeof HelperErrorData>;

/** An opaque element handle, stable for the element's life: the same element always gets the same handle. */
export const Handle = z.string().min(1).max(512).meta({ id: 'Handle' });

export const Bounds = z
  .object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() })
  .meta({ id: 'Bounds' });
export type Bounds = z.infer<typeof Bounds>;

/** Normalized states, the same words on every platform. */
export const ElementState = z
  .enum([
    'focused',
    'focusable',
    'disabled',
    'selected',
    'selectable',
    'checked',
    'mixed',
    'pressed',
    'expanded',
    'collapsed',
    'editable',
    'readonly',
    'multiline',
    'offscreen',
    'secure',
    'modal',
    'required',
    'invalid',
    'busy',
    'active',
    'minimized',
    /** The dialog's default button: the one Enter presses. */
    'default',
  ])
  .meta({ id: 'ElementState' });
export type ElementState = z.infer<typeof ElementState>;

export const ElementValue = z.union([z.string(), z.number(), z.boolean()]).meta({ id: 'ElementValue' });
export type ElementValue = z.infer<typeof ElementValue>;

const elementFields = {
  id: Handle,
  /** The platform's own role: "push button" (AT-SPI), "AXButton" (macOS). */
  nativeRole: z.string(),
  /** macOS AXSubrole, when there is one. */
  subrole: z.string().optional(),
  name: z.string(),
  /** Text, number or toggle state. Never present for secure fields. */
  value: ElementValue.optional(),
  /** True when `value` was cut to the requested maximum length. */
  valueTruncated: z.boolean().optional(),
  description: z.string().optional(),
  /** A developer-assigned identifier (AT-SPI AccessibleId, macOS AXIdentifier). */
  identifier: z.string().optional(),
  states: z.array(ElementState),
  /** Screen points, origin at the top left of the primary display. */
  bounds: Bounds.optional(),
  /**
   * The keyboard shortcut that triggers a menu item, as press_key takes it: modifiers then the key, joined by
   * "+", e.g. "Ctrl+S", "Ctrl+Shift+N", "F11" (AT-SPI: the accelerator of its action's key binding), or
   * "Cmd+S", "Cmd+Option+Z" (macOS: AXMenuItemCmdChar and AXMenuItemCmdModifiers).
   */
  shortcut: z.string().max(64).optional(),
  /** A heading's level, 1 to 9 (1: the page's title), where the platform says (AT-SPI's "level" attribute). */
  level: z.number().int().min(1).max(9).optional(),
  childCount: z.number().int().min(0),
  /**
   * A walk of a long container (a list of thousands of rows) that took only the children on screen: the first
   * one's index among all `childCount`, and how many were taken. Absent: every child was considered.
   */
  shownChildren: z.object({ from: z.number().int().min(0), count: z.number().int().min(0) }).optional(),
  pid: z.number().int(),
};

/** One element without its subtree. */
export const ElementInfo = z.object(elementFields).meta({ id: 'ElementInfo' });
export type ElementInfo = z.infer<typeof ElementInfo>;

/** An element with as much of its subtree as a walk collected (`children` absent: not walked). */
export interface ElementNode extends ElementInfo {
  children?: ElementNode[];
}
export const ElementNode: z.ZodType<ElementNode> = z
  .object({
    ...elementFields,
    get children() {
      return z.array(ElementNode).optional();
    },
  })
  .meta({ id: 'ElementNode' });

/** Everything a helper knows of one element: the basics plus its actions and extra attributes. */
export const ElementDetail = ElementInfo.extend({
  actions: z.array(z.string()),
  attributes: z.record(z.string(), z.string()),
  /** Its place among its parent's children, where the platform says (AT-SPI GetIndexInParent). */
  indexInParent: z.number().int().min(0).optional(),
  /** A numeric value's bounds (a slider, a scroll bar), where the platform says. */
  range: z.object({ min: z.number(), max: z.number() }).optional(),
}).meta({ id: 'ElementDetail' });
export type ElementDetail = z.infer<typeof ElementDetail>;

export const AppInfo = z
  .object({
    pid: z.number().int(),
    name: z.string(),
    /** macOS bundle identifier, or the desktop file id on Linux, when known. */
    bundleId: z.string().optional(),
    /** Handle of the app's accessibility root. */
    id: Handle,
    active: z.boolean(),
    /**
     * The app did not answer the accessibility bus in time: its process is stopped (SIGSTOP, a debugger) or
     * busy (hung, or working); its name is then its program's. Absent when it answered.
     */
    notAnswering: z.enum(['stopped', 'busy']).optional(),
  })
  .meta({ id: 'AppInfo' });
export type AppInfo = z.infer<typeof AppInfo>;

export const Capability = z
  .object({
    available: z.boolean(),
    /** What is there, or why it is not, in words a person can act on. */
    detail: z.string(),
  })
  .meta({ id: 'Capability' });
export type Capability = z.infer<typeof Capability>;

export const Point = z.object({ x: z.number(), y: z.number() }).meta({ id: 'Point' });
export type Point = z.infer<typeof Point>;

export const MouseButton = z.enum(['left', 'right', 'middle']).meta({ id: 'MouseButton' });
export type MouseButton = z.infer<typeof MouseButton>;

/** Held during a click or key press. On Linux "command" is Control (the shortcut key) and "super" the logo key. */
export const Modifier = z
  .enum(['command', 'control', 'option', 'shift', 'super', 'fn'])
  .meta({ id: 'Modifier' });
export type Modifier = z.infer<typeof Modifier>;

export const DisplayInfo = z
  .object({
    id: z.string(),
    /** Screen points. */
    bounds: Bounds,
    /** Pixels per point (2 on a Retina display). */
    scale: z.number(),
    primary: z.boolean(),
    name: z.string().optional(),
  })
  .meta({ id: 'DisplayInfo' });
export type DisplayInfo = z.infer<typeof DisplayInfo>;

export const WindowInfo = z
  .object({
    /** Stable for the window's life: the X window id, or the macOS CGWindowID, as a string. */
    id: z.string(),
    pid: z.number().int(),
    app: z.string(),
    title: z.string(),
    /** Screen points, frame included. */
    bounds: Bounds,
    minimized: z.boolean(),
    focused: z.boolean(),
  })
  .meta({ id: 'WindowInfo' });
export type WindowInfo = z.infer<typeof WindowInfo>;

export const ImageFormat = z.enum(['png', 'jpeg']).meta({ id: 'ImageFormat' });
export type ImageFormat = z.infer<typeof ImageFormat>;

/** What a capture covers: a display, a window, or a region of the screen (screen points). */
export const CaptureTarget = z
  .union([
    z.object({ display: z.string() }).strict(),
    z.object({ window: z.string() }).strict(),
    z.object({ region: Bounds }).strict(),
  ])
  .meta({ id: 'CaptureTarget' });
export type CaptureTarget = z.infer<typeof CaptureTarget>;

/**
 * One press a person made at the keyboard or mouse, as `record.input` carries it. Releases of keys are not sent;
 * a button's release is, so that a press and release far apart read as a drag.
 */
export const RecordedInput = z
  .object({
    kind: z.enum(['buttonDown', 'buttonUp', 'keyDown']),
    /** buttonDown and buttonUp: which button, and where, in screen points. */
    button: MouseButton.optional(),
    at: Point.optional(),
    /**
     * keyDown: the key, as input.key takes it (an X keysym of the key's first level on Linux, a virtual key code
     * on macOS); modifier keys themselves are not sent, only held.
     */
    code: z.number().int().min(0).optional(),
    /** keyDown: the character the key types with the modifiers held, when it types one. */
    text: z.string().max(16).optional(),
    /** Modifier keys held. */
    modifiers: z.array(Modifier),
    /** When the helper saw it, in milliseconds since the Unix epoch. */
    time: z.number(),
  })
  .meta({ id: 'RecordedInput' });
export type RecordedInput = z.infer<typeof RecordedInput>;

/** A word read from an image: its box in image pixels (origin at the top left) and a confidence from 0 to 1. */
export const RecognizedWord = z
  .object({ text: z.string(), bounds: Bounds, confidence: z.number().min(0).max(1) })
  .meta({ id: 'RecognizedWord' });
export type RecognizedWord = z.infer<typeof RecognizedWord>;

/** A line of text read from an image: its words, left to right, and the box around them (image pixels). */
export const RecognizedLine = RecognizedWord.extend({ words: z.array(RecognizedWord) }).meta({
  id: 'RecognizedLine',
});
export type RecognizedLine = z.infer<typeof RecognizedLine>;

const Empty = z.object({}).strict();
const WINDOW_ID = z.object({ id: z.string().min(1).max(64) });

/**
 * A window id as the helpers give them: a decimal number (X11 window ids, sway's container ids, GNOME's window
 * ids, macOS window numbers), or KWin's UUID in braces (lower case, as KWin writes it; a JSON Schema pattern
 * carries no flags).
 */
export const WINDOW_ID_PATTERN =
  /^(\d{1,20}|\{[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\})$/;

/** The longest text ax.snapshot's nameFilter takes. */
export const NAME_FILTER_MAX = 500;

const method = <P extends z.ZodType, R extends z.ZodType>(description: string, params: P, result: R) => ({
  description,
  params,
  result,
});

/** Every method a helper implements. Names are `namespace.method`. */
export const methods = {
  'system.hello': method(
    'Handshake: versions and what this helper can do here.',
    z.object({ protocolVersion: z.number().int(), client: z.string() }),
    z.object({
      protocolVersion: z.number().int(),
      helperVersion: z.string(),
      platform: z.enum(['linux', 'darwin']),
      capabilities: z.object({
        accessibility: Capability,
        display: Capability,
        input: Capability,
        /** Screenshots (macOS: the Screen Recording permission). */
        screenCapture: Capability,
        /**
         * Recording what a person types and clicks, record.start (macOS: the Input Monitoring permission; Linux:
         * the X RECORD extension). Optional: only start_recording needs it.
         */
        recording: Capability.optional(),
      }),
    }),
  ),
  'apps.list': method(
    'Running apps that expose an accessibility tree.',
    Empty,
    z.object({ apps: z.array(AppInfo) }),
  ),
  'apps.launch': method(
    'Start an installed app by name (or bundle id / desktop file id) and wait until it is accessible.',
    z.object({ name: z.string().min(1).max(256), timeoutMs: z.number().int().min(100).max(60000) }),
    z.object({ app: AppInfo, alreadyRunning: z.boolean() }),
  ),
  'apps.activate': method(
    'Bring an app to the front.',
    z.object({ pid: z.number().int() }),
    z.object({ activated: z.boolean() }),
  ),
  'apps.quit': method(
    'Ask an app to quit (close its windows); with force, terminate it.',
    z.object({ pid: z.number().int(), force: z.boolean(), timeoutMs: z.number().int().min(0).max(60000) }),
    z.object({ exited: z.boolean() }),
  ),
  'ax.snapshot': method(
    'Walk the subtree under an element, breadth first, up to a depth and a node count.',
    z.object({
      root: Handle,
      depth: z.number().int().min(0).max(64),
      maxNodes: z.number().int().min(1).max(50000),
      includeHidden: z.boolean(),
      maxValueLength: z.number().int().min(0).max(1_000_000),
      /** Also read each element's bounds (costs a call per element on AT-SPI). */
      includeBounds: z.boolean().optional(),
      /**
       * A search's text: the children of a long container (a list of thousands of rows) are read in full only
       * when their name holds it (case and spacing aside) or is empty (its text may be in its own children).
       */
      nameFilter: z.string().min(1).max(NAME_FILTER_MAX).optional(),
    }),
    z.object({
      root: ElementNode,
      nodeCount: z.number().int(),
      /** True when maxNodes stopped the walk before depth did. */
      truncated: z.boolean(),
      /** With nameFilter: the children of long containers whose names were checked and did not match. */
      passedOver: z.number().int().min(0).optional(),
    }),
  ),
  'ax.element': method(
    'One element in full: attributes, actions, value.',
    z.object({ id: Handle, maxValueLength: z.number().int().min(0).max(1_000_000) }),
    z.object({ element: ElementDetail }),
  ),
  'ax.ancestors': method(
    "An element's ancestors, from its app's root down to its parent.",
    z.object({ id: Handle }),
    z.object({ ancestors: z.array(ElementInfo) }),
  ),
  'ax.focused': method(
    'The element that has keyboard focus, in one app or in the active app.',
    z.object({ pid: z.number().int().optional() }),
    z.object({ element: ElementInfo.nullable() }),
  ),
  'ax.elementAt': method(
    'The deepest element at a screen point.',
    z.object({ x: z.number(), y: z.number() }),
    z.object({ element: ElementInfo.nullable() }),
  ),
  'ax.perform': method(
    'Perform one of the actions the element lists. background: through the accessibility layer only, never ' +
      'with the pointer (Linux presses a visible button with a real click, raising its window, unless asked; a ' +
      "web page's button by its action first, with the pointer only if the browser refuses it).",
    z.object({ id: Handle, action: z.string().min(1).max(128), background: z.boolean().optional() }),
    z.object({
      performed: z.string(),
      /** The press was a real click at the element's centre, its window raised: the pointer moved. */
      withPointer: z.boolean().optional(),
    }),
  ),
  'ax.setValue': method(
    'Set a value: text for text fields, a number for value controls, a boolean for toggles.',
    z.object({ id: Handle, value: ElementValue }),
    z.object({ value: ElementValue.optional() }),
  ),
  'ax.focus': method(
    'Give the element keyboard focus.',
    z.object({ id: Handle }),
    z.object({ focused: z.boolean() }),
  ),
  'ax.scrollIntoView': method(
    'Scroll whatever contains the element until the element is on screen.',
    z.object({ id: Handle }),
    z.object({ bounds: Bounds.optional() }),
  ),
  'input.click': method(
    'Move the pointer to a point and click: a button, a click count, modifier keys held.',
    z.object({
      at: Point,
      button: MouseButton,
      count: z.number().int().min(1).max(3),
      modifiers: z.array(Modifier),
    }),
    z.object({}),
  ),
  'input.move': method(
    'Move the pointer; with durationMs > 0 along a straight line in small steps.',
    z.object({ to: Point, durationMs: z.number().int().min(0).max(10000) }),
    z.object({}),
  ),
  'input.drag': method(
    'Press a button at one point, move to another over durationMs, release.',
    z.object({
      from: Point,
      to: Point,
      button: MouseButton,
      modifiers: z.array(Modifier),
      durationMs: z.number().int().min(0).max(10000),
    }),
    z.object({}),
  ),
  'input.scroll': method(
    'Scroll at a point (positive dy scrolls down, positive dx right): by whole wheel steps (at most 1000 each ' +
      'way), or with unit "pixel" by pixels where the platform scrolls smoothly (macOS; X11 refuses it).',
    z.object({
      at: Point,
      dx: z.number().int().min(-100_000).max(100_000),
      dy: z.number().int().min(-100_000).max(100_000),
      unit: z.enum(['step', 'pixel']).optional(),
    }),
    z.object({}),
  ),
  'input.pointer': method('Where the pointer is.', Empty, z.object({ at: Point })),
  'input.type': method(
    'Type text as key events into whatever has focus, any Unicode, delayMs between characters.',
    z.object({ text: z.string().max(100_000), delayMs: z.number().int().min(0).max(1000) }),
    z.object({ typed: z.number().int() }),
  ),
  'input.key': method(
    'Press and release one key, modifiers held, repeat times. `code` comes from src/keys.ts: an X keysym on ' +
      'Linux, a virtual key code on macOS.',
    z.object({
      code: z.number().int().min(0),
      /**
       * For a key named by what it types ("z"), that character: the macOS helper presses the key that types it
       * under the current layout (UCKeyTranslate), `code` where none does. The Linux helper's keysym already is.
       */
      character: z.string().min(1).max(2).optional(),
      /**
       * Post the key to this process only, the keyboard focus left where it is (macOS CGEventPostToPid); X11
       * delivers keys only where the focus is, so the Linux helper answers NotAvailable.
       */
      pid: z.number().int().positive().optional(),
      modifiers: z.array(Modifier),
      repeat: z.number().int().min(1).max(100),
    }),
    z.object({}),
  ),
  'input.button': method(
    'Press (down) or release one mouse button and leave it so, at a point (the pointer moves there first) or ' +
      'where the pointer is. The helper releases what it holds when it exits.',
    z.object({ button: MouseButton, down: z.boolean(), at: Point.optional() }),
    z.object({}),
  ),
  'input.hold': method(
    'Press (down) or release one key and leave it so: a key by `code` (as input.key) or a modifier key, one ' +
      'of the two. The helper releases what it holds when it exits.',
    z.object({ code: z.number().int().min(0).optional(), modifier: Modifier.optional(), down: z.boolean() }),
    z.object({}),
  ),
  'input.personFirst': method(
    'While on, input methods that move the pointer or press keys stop, failing with PersonActive, when input ' +
      "from a device other than the helper's own arrives while they run or within quietMs before they start " +
      '(the person is using the desk). watching: whether this helper can tell such input apart; why: when not.',
    z.object({ on: z.boolean(), quietMs: z.number().int().min(0).max(60_000) }),
    z.object({ watching: z.boolean(), why: z.string().optional() }),
  ),
  'screen.displays': method(
    'The displays, their bounds in points and their scale.',
    Empty,
    z.object({ displays: z.array(DisplayInfo) }),
  ),
  'screen.capture': method(
    'Capture a display, a window or a region as an encoded image, scaled down to fit maxLongEdge pixels.',
    z.object({
      target: CaptureTarget,
      format: ImageFormat,
      /** JPEG quality, 1-100. */
      quality: z.number().int().min(1).max(100),
      maxLongEdge: z.number().int().min(16).max(16384),
    }),
    z.object({
      /** Base64 of the encoded image. */
      data: z.string(),
      format: ImageFormat,
      width: z.number().int(),
      height: z.number().int(),
      /** What was captured, in screen points. */
      bounds: Bounds,
      /** Image pixels per screen point: divide image coordinates by it and add bounds.x/y to get screen points. */
      scale: z.number(),
    }),
  ),
  'screen.recognizeText': method(
    'Read the text in an image (OCR): lines of words with their boxes in image pixels. macOS: Vision, accurate ' +
      'mode with language correction. The Linux helper answers NotAvailable: there the server reads text itself.',
    z.object({
      /** Base64 of a PNG image, at most 48 MB encoded. */
      data: z.string().min(1).max(64_000_000),
      /** BCP 47 language codes, most likely first; default English. */
      languages: z.array(z.string().min(2).max(16)).min(1).max(8).optional(),
    }),
    z.object({ lines: z.array(RecognizedLine) }),
  ),
  'clipboard.read': method(
    'The clipboard: its text, if it holds text, and the types it offers.',
    Empty,
    z.object({ text: z.string().optional(), types: z.array(z.string()) }),
  ),
  'clipboard.write': method(
    'Put text on the clipboard.',
    z.object({ text: z.string().max(10_000_000) }),
    z.object({}),
  ),
  'clipboard.clear': method('Empty the clipboard.', Empty, z.object({})),
  'clipboard.watch': method(
    'Start sending `clipboard.changed` notifications whenever the clipboard changes (never what it holds).',
    Empty,
    z.object({}),
  ),
  'clipboard.owner': method(
    'The process that owns the clipboard, or the primary selection (the text selected last, which a middle click ' +
      'pastes on X11 and Wayland). `known` false where the helper cannot tell; known without pid: nothing is ' +
      'held, or the platform has no such selection (macOS has no primary selection).',
    z.object({ selection: z.enum(['clipboard', 'primary']) }),
    z.object({ known: z.boolean(), pid: z.number().int().optional() }),
  ),
  'windows.list': method(
    'Top-level windows, front to back; of one app when pid is given.',
    z.object({ pid: z.number().int().optional(), includeMinimized: z.boolean() }),
    z.object({ windows: z.array(WindowInfo) }),
  ),
  'windows.focus': method('Raise a window and give it focus.', WINDOW_ID, z.object({ window: WindowInfo })),
  'windows.move': method(
    "Move a window's top-left corner (frame included) to a screen point.",
    z.object({ id: WINDOW_ID.shape.id, to: Point }),
    z.object({ window: WindowInfo }),
  ),
  'windows.resize': method(
    'Resize a window (frame included), keeping its top-left corner.',
    z.object({
      id: WINDOW_ID.shape.id,
      width: z.number().int().min(1).max(100000),
      height: z.number().int().min(1).max(100000),
    }),
    z.object({ window: WindowInfo }),
  ),
  'windows.minimize': method('Minimize a window.', WINDOW_ID, z.object({ window: WindowInfo })),
  'windows.restore': method(
    'Restore a minimized window and raise it.',
    WINDOW_ID,
    z.object({ window: WindowInfo }),
  ),
  'windows.close': method(
    'Ask a window to close, as its close button would (the app may ask to save).',
    WINDOW_ID,
    z.object({ closed: z.boolean() }),
  ),
  'observe.start': method(
    'Start sending `observe.changed` notifications for UI changes in every app.',
    Empty,
    z.object({}),
  ),
  'record.start': method(
    'Start sending `record.input` notifications for every key press and mouse button a person uses, anywhere ' +
      'on the desktop, until record.stop (macOS: the Input Monitoring permission). What was typed travels only in ' +
      'those notifications, never into logs.',
    Empty,
    z.object({}),
  ),
  'record.stop': method(
    'Stop sending `record.input`; answers how many were sent since record.start (0 when none was running).',
    Empty,
    z.object({ events: z.number().int().min(0) }),
  ),
} as const;

/** Notifications a helper sends on its own (JSON-RPC notifications, no answer). */
export const notifications = {
  'observe.changed': {
    description:
      "An app's UI changed: sent at most every 10 ms per app, naming the kinds of events seen since the last one.",
    params: z.object({
      pid: z.number().int(),
      /** Event kinds, e.g. "children-changed", "state-changed:focused", "text-changed", "window:activate". */
      kinds: z.array(z.string()),
      /** How many events were folded into this notification. */
      count: z.number().int().min(1),
      /**
       * The elements the events were about (handles), each with its events' kinds; absent when the helper does
       * not know them or they were too many to list: the change is then somewhere in the app.
       */
      elements: z.array(z.object({ id: z.string(), kinds: z.array(z.string()) })).optional(),
    }),
  },
  'clipboard.changed': {
    description: 'The clipboard changed (a new owner or new contents); read it with clipboard.read.',
    params: z.object({}),
  },
  'record.input': {
    description: 'A person pressed a key or a mouse button, or released a button, while record.start was on.',
    params: RecordedInput,
  },
} as const;
export type NotificationName = keyof typeof notifications;
export type NotificationParams<N extends NotificationName> = z.output<(typeof notifications)[N]['params']>;

export type MethodName = keyof typeof methods;
export type Params<M extends MethodName> = z.input<(typeof methods)[M]['params']>;
export type Result<M extends MethodName> = z.output<(typeof methods)[M]['result']>;
export const methodNames = Object.keys(methods) as MethodName[];

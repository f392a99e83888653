/**
 * Synthetic input: clicks, pointer moves, drags, scrolling, typing and key chords, at screen points or at an
 * element's centre. Each action answers with what it did and what changed in the app it reached: the app under
 * the point, the app of the target element, or (for keys) the app holding keyboard focus. Typed text never
 * appears in answers, errors or logs.
 */
import {
  hiddenCopyRefusal,
  namedPaste,
  PASTING_ROLES,
  pastes,
  refuseSelectionPaste,
} from '../kernel/hidden-copy.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { MacpilotError, type Reached } from '../../errors.js';
import { pointText } from '../../bounds.js';
import { HelperError } from '../../helper-client/errors.js';
import {
  type Bounds,
  type DisplayInfo,
  type ElementDetail,
  type ElementInfo,
  type ElementNode,
  HelperErrorCode,
  type Modifier,
  type MouseButton,
  type Point,
  type MethodName,
  type Params,
  type Result,
} from '../../helper-client/protocol.js';
import {
  type Chord,
  codeFor,
  type Key,
  parseChord,
  parseKey,
  parseModifier,
  type Platform,
} from '../../keys.js';
import type { Expectation, Prepared } from '../kernel/changes.js';
import { helperFailure, isGone } from '../kernel/failures.js';
import { entryLine, type Kernel, type Target } from '../kernel/kernel.js';
import { appText, type AppText, entryWords, own, plainText, words, type Words } from '../kernel/words.js';
import type { CallOptions } from '../../helper-client/errors.js';
import type { RefEntry } from '../kernel/refs.js';
import { AppRefused } from '../kernel/resolve.js';
import { MENU_ROLES, roleOf } from '../kernel/roles.js';
import { isSecure, labelOf } from '../kernel/tree.js';
import type { ActionResult } from '../kernel/results.js';
import { capitalize, duration, plural } from '../../text.js';

type InputMethod = Extract<MethodName, `input.${string}`>;

/** How long type_text into a field waits for a field whose text stopped changing to show all it typed. */
const TYPED_WAIT_MS = 1000;
/** The longest the answer waits for a field that keeps changing to show the text typed. */
/** How long submit's Enter gets to change or take away the field it was pressed in. */
const SUBMIT_WAIT_MS = 400;
const TYPED_MAX_WAIT_MS = 30_000;
/** How much of a field's text an answer shows. */
const SHOWN_FIELD_CHARS = 200;

/** The most text a field may hold for type_text to add to it in the background (it is read whole first). */
const MAX_FIELD_CHARS = 1_000_000;

/** The input that takes the pointer or acts where the keyboard focus is, and why: background input refuses it. */
const FOREGROUND: Partial<Record<InputMethod, string>> = {
  'input.click': 'a synthetic click moves the pointer to its point',
  'input.move': 'it moves the pointer',
  'input.drag': 'a drag moves the pointer',
  'input.scroll': 'the wheel scrolls where the pointer is, so the pointer moves there',
  'input.type': 'typed keys go where the keyboard focus is',
  'input.key': 'keys go where the keyboard focus is',
  'input.button': 'a button is pressed where the pointer is',
  'input.hold': 'a held key acts where the keyboard focus is',
};

/** The input methods that send keys where the keyboard focus is. */
const KEY_METHODS: ReadonlySet<InputMethod> = new Set(['input.key', 'input.type', 'input.hold']);

/** The middle button pressed, in words, when `method` presses it: X11 and Wayland apps paste the selection then. */
function middlePress<M extends InputMethod>(method: M, params: Params<M>): string | undefined {
  const press = params as { button?: MouseButton; down?: boolean };
  if (press.button !== 'middle') return undefined;
  if (method === 'input.click') return 'a middle click';
  return method === 'input.button' && press.down === true ? 'pressing the middle button' : undefined;
}

/** A key held down across calls: a modifier key, or any key src/keys.ts names. */
export type HeldKey = { name: string } & ({ modifier: Modifier } | { key: Key });

/** A key to hold by name: a modifier by any of its names, else a key as press_key names it. */
export function heldKeyNamed(name: string): HeldKey {
  try {
    const modifier = parseModifier(name);
    return { name: modifier, modifier };
  } catch {
    const key = parseKey(name);
    return { name: key.name, key };
  }
}

/** A screen point, or an element whose centre is meant. */
export type Spot = LabelledPoint | Target;

/** A screen point, with what is there in words when the caller knows (`the text "OK"`), for the answer. */
export interface LabelledPoint extends Point {
  label?: Words;
}

/** Pixels per wheel step: about three lines of text, what one notch scrolls in most apps. */
export const PX_PER_WHEEL_STEP = 50;
export const INPUT_DEFAULTS = {
  scrollPx: 3 * PX_PER_WHEEL_STEP,
  smoothMoveMs: 300,
  dragMs: 300,
  /** Longest wait for a field to report focus before typing into it. */
  focusWaitMs: 2000,
  focusPollMs: 25,
} as const;

/**
 * The longest an action may be asked to take (its keys × its delay) by default: a longer one is refused up front
 * with its estimate and how to split it, so that no call runs on for minutes after its answer was given up on.
 */
const LONGEST_ACTION: LongestAction = {
  ms: 60_000,
  setBy: 'action_seconds: MACPILOT_RATE_LIMITS',
};

/** The longest one action may be asked to take, and the setting that says so, in a person's words. */
export interface LongestAction {
  ms: number;
  setBy: string;
}
/** What the helper gets beyond an action's own duration to answer it: a typed key costs it about this much. */
const KEY_COST_MS = 1;
const ANSWER_MARGIN_MS = 15_000;

export type Direction = 'up' | 'down' | 'left' | 'right';

export interface ClickOptions {
  button?: MouseButton;
  count?: number;
  modifiers?: string[];
}

/** Enter and Tab typed may leave the field (a dialog's default button, the next field): no text to await. */
/**
 * Whether typing the text waits for it in the field: a tab is a key that may leave it, and so is a newline in a
 * one-line field (Enter), not in a multi-line one.
 */
export const awaitsText = (text: string, multiline = false): boolean =>
  !text.includes('\t') && (multiline || !text.includes('\n'));

/**
 * How long a field that shows no change has settled after keys typed `text`: a second, or for a long text twice
 * as long as the keys took to send (Chromium, given thousands, shows none of them for seconds).
 */
const settlingFor = (text: string): number =>
  Math.max(TYPED_WAIT_MS, Array.from(text).length * KEY_COST_MS * 2);

export interface TypeOptions {
  text: string;
  target?: Target;
  delayMs?: number;
  clearFirst?: boolean;
  submit?: boolean;
}

/** An element's centre, or why there is none to click. */
function centreOf(entry: RefEntry, detail: ElementDetail): Point {
  const b: Bounds | undefined = detail.bounds;
  if (!b || b.width <= 0 || b.height <= 0 || detail.states.includes('offscreen')) {
    throw new MacpilotError({
      what: `${entryLine(entry)} is not on screen`,
      why: b
        ? 'it is scrolled out of view, hidden or has no size'
        : 'the app reports no screen position for it',
      next: 'bring it into view (scroll_to_element), or open what contains it (a menu, a tab), then retry',
      kind: 'element_off_screen',
      person: {
        next: 'scroll the list or view that holds it with the mouse wheel, or open what contains it (a menu, a tab), then retry',
      },
    });
  }
  return { x: Math.round(b.x + b.width / 2), y: Math.round(b.y + b.height / 2) };
}

const isPoint = (spot: Spot): spot is LabelledPoint => 'x' in spot;
const at = pointText;
const place = (p: LabelledPoint): Words =>
  p.label === undefined ? own(at(p)) : words`${p.label} at ${own(at(p))}`;

/** "click", "right-click", "double-click", "triple-middle-click". */
function clickName(button: MouseButton, count: number): string {
  const times = ['', '', 'double-', 'triple-'][count] ?? '';
  return `${times}${button === 'left' ? '' : `${button}-`}click`;
}

const holding = (modifiers: readonly Modifier[]) =>
  modifiers.length === 0 ? '' : ` holding ${modifiers.join('+')}`;

/** Modifiers as Linux keyboards name them ("command" is the shortcut key, Control, there). */
const LINUX_MODIFIER_NAMES: Partial<Record<string, string>> = {
  command: 'ctrl',
  control: 'ctrl',
  option: 'alt',
};

/** A chord as the platform's keyboards name it: option+f4 on a Mac is alt+f4 on Linux. */
const chordName = (chord: Chord, platform: Platform) =>
  [
    ...new Set(chord.modifiers.map((m) => (platform === 'linux' ? (LINUX_MODIFIER_NAMES[m] ?? m) : m))),
    chord.key.name,
  ].join('+');

/** The person's input this long before an input call starts also stops it: they are in the middle of it. */
export const PERSON_QUIET_MS = 500;

/**
 * set_value or type_text refused in the background on a field that only typing fills: typing would take the
 * focus.
 */
export function typingNeeded(entry: RefEntry, background: string): MacpilotError {
  return new MacpilotError({
    what: `Not done: ${entryLine(entry)} takes no text set through the accessibility layer, only typing`,
    why: `typing needs the keyboard focus in the field, and ${background}`,
    next: 'type it with type_text (this ref, clear_first: true, background: false), which moves the keyboard focus to the field',
    kind: 'needs_foreground',
    refusal: true,
    person: {
      next: 'let agents use the keyboard focus (set MACPILOT_INPUT=foreground), or type into the field yourself',
    },
  });
}

/** Enter alone (the keypad's too) presses the default button of the window it goes to, if it has one. */
const pressing = (chord: Chord): Expectation => ({
  pressesDefault: ['enter', 'numpadenter'].includes(chord.key.name) && chord.modifiers.length === 0,
  cancelsDialog: chord.key.name === 'escape' && chord.modifiers.length === 0,
});

/**
 * The focused element, when the keyboard focus is in `app`: a key pressed in the foreground goes where the focus
 * is, so a key for an app the focus is not in is refused (by the call, and before a person is asked about it).
 */
export async function focusIn(
  sources: { resolver: Pick<Kernel['resolver'], 'app'>; port: Kernel['port'] },
  app: string,
  call?: CallOptions,
): Promise<ElementInfo> {
  const target = await sources.resolver.app(app, call);
  const { element } = await sources.port.call('ax.focused', {}, call);
  if (element?.pid !== target.pid) {
    throw new MacpilotError({
      what: `Not done: the keyboard focus is not in ${target.name} (pid ${target.pid})`,
      why: 'a key pressed in the foreground goes where the keyboard focus is, and it is in another app',
      next: `bring ${target.name} in front first (activate_app), then press the key; or leave app out to press it where the focus is`,
      kind: 'focus_elsewhere',
      concerns: ['app'],
    });
  }
  return element;
}

/**
 * The field's text once it stopped changing, not the text typed: characters of it missing from the field (the app
 * took them as commands, as a calculator takes "=", or the layout lacks them), or the app made something else of it.
 */
function notTyped(value: string, text: string, before: string | undefined): Words {
  const holds = fieldShown(value);
  const added = before !== undefined && value.startsWith(before) ? value.slice(before.length) : value;
  const missing = missingFrom(added, [...text]);
  if (missing === undefined) {
    return words`\nThe field now holds ${holds}, not the text typed: the app made something else of it (a calculator shows its result, a field may format what it is given). Read the field again before relying on it.`;
  }
  const shown = [...new Set(missing)].slice(0, 10).map((c) => JSON.stringify(c));
  const them = missing.length === 1 ? 'it' : 'them';
  return words`\nThe field now holds ${holds}: ${own(plural(missing.length, 'character'))} of the text typed (${own(shown.join(', '))}) ${own(missing.length === 1 ? 'is' : 'are')} not in it: the app took ${own(them)} as commands (as a calculator takes "="), shows ${own(them)} otherwise (a calculator's "×" for "*"), the field limits what it takes, or the keyboard layout lacks ${own(them)}.`;
}

/** A field's text as an answer shows it: its start, in quotes. */
const fieldShown = (value: string): AppText =>
  appText(JSON.stringify(value.length > SHOWN_FIELD_CHARS ? `${value.slice(0, SHOWN_FIELD_CHARS)}…` : value));

/** Longest texts compared character by character; longer ones are compared from their ends only. */
const ALIGNED_CHARS = 400;

/**
 * The characters of `typed` left out of `shown` when `shown` is `typed` less some of them, perhaps with some
 * shown otherwise (a calculator shows "*" as "×"; what the field held before may precede it); undefined when the
 * field holds something else (a result).
 */
export function missingFrom(shown: string, typed: readonly string[]): string[] | undefined {
  const have = [...shown];
  const kept =
    have.length * typed.length <= ALIGNED_CHARS * ALIGNED_CHARS ? common(have, typed) : fromEnd(have, typed);
  const missing = typed.filter((_, i) => !kept.typed.has(i));
  // Characters shown that were not typed, after the first one kept: each stands for one typed otherwise.
  const first = Math.min(...kept.shown);
  const extra = have.filter((_, i) => i > first && !kept.shown.has(i)).length;
  const mostlyThere = kept.typed.size > 0 && kept.typed.size * 2 >= typed.length;
  return missing.length > 0 && mostlyThere && extra <= missing.length ? missing : undefined;
}

/** The positions of a longest common subsequence of the two, in each. */
function common(shown: readonly string[], typed: readonly string[]) {
  const rows = shown.length + 1;
  const cols = typed.length + 1;
  const length = new Uint16Array(rows * cols);
  for (let i = shown.length - 1; i >= 0; i--)
    for (let j = typed.length - 1; j >= 0; j--)
      length[i * cols + j] =
        shown[i] === typed[j]
          ? (length[(i + 1) * cols + j + 1] ?? 0) + 1
          : Math.max(length[(i + 1) * cols + j] ?? 0, length[i * cols + j + 1] ?? 0);
  const kept = { shown: new Set<number>(), typed: new Set<number>() };
  for (let i = 0, j = 0; i < shown.length && j < typed.length;) {
    if (shown[i] === typed[j]) {
      kept.shown.add(i++);
      kept.typed.add(j++);
    } else if ((length[(i + 1) * cols + j] ?? 0) >= (length[i * cols + j + 1] ?? 0)) i++;
    else j++;
  }
  return kept;
}

/** Characters kept, matched from the ends of both while they agree, skipping typed ones the field lacks. */
function fromEnd(shown: readonly string[], typed: readonly string[]) {
  const kept = { shown: new Set<number>(), typed: new Set<number>() };
  let at = shown.length - 1;
  for (let i = typed.length - 1; i >= 0; i--) {
    if (at >= 0 && shown[at] === typed[i]) {
      kept.shown.add(at--);
      kept.typed.add(i);
    }
  }
  return kept;
}

export class Input {
  /** The helper's person watch, asked for once per helper life (input.personFirst). */
  private watching: Promise<unknown> | undefined;

  constructor(
    private readonly kernel: Kernel,
    private readonly longestAction = LONGEST_ACTION,
    /** Why the call in progress keeps to the background (see EngineOptions.background). */
    readonly background: () => string | undefined = () => undefined,
    /** The person's own input stops the agent's (MACPILOT_PERSON_FIRST). */
    readonly personFirst = false,
    /** How the person lets agents use the pointer and the focus again (EngineOptions.foregroundAgain). */
    private readonly foregroundAgain = 'set MACPILOT_INPUT=foreground',
  ) {
    if (personFirst) kernel.port.onReady?.(() => (this.watching = undefined));
  }

  async click(spot: Spot, options: ClickOptions = {}, call?: CallOptions): Promise<ActionResult> {
    const button = options.button ?? 'left';
    const count = options.count ?? 1;
    const modifiers = (options.modifiers ?? []).map(parseModifier);
    const name = clickName(button, count);
    return this.onSpot('input.click', spot, name, call, (point, what) => async () => {
      await this.send('input.click', { at: point, button, count, modifiers }, call);
      return words`${own(`${capitalize(name)}ed`)} ${what}${own(holding(modifiers))}.`;
    });
  }

  /** click_element's path when the element has no press action or the click is not a plain left click. */
  clickElement(entry: RefEntry, detail: ElementDetail, options: ClickOptions, call?: CallOptions): Prepared {
    const point = centreOf(entry, detail);
    const button = options.button ?? 'left';
    const count = options.count ?? 1;
    const modifiers = (options.modifiers ?? []).map(parseModifier);
    return async () => {
      await this.inFront(entry, point, call);
      await this.send('input.click', { at: point, button, count, modifiers }, call);
      return words`${own(`${capitalize(clickName(button, count))}ed`)} ${entryWords(entry)} at its centre (${own(at(point))})${own(holding(modifiers))}, with a synthetic click (the pointer moved there).`;
    };
  }

  /**
   * The element's window brought in front, and the element checked to be what is at `point`: the pointer acts on
   * whatever is on top there, which may be another app's window (one the person's app lists deny, even).
   */
  private async inFront(entry: RefEntry, point: Point, call?: CallOptions): Promise<void> {
    const { ancestors } = await this.kernel.port.call('ax.ancestors', { id: entry.handle }, call);
    const top = ancestors[1];
    if (top) await this.kernel.port.call('ax.focus', { id: top.id }, call).catch(() => undefined);
    // A hit test that cannot be made here leaves the click as it was before the check.
    const element = await this.kernel.elementAt(point, call);
    if (!element || element.pid === entry.app.pid) return;
    // Which app covers it is not said: it may be one the person's app lists hide.
    throw new MacpilotError({
      what: `${entryLine(entry)} is covered at its centre, so the pointer did not act`,
      why: `another app's window stays on top at ${at(point)} though its own window was brought in front, and the pointer would act on it`,
      next: 'move (move_window) or minimize (minimize_window) the window that covers it, then try again; list_windows lists the windows front to back',
      kind: 'element_covered',
      person: {
        next: 'move or minimize the window that covers it (`macpilot windows` lists them front to back), then run the command again',
      },
    });
  }

  /** Move the pointer there; smooth: along a line over INPUT_DEFAULTS.smoothMoveMs. Hover is a move that stays. */
  async move(
    spot: Spot,
    smooth: boolean,
    verb: 'move the pointer to' | 'hover over',
    call?: CallOptions,
  ): Promise<ActionResult> {
    const durationMs = smooth ? INPUT_DEFAULTS.smoothMoveMs : 0;
    return this.onSpot('input.move', spot, verb, call, (point, what) => async () => {
      await this.send('input.move', { to: point, durationMs }, call);
      return verb === 'hover over'
        ? words`The pointer rests over ${what}.`
        : words`Moved the pointer to ${what}${own(smooth ? ' smoothly' : '')}.`;
    });
  }

  async drag(from: Spot, to: Spot, call?: CallOptions): Promise<ActionResult> {
    this.refuseInBackground('input.drag');
    const end = isPoint(to)
      ? { point: to, what: await this.kernel.guard('drag', () => this.dropPoint(to, call)) }
      : await this.element(to, call);
    await this.refusePastingElement(undefined, 'a drag onto', end.point, call);
    return this.onSpot('input.drag', from, 'drag from', call, (start, what) => async () => {
      const params = {
        from: start,
        to: end.point,
        button: 'left' as const,
        modifiers: [],
        durationMs: INPUT_DEFAULTS.dragMs,
      };
      await this.send('input.drag', params, call);
      return words`Dragged from ${what} to ${end.what}.`;
    });
  }

  /** A drop point on a display, in an app the call may act on: what is dropped lands there. */
  private async dropPoint(to: LabelledPoint, call?: CallOptions): Promise<Words> {
    const what = await this.onDisplay(to, 'The drop point', call, ['to']);
    const hit = await this.kernel.elementAt({ x: to.x, y: to.y }, call);
    if (hit) await this.kernel.resolver.appOf(hit.pid, call);
    return what;
  }

  /** Scroll by `px` pixels, in wheel steps of PX_PER_WHEEL_STEP; without a spot, where the pointer is. */
  async scroll(
    direction: Direction,
    px: number,
    spot: Spot | undefined,
    call?: CallOptions,
  ): Promise<ActionResult> {
    const steps = Math.max(1, Math.round(px / PX_PER_WHEEL_STEP));
    const sign = direction === 'up' || direction === 'left' ? -1 : 1;
    const vertical = direction === 'up' || direction === 'down';
    const where = spot ?? (await this.pointerAt(call));
    return this.onSpot('input.scroll', where, `scroll ${direction}`, call, (point, what) => async () => {
      const delta = { dx: vertical ? 0 : sign * steps, dy: vertical ? sign * steps : 0 };
      await this.send('input.scroll', { at: point, ...delta }, call);
      return words`Scrolled ${own(direction)} ${own(plural(steps, 'wheel step'))} (about ${steps * PX_PER_WHEEL_STEP} px) at ${what}.`;
    });
  }

  /**
   * Scroll by exact amounts in both axes, in pixels (positive dx right, dy down): as pixels where the platform
   * scrolls smoothly (macOS), else as the nearest whole wheel steps of PX_PER_WHEEL_STEP (X11), which the answer
   * says. Without a spot, where the pointer is.
   */
  async scrollBy(dx: number, dy: number, spot: Spot | undefined, call?: CallOptions): Promise<ActionResult> {
    const smooth = (await this.kernel.platform(call)) === 'darwin';
    const steps = (px: number) =>
      px === 0 ? 0 : Math.sign(px) * Math.max(1, Math.round(Math.abs(px) / PX_PER_WHEEL_STEP));
    const where = spot ?? (await this.pointerAt(call));
    const amounts = [
      dx === 0 ? '' : `${Math.abs(dx)} px ${dx > 0 ? 'right' : 'left'}`,
      dy === 0 ? '' : `${Math.abs(dy)} px ${dy > 0 ? 'down' : 'up'}`,
    ]
      .filter(Boolean)
      .join(' and ');
    return this.onSpot('input.scroll', where, `scroll ${amounts}`, call, (point, what) => async () => {
      if (smooth) {
        await this.send('input.scroll', { at: point, dx, dy, unit: 'pixel' }, call);
        return words`Scrolled ${own(amounts)} at ${what}.`;
      }
      const delta = { dx: steps(dx), dy: steps(dy) };
      await this.send('input.scroll', { at: point, ...delta }, call);
      const sent = [delta.dx, delta.dy]
        .filter((n) => n !== 0)
        .map((n) => plural(Math.abs(n), 'wheel step'))
        .join(' and ');
      return words`Scrolled ${own(amounts)} at ${what}, sent as ${own(sent)} of ${own(`${PX_PER_WHEEL_STEP} px`)} (X11 scrolls in wheel steps; how far a step scrolls is up to the app).`;
    });
  }

  async typeText(options: TypeOptions, call?: CallOptions): Promise<ActionResult> {
    this.checkTypingTime(options);
    if (!options.target) {
      this.refuseInBackground('input.type');
      return this.kernel.guard('type text', async (reach) => {
        const { element } = await this.kernel.port.call('ax.focused', {}, call);
        // Into a text field, the answer waits for the text, as into a field given by ref.
        const awaited = element && awaitsText(options.text, element.states.includes('multiline'));
        const field = awaited && roleOf(element) === 'textbox' ? element.id : undefined;
        const before =
          field === undefined ? undefined : await this.fieldText(field, call).catch(() => undefined);
        return this.observed(
          element,
          async () => {
            const multiline = element?.states.includes('multiline') === true;
            const done = await this.typeKeys(options, field, before, multiline, call);
            // Named as the focus found it: the element the keys went to.
            const into = element
              ? words`the focused ${appText(labelOf(roleOf(element), element.name))}`
              : own('the focused element');
            return words`${own(capitalize(done.typed))} into ${into}${own(`${done.submitted}.`)}${done.short}`;
          },
          call,
          { reach, expectation: { pressesDefault: options.submit === true } },
        );
      });
    }
    if (this.background() !== undefined && !options.submit)
      return this.typeInBackground(options, options.target, call);
    // Refused before the field is focused, not after: typing into a field by ref keeps to the background, and
    // only submit's Enter cannot.
    this.refuseInBackground('input.key', 'the Enter pressed after the text goes where the keyboard focus is');
    return this.kernel.act(
      options.target,
      'type into',
      call,
      (entry, detail) => this.typingInto(entry, detail, options, call),
      () => ({ pressesDefault: options.submit === true }),
    );
  }

  /** Refuses typing that would take longer than one action may (action_seconds). */
  checkTypingTime(options: Pick<TypeOptions, 'text' | 'delayMs'>): void {
    const over = this.typingOverrun(options);
    if (!over) return;
    const { characters, delayMs, expectedMs, perCall } = over;
    const pace = delayMs >= KEY_COST_MS ? `${delayMs} ms apart` : `at ${KEY_COST_MS} ms a key at the least`;
    throw new MacpilotError({
      what: `Typing ${plural(characters, 'character')} ${pace} would take ${duration(expectedMs)}`,
      why: `${over.limit}, so that it answers while it can still be watched and stopped`,
      next: `type the text in parts of at most ${perCall} characters (one type_text call each)${delayMs > KEY_COST_MS ? ', or lower delay_ms' : ''}`,
      kind: 'action_too_long',
      concerns: ['text', 'delay_ms'],
      refusal: true,
    });
  }

  /** How long typing the text would take, when that is more than one action may take; undefined: it is not. */
  typingOverrun(
    options: Pick<TypeOptions, 'text' | 'delayMs'>,
  ): { characters: number; delayMs: number; expectedMs: number; perCall: number; limit: string } | undefined {
    const characters = Array.from(options.text).length;
    const delayMs = options.delayMs ?? 0;
    // Keys sent without a delay still take the helper about KEY_COST_MS each.
    const perKeyMs = Math.max(delayMs, KEY_COST_MS);
    const expectedMs = characters * perKeyMs;
    const { ms: longestMs, setBy } = this.longestAction;
    if (expectedMs <= longestMs) return undefined;
    const perCall = Math.floor(longestMs / perKeyMs);
    return {
      characters,
      delayMs,
      expectedMs,
      perCall,
      limit: `one action may take at most ${duration(longestMs)} (${setBy})`,
    };
  }

  /**
   * Typing into an element a call named: focused, its caret at the end of a one-line field's text unless
   * clearFirst asks for the text to be replaced, and the text awaited in it.
   */
  typingInto(entry: RefEntry, detail: ElementDetail, options: TypeOptions, call?: CallOptions): Prepared {
    return async () => {
      await this.focusAndWait(entry, call);
      // Focus selects a one-line field's whole text (GTK), which the keys would replace: the text is added at
      // its end instead, as in the background, unless clear_first asks for the replacing.
      if (!options.clearFirst && !detail.states.includes('multiline')) {
        await this.pressChord(parseChord('end'), await this.kernel.platform(call), 1, call);
      }
      const before = options.clearFirst
        ? ''
        : await this.fieldText(entry.handle, call).catch(() => undefined);
      const multiline = detail.states.includes('multiline');
      const done = await this.typeKeys(options, entry.handle, before, multiline, call);
      return words`Focused ${entryWords(entry)}, ${own(done.typed + done.submitted)}.${done.short}`;
    };
  }

  /**
   * Types; into a `field` whose text was `before`, waits until the text is in, and only then presses submit's
   * Enter, so that Enter acts on the whole text and the answer reports what Enter made of it.
   */
  private async typeKeys(
    options: TypeOptions,
    field: string | undefined,
    before: string | undefined,
    multiline: boolean,
    call?: CallOptions,
  ): Promise<{ typed: string; submitted: string; short: Words }> {
    const characters = Array.from(options.text).length;
    const delayMs = options.delayMs ?? 0;
    const typingCall = { ...call, timeoutMs: characters * (delayMs + KEY_COST_MS) + ANSWER_MARGIN_MS };
    const platform = await this.kernel.platform(call);
    const awaitText = awaitsText(options.text, multiline);
    if (options.clearFirst) {
      // "command" is Control on Linux: one chord selects all on both platforms.
      await this.pressChord(parseChord('command+a'), platform, 1, call);
      await this.pressChord(parseChord('backspace'), platform, 1, call);
    }
    const { typed } = await this.send('input.type', { text: options.text, delayMs }, typingCall);
    const short =
      field !== undefined && awaitText
        ? await this.untilTyped(field, options.text, before, multiline, call)
        : [];
    if (options.submit) {
      // The typing is done: a failure to read the window (the field gone with it) leaves the Enter to press.
      if (field !== undefined)
        await this.kernel.changes.untilDefaultEnabled(field, call).catch((error: unknown) => {
          if (call?.signal?.aborted) throw error;
        });
      const typedValue =
        field === undefined ? undefined : await this.fieldText(field, call).catch(() => undefined);
      await this.pressChord(parseChord('enter'), platform, 1, call);
      if (field !== undefined && typedValue !== undefined) await this.untilSubmitted(field, typedValue, call);
    }
    const steps = [options.clearFirst ? 'cleared it, ' : '', `typed ${plural(typed, 'character')}`];
    return { typed: steps.join(''), submitted: options.submit ? ' and pressed Enter' : '', short };
  }

  async pressKey(
    key: string,
    modifiers: readonly string[],
    repeat: number,
    call?: CallOptions,
    app?: string,
  ): Promise<ActionResult> {
    const chord = parseChord(key, modifiers);
    const platform = await this.kernel.platform(call);
    // In the background, to a named app: macOS posts keys to one process, the focus left where it is.
    if (app !== undefined && this.background() !== undefined && platform === 'darwin') {
      return this.pressInBackground(chord, platform, repeat, app, call);
    }
    const run = async () => {
      await this.pressChord(chord, platform, repeat, call);
      return own(`Pressed ${chordName(chord, platform)}${repeat > 1 ? ` ${repeat} times` : ''}.`);
    };
    // In the background elsewhere, the key is refused as any background key is.
    if (app === undefined || this.background() !== undefined) {
      // A character key alone types its character: into a text field, the answer waits for all of them.
      const typed =
        chord.modifiers.length === 0 && Array.from(chord.key.name).length === 1
          ? chord.key.name.repeat(repeat)
          : undefined;
      return this.onFocus(
        'input.key',
        `press ${chordName(chord, platform)}`,
        call,
        run,
        typed,
        pressing(chord),
      );
    }
    // In the foreground a key goes where the focus is: to the named app only when the focus is in it.
    return this.kernel.guard(`press ${chordName(chord, platform)} in ${JSON.stringify(app)}`, async (reach) =>
      this.observed(await focusIn(this.kernel, app, call), run, call, {
        reach,
        expectation: pressing(chord),
      }),
    );
  }

  private async pressInBackground(
    chord: Chord,
    platform: Platform,
    repeat: number,
    app: string,
    call?: CallOptions,
  ): Promise<ActionResult> {
    return this.kernel.guard(`press ${chordName(chord, platform)} in ${JSON.stringify(app)}`, async () => {
      const target = await this.kernel.resolver.app(app, call);
      return this.kernel.changes.observe(
        { app: target, top: undefined },
        async () => {
          const params = { code: codeFor(chord.key, platform), modifiers: chord.modifiers, repeat };
          await this.kernel.port.call('input.key', { ...params, pid: target.pid }, call);
          return own(
            `Pressed ${chordName(chord, platform)}${repeat > 1 ? ` ${repeat} times` : ''} in ${target.name} (pid ${target.pid}), sent to it alone: the keyboard focus was not touched.`,
          );
        },
        call,
      );
    });
  }

  /** Where the pointer is, and the display it is on (none when it sits between displays). */
  async pointer(call?: CallOptions): Promise<{ at: Point; display: DisplayInfo | undefined }> {
    const at = await this.pointerAt(call);
    const display = await this.kernel.displays.at(at, 'The pointer', call).then(
      (found) => found.display,
      () => undefined,
    );
    return { at, display };
  }

  /** Where the pointer is: the spot of an action given none. */
  private async pointerAt(call?: CallOptions): Promise<Point> {
    return (await this.send('input.pointer', {}, call)).at;
  }

  /**
   * Press (down) or release one mouse button and leave it so, at a point or where the pointer is, reporting
   * what changed under it.
   */
  async button(
    button: MouseButton,
    down: boolean,
    spot: Spot | undefined,
    call?: CallOptions,
  ): Promise<ActionResult> {
    const verb = `${down ? 'press' : 'release'} the ${button} button`;
    // A menu chooses the item a held button is let go over, wherever it was pressed: while the clipboard holds a
    // hidden app's copy, no button is held down across calls.
    const by = down ? await this.kernel.hiddenCopy.holds() : undefined;
    if (by) {
      throw hiddenCopyRefusal(
        `Not done: ${verb} and leave it down, while the clipboard holds what was copied`,
        'a menu chooses the item the button is let go over, its Paste too, which would paste that copy',
        'click, or drag in one call (both are checked where they press and let go); holding a button works again once anything else is copied',
        by,
      );
    }
    const where = spot ?? (await this.pointerAt(call));
    return this.onSpot('input.button', where, verb, call, (point, what) => async () => {
      await this.send('input.button', { button, down, at: point }, call);
      return words`${own(down ? 'Pressed' : 'Released')} the ${own(button)} button at ${what}.`;
    });
  }

  /**
   * Release a held button (where the pointer is) or key, sending only that: no app is looked at or gated, as
   * letting go must work whatever is under the pointer or focused.
   */
  async letGo(part: { button: MouseButton } | { key: HeldKey }, call?: CallOptions): Promise<void> {
    // Straight to the helper: letting go is never refused, in the background or not.
    if ('button' in part) {
      await this.kernel.port.call('input.button', { button: part.button, down: false }, call);
      return;
    }
    await this.kernel.port.call('input.hold', await this.holdParams(part.key, false, call), call);
  }

  private async holdParams(key: HeldKey, down: boolean, call?: CallOptions): Promise<Params<'input.hold'>> {
    if ('modifier' in key) return { modifier: key.modifier, down };
    return { code: codeFor(key.key, await this.kernel.platform(call)), down };
  }

  /** Press (down) or release one key and leave it so, reporting what changed in the app with keyboard focus. */
  async hold(key: HeldKey, down: boolean, call?: CallOptions): Promise<ActionResult> {
    // A key held down with ctrl held (key_down ctrl, key_down v) pastes as ctrl+v does; so does ctrl held down
    // while v is (key_down v, key_down ctrl): the key repeats, with ctrl, until released.
    if (down) {
      const platform = await this.kernel.platform(call);
      if ('key' in key) await this.refusePaste(key.key, [], platform, call);
      else for (const held of this.heldKeys()) await this.refusePaste(held, [key.modifier], platform, call);
    }
    const params = await this.holdParams(key, down, call);
    return this.onFocus('input.hold', `${down ? 'press' : 'release'} ${key.name}`, call, async () => {
      await this.send('input.hold', params, call);
      return own(`${down ? 'Pressed' : 'Released'} ${key.name}.`);
    });
  }

  /**
   * type_text into an element without its focus: the element's text set through the accessibility layer (the
   * text it had, then the new one, at its end), as set_value sets it. Pressing Enter would need the focus.
   */
  private typeInBackground(options: TypeOptions, target: Target, call?: CallOptions): Promise<ActionResult> {
    return this.kernel.act(target, 'type into', call, (entry) => async () => {
      let before = '';
      if (!options.clearFirst) {
        const text = await this.fieldText(entry.handle, call);
        if (text === undefined) {
          throw new MacpilotError({
            what: `Not done: ${entryLine(entry)}'s text cannot be added to in the background`,
            why: 'its text cannot be read whole (a password field, or a very long text), so it could not be kept',
            next: 'give clear_first: true to replace its text, or type in the foreground (background: false)',
            kind: 'needs_foreground',
            person: {
              next: 'give --clear to replace its text, or type in the foreground (MACPILOT_INPUT=foreground)',
            },
          });
        }
        before = text;
      }
      try {
        await this.kernel.port.call('ax.setValue', { id: entry.handle, value: before + options.text }, call);
      } catch (error) {
        // A web field takes only typing, which the background forbids: said as set_value says it.
        const background = this.background();
        if (error instanceof HelperError && error.data.typeInstead === true && background !== undefined)
          throw typingNeeded(entry, background);
        throw error;
      }
      const typed = plural(Array.from(options.text).length, 'character');
      return words`${own(options.clearFirst ? 'Replaced the text of' : `Added ${typed} to`)} ${entryWords(entry)} ${own(`through the accessibility layer${options.clearFirst ? ` (${typed})` : ''}: macpilot moved neither the pointer nor the keyboard focus.`)}`;
    });
  }

  /** Press a chord once without watching what it changes: one step of a long tour (the audit's Tab presses). */
  async tap(chord: string, call?: CallOptions): Promise<void> {
    await this.pressChord(parseChord(chord), await this.kernel.platform(call), 1, call);
  }

  // --- where an action lands and what it may change ---

  /** Resolve a spot to a point, act there, and report what changed in the app under it. */
  private async onSpot(
    method: InputMethod,
    spot: Spot,
    verb: string,
    call: CallOptions | undefined,
    prepare: (point: Point, what: Words) => Prepared,
  ): Promise<ActionResult> {
    // Before any app is looked at: in the background, what is at the point would not be reached at all.
    this.refuseInBackground(method);
    if (!isPoint(spot)) {
      return this.kernel.act(spot, verb, call, (entry, detail) => {
        const point = centreOf(entry, detail);
        const run = prepare(point, entryWords(entry));
        return async () => {
          await this.inFront(entry, point, call);
          return run();
        };
      });
    }
    return this.kernel.guard(`${verb} ${plainText(place(spot))}`, async (reach) => {
      const point = { x: spot.x, y: spot.y };
      const what = await this.onDisplay(spot, 'The point', call);
      const { element } = await this.kernel.port.call('ax.elementAt', point, call);
      // A button pressed or let go over a Paste item chooses it (GTK's menus choose on release, with any button).
      const presses = method === 'input.click' || method === 'input.button' || method === 'input.drag';
      if (presses)
        await this.refusePastingElement(
          element,
          method === 'input.drag' ? 'a drag from' : `${verb} at`,
          point,
          call,
        );
      return this.observed(element, prepare(point, what), call, { point, reach });
    });
  }

  /** A point named in an answer, with its display when there are several; refused when it is on none. */
  private async onDisplay(
    spot: LabelledPoint,
    what: string,
    call?: CallOptions,
    concerns?: readonly string[],
  ): Promise<Words> {
    const { display, several } = await this.kernel.displays.at(spot, what, call, concerns);
    return several ? words`${place(spot)} ${own(`(on display ${JSON.stringify(display.id)})`)}` : place(spot);
  }

  /**
   * Run where the keyboard focus is, reporting what changed there. `typed`: the text the keys type; into a text
   * field, the answer waits until the field shows it (a slow app takes keys well after they went out).
   */
  private async onFocus(
    method: InputMethod,
    verb: string,
    call: CallOptions | undefined,
    run: Prepared,
    typed?: string,
    expectation?: Expectation,
  ): Promise<ActionResult> {
    // Before the focused app is looked at: in the background, it would not be reached at all.
    this.refuseInBackground(method);
    return this.kernel.guard(verb, async (reach) => {
      const { element } = await this.kernel.port.call('ax.focused', {}, call);
      const field = typed !== undefined && element && roleOf(element) === 'textbox' ? element.id : undefined;
      if (field === undefined || typed === undefined)
        return this.observed(element, run, call, { reach, expectation });
      const before = await this.fieldText(field, call).catch(() => undefined);
      return this.observed(
        element,
        async () =>
          words`${await run()}${await this.untilTyped(field, typed, before, element?.states.includes('multiline') === true, call)}`,
        call,
        { reach, expectation },
      );
    });
  }

  /**
   * Run, reporting what changed in the element's app, else in the active app (a desktop, a menu's grab). With no
   * element (an app without an accessibility tree), the window the input lands in, under `point` or in front for
   * keys, must be one the lists let agents act on: the window list needs no tree.
   */
  private async observed(
    element: ElementInfo | null,
    run: Prepared,
    call: CallOptions | undefined,
    {
      point,
      reach,
      expectation,
    }: { point?: Point; reach?: (reached: Reached) => void; expectation?: Expectation } = {},
  ): Promise<ActionResult> {
    if (element) {
      const scope = await this.kernel.changes.scope(element.id, element.pid, call);
      reach?.({ app: scope.app.name, label: labelOf(roleOf(element), element.name) });
      return this.kernel.changes.observe(scope, run, call, expectation);
    }
    await this.kernel.resolver.refuseHiddenWindowAt(point, call);
    // Input at a point lands in the window there, which may be acted on: an active app the lists hide (the
    // console's browser in front, say) only goes unwatched. Keys would land in it, and are refused.
    const active = await this.kernel.resolver.app(undefined, call).catch((error: unknown) => {
      if (error instanceof MacpilotError && (!(error instanceof AppRefused) || point !== undefined))
        return undefined;
      throw error;
    });
    if (active) {
      reach?.({ app: active.name });
      const scope = await this.kernel.changes.activeScope(active, call);
      return this.kernel.changes.observe(scope, run, call, expectation);
    }
    return { kind: 'action', done: await run(), outcome: { kind: 'unwatched' } };
  }

  private async element(target: Target, call?: CallOptions): Promise<{ point: Point; what: Words }> {
    const { entry, detail } = await this.kernel.detail(target, 0, call);
    return { point: centreOf(entry, detail), what: entryWords(entry) };
  }

  /**
   * After submit's Enter: a field that Enter changes (a calculator's result) or takes away (a dialog closing)
   * does so a moment later; the answer waits for that (briefly: Enter may change nothing in the field).
   */
  private async untilSubmitted(handle: string, typed: string, call?: CallOptions): Promise<void> {
    const end = performance.now() + SUBMIT_WAIT_MS;
    while (performance.now() < end) {
      const value = await this.fieldText(handle, call).catch(() => undefined);
      if (value !== typed) return;
      await sleep(INPUT_DEFAULTS.focusPollMs, undefined, { signal: call?.signal });
    }
  }

  /**
   * The app reads typed keys after the X server took them, and it reads keys typed with lent keycodes slower
   * still (each lending makes it load the keyboard map again): the answer waits until the field's text ends
   * with what was typed, or has grown by it from `before` (typed mid-text), while the text keeps changing (at
   * most TYPED_MAX_WAIT_MS), or until it has not changed for TYPED_WAIT_MS (an app may rightly change what it is
   * given, or hide it); and says so when it then shows less than the keys sent (a layout without some of the
   * characters, a field that limits or rewrites what is typed).
   */
  private async untilTyped(
    handle: string,
    typed: string,
    shownBefore: string | undefined,
    multiline: boolean,
    call?: CallOptions,
  ): Promise<Words> {
    // A multi-line area may show its text with newlines at its end (a web page's editable area): compared without.
    const trimmed = (shown: string) => (multiline ? shown.replace(/\n+$/, '') : shown);
    const text = trimmed(typed);
    const before = shownBefore === undefined ? undefined : trimmed(shownBefore);
    // A long text keeps a slow app busy well after the keys went out: wait while the field keeps changing.
    const cap = performance.now() + TYPED_MAX_WAIT_MS;
    const settleMs = settlingFor(text);
    let last: string | undefined;
    let changedAt = performance.now();
    // The text at the end, and (the field's text before known) all of it: a repetitive text ends a field well
    // before its last keys arrive. A field cleared first is read as holding the text itself: a read before the
    // clearing took effect shows the old text, which may be as long ("42" read back after typing "4=").
    const arrived = (value: string) =>
      before === undefined || before === ''
        ? value.endsWith(text)
        : value.length === before.length + text.length ||
          (value.endsWith(text) && value.length >= before.length + text.length);
    for (;;) {
      // An app busy taking the keys may not answer a read: that is not the text having arrived.
      const read = await this.fieldText(handle, call).then(
        (value) => ({ value }),
        (error: unknown) => {
          if (call?.signal?.aborted) throw error;
          // The field went away with the keys on their way: its app closed (or crashed on them).
          if (isGone(error)) throw fieldGone(Array.from(typed).length);
          return undefined;
        },
      );
      const now = performance.now();
      if (read === undefined) {
        if (now >= cap) {
          return words`\nThe field could not be read for ${own(duration(TYPED_MAX_WAIT_MS))} after the keys went out: the app may still be taking them; read the field again before relying on its text.`;
        }
        changedAt = now;
        await sleep(INPUT_DEFAULTS.focusPollMs, undefined, { signal: call?.signal });
        continue;
      }
      const value = read.value === undefined ? undefined : trimmed(read.value);
      if (value === undefined || arrived(value)) return [];
      if (value !== last) {
        last = value;
        changedAt = now;
      }
      // Settled holding the text typed (it replaced a selection): it arrived.
      if (now - changedAt >= settleMs || now >= cap) {
        if (value.includes(text)) return [];
        // Still growing at the cap, and with a start of the text typed: the app is behind the keys, not making
        // something else of them (a field that rewrites what it is given is told as such).
        const typed = [...text];
        const grown =
          before !== undefined && value.startsWith(before) ? [...value.slice(before.length)] : undefined;
        const behind =
          grown !== undefined && grown.length < typed.length && grown.every((c, i) => c === typed[i]);
        if (now - changedAt < settleMs && (behind || before === undefined)) {
          const so = behind
            ? `, ${grown.length.toLocaleString('en-US')} of the ${typed.length.toLocaleString('en-US')} characters typed so far`
            : '';
          return words`\nThe field was still changing ${own(duration(TYPED_MAX_WAIT_MS))} after the keys went out: the app is still taking them. It holds ${fieldShown(value)}${own(so)}. Read the field again before relying on its text.`;
        }
        return notTyped(value, text, before);
      }
      await sleep(INPUT_DEFAULTS.focusPollMs, undefined, { signal: call?.signal });
    }
  }

  /**
   * The field's text once it is `text`, else once it has settled (settlingFor; at most TYPED_MAX_WAIT_MS): what
   * it settled on. Undefined when it cannot be read whole.
   */
  async settledText(handle: string, text: string, call?: CallOptions): Promise<string | undefined> {
    const cap = performance.now() + TYPED_MAX_WAIT_MS;
    let last: string | undefined;
    let changedAt = performance.now();
    for (;;) {
      const value = await this.fieldText(handle, call);
      const now = performance.now();
      if (value === undefined || value === text) return value;
      if (value !== last) {
        last = value;
        changedAt = now;
      }
      if (now - changedAt >= settlingFor(text) || now >= cap) return value;
      await sleep(INPUT_DEFAULTS.focusPollMs, undefined, { signal: call?.signal });
    }
  }

  /**
   * A field's whole text ('' when it holds none); undefined when it cannot be read whole (secure, too long) or
   * shows none of its own (Firefox's address bar, whose text is in no element it exposes; an editable area's blocks).
   */
  private async fieldText(handle: string, call?: CallOptions): Promise<string | undefined> {
    const { element } = await this.kernel.port.call(
      'ax.element',
      { id: handle, maxValueLength: MAX_FIELD_CHARS },
      call,
    );
    const { value } = element;
    // A web page's editable area shows each line or block as an embedded object (U+FFFC): its text is elsewhere.
    const whole = typeof value === 'string' && !value.includes('\uFFFC');
    return isSecure(element) || element.valueTruncated || !whole ? undefined : value;
  }

  /** Focus the element, then wait until the app reports it focused: keys typed sooner can land elsewhere. */
  private async focusAndWait(entry: RefEntry, call?: CallOptions): Promise<void> {
    const focus = () => this.kernel.port.call('ax.focus', { id: entry.handle }, call);
    await focus();
    const start = Date.now();
    const deadline = start + INPUT_DEFAULTS.focusWaitMs;
    let askedAgain = false;
    for (;;) {
      const { element } = await this.kernel.port.call('ax.focused', { pid: entry.app.pid }, call);
      if (element?.id === entry.handle) return;
      // A window made inactive meanwhile (a click on the desktop, another app's window) keeps the focus from
      // arriving: asked again, the helper brings the element's window in front first.
      if (!askedAgain && Date.now() - start >= INPUT_DEFAULTS.focusWaitMs / 2) {
        askedAgain = true;
        await focus();
        continue;
      }
      if (Date.now() > deadline) {
        const now = element ? `another one (${element.nativeRole} "${element.name}")` : 'none';
        throw new MacpilotError({
          what: `${entryLine(entry)} did not take keyboard focus`,
          why: `after ${INPUT_DEFAULTS.focusWaitMs / 1000} s the focused element is still ${now}, so nothing was typed`,
          next: 'check that it is an enabled text field (get_element), that its window is in front (focus_window), then retry',
          kind: 'focus_not_taken',
          person: {
            next: 'check that it is an enabled text field (`macpilot get` with its path) and that its window comes to the front when you click in it, then run the command again',
          },
        });
      }
      await sleep(INPUT_DEFAULTS.focusPollMs, undefined, { signal: call?.signal });
    }
  }

  // --- the helper ---

  /** The modifiers held down across calls (HeldInput's): a key pressed now goes with them. */
  heldModifiers: () => Modifier[] = () => [];
  /** The other keys held down across calls (HeldInput's): they repeat with any modifier pressed meanwhile. */
  heldKeys: () => Key[] = () => [];

  /** Refuses a key that, with its modifiers and those held down, pastes a hidden app's copy (HiddenCopy). */
  async refusePaste(
    key: Key,
    modifiers: readonly Modifier[],
    platform: Platform,
    call?: CallOptions,
  ): Promise<void> {
    const chord = { key, modifiers: [...new Set([...modifiers, ...this.heldModifiers()])] };
    if (!pastes(chord)) return;
    const what = `pressing ${chordName(chord, platform)}`;
    await this.kernel.hiddenCopy.refusePaste(what);
    // Shift+Insert pastes the text selected last in some X11 apps (xterm), as a middle click does.
    if (key.name.toLowerCase() === 'insert' && platform === 'linux')
      await refuseSelectionPaste(this.kernel.port, this.kernel.resolver, what, call, false);
  }

  /**
   * A press on a "Paste" button or menu item pastes as Ctrl+V does, wherever the agent found its point (a drag
   * that ends on a menu's Paste item chooses it too): refused while the clipboard holds a hidden app's copy.
   * `element`: what the hit test found at the point, undefined when not asked yet.
   */
  private async refusePastingElement(
    element: ElementInfo | null | undefined,
    verb: string,
    point: Point,
    call?: CallOptions,
  ): Promise<void> {
    if (!(await this.kernel.hiddenCopy.holds())) return;
    const there =
      element === undefined ? (await this.kernel.port.call('ax.elementAt', point, call)).element : element;
    const pasting = (e: ElementInfo) => PASTING_ROLES.has(roleOf(e)) && namedPaste(e.name);
    const found = there && pasting(there) ? there : await this.showingAt(there?.pid, point, pasting, call);
    if (!found) return;
    await this.kernel.hiddenCopy.refusePaste(
      `${verb} the ${roleOf(found)} ${JSON.stringify(found.name.trim())}`,
    );
  }

  /**
   * A showing element of the app of `pid` (else the active app's) at `point` that `wanted` picks: a menu bar's
   * open menu lies outside its window's tree as the hit test walks it (GTK), so only a walk finds its items.
   */
  private async showingAt(
    pid: number | undefined,
    point: Point,
    wanted: (element: ElementInfo) => boolean,
    call?: CallOptions,
  ): Promise<ElementInfo | undefined> {
    const apps = await this.kernel.resolver.apps(call);
    const app = apps.find((a) => (pid === undefined ? a.active : a.pid === pid));
    if (!app) return undefined;
    const { root } = await this.kernel.port.call(
      'ax.snapshot',
      {
        root: app.id,
        depth: 64,
        maxNodes: 5000,
        includeHidden: false,
        maxValueLength: 0,
        includeBounds: true,
      },
      call,
    );
    const inside = ({ bounds: b }: ElementInfo) =>
      b !== undefined &&
      point.x >= b.x &&
      point.x < b.x + b.width &&
      point.y >= b.y &&
      point.y < b.y + b.height;
    const walk = (node: ElementNode): ElementInfo | undefined =>
      wanted(node) && inside(node) ? node : node.children?.map(walk).find(Boolean);
    return walk(root);
  }

  /**
   * While the clipboard holds a hidden app's copy, the keys that would paste it by other ways than their chord:
   * "v" typed with ctrl held down by key_down, and any key but Escape while a menu or a button named Paste has
   * the keyboard focus (a menu's P, Enter on its Paste item), or no element has it: a GTK menu open (the one the
   * menu key opens too) takes keys with no element focused.
   */
  private async refuseKeysIntoPaste(params: Params<InputMethod>, call?: CallOptions): Promise<void> {
    const keys = params as { text?: string; code?: number; modifier?: Modifier; down?: boolean };
    // A modifier held down pastes nothing by itself, and a key let go is never kept down.
    if (keys.modifier !== undefined || keys.down === false) return;
    const by = await this.kernel.hiddenCopy.holds();
    if (!by) return;
    const platform = await this.kernel.platform(call);
    if (keys.text !== undefined && /v/i.test(keys.text))
      await this.refusePaste(parseKey('v'), [], platform, call);
    if (keys.code === codeFor(parseKey('escape'), platform)) return;
    const { element } = await this.kernel.port.call('ax.focused', {}, call);
    const role = element ? roleOf(element) : undefined;
    const where = !element
      ? 'no element has the keyboard focus (as while a menu is open)'
      : MENU_ROLES.has(role!)
        ? 'a menu has the keyboard focus'
        : PASTING_ROLES.has(role!) && namedPaste(element.name)
          ? `the ${role} ${JSON.stringify(element.name)} has the keyboard focus`
          : undefined;
    if (where === undefined) return;
    throw hiddenCopyRefusal(
      `Not done: keys pressed while ${where} may choose Paste, which would paste what was copied`,
      "the person's app lists hide that app, and what it copies (a password) with it",
      'press Escape to leave a menu, and choose menu items with click_menu_item (its Paste stays refused); these keys work again once anything else is copied',
      by,
    );
  }

  private async pressChord(chord: Chord, platform: Platform, repeat: number, call?: CallOptions) {
    await this.refusePaste(chord.key, chord.modifiers, platform, call);
    const code = codeFor(chord.key, platform);
    // "z" is the key that types z under the current layout (QWERTZ too): macOS codes are places on a US keyboard.
    const name = chord.key.name;
    const character =
      platform === 'darwin' && [...name].length === 1 && name.trim() !== '' ? name : undefined;
    await this.send('input.key', { code, character, modifiers: chord.modifiers, repeat }, call);
  }

  /** An input call; missing input (no XTEST, no macOS Accessibility permission) says how to check. */
  private async send<M extends InputMethod>(
    method: M,
    params: Params<M>,
    call?: CallOptions,
  ): Promise<Result<M>> {
    this.refuseInBackground(method);
    if (KEY_METHODS.has(method)) {
      await this.kernel.dialogsInActions.refuseKeys(this.kernel.port, call);
      await this.refuseKeysIntoPaste(params, call);
    }
    const middle = middlePress(method, params);
    if (middle) await refuseSelectionPaste(this.kernel.port, this.kernel.resolver, middle, call);
    if (this.personFirst && FOREGROUND[method] !== undefined) await this.watchPerson(call);
    try {
      return await this.kernel.port.call(method, params, call);
    } catch (error) {
      if (
        error instanceof HelperError &&
        (error.code === HelperErrorCode.NotAvailable || error.code === HelperErrorCode.PermissionDenied)
      ) {
        throw helperFailure(error, 'Synthetic input is unavailable');
      }
      if (error instanceof HelperError && error.code === HelperErrorCode.PersonActive)
        throw helperFailure(error);
      throw error;
    }
  }

  /**
   * Asks the helper to watch for the person's input, once per helper life. A helper that cannot (no XInput 2;
   * the macOS helper, for now) says so, and input goes on as without the setting; `macpilot doctor` tells.
   */
  private watchPerson(call?: CallOptions): Promise<unknown> {
    this.watching ??= this.kernel.port
      .call('input.personFirst', { on: true, quietMs: PERSON_QUIET_MS }, call)
      .catch(() => (this.watching = undefined));
    return this.watching;
  }

  /** Refuses input that takes the pointer or the keyboard focus when the call keeps to the background. */
  private refuseInBackground(method: InputMethod, needs = FOREGROUND[method]): void {
    const background = needs === undefined ? undefined : this.background();
    if (background !== undefined) {
      throw new MacpilotError({
        what: 'Not done: background input leaves the pointer and the keyboard focus to the person',
        why: `${needs}, and ${background}`,
        next:
          'act through the element instead (click_element on a control with an action of its own, set_value, ' +
          'type_text with ref), or call with background: false',
        kind: 'needs_foreground',
        refusal: true,
        person: {
          next:
            'act through the element instead: `macpilot click <path>` on a control with an action of its own, ' +
            '`macpilot set <path> <value>`, or `macpilot type <text> --into <path>` without --submit; or let ' +
            `agents use the pointer and the focus again: ${this.foregroundAgain}`,
        },
      });
    }
  }
}

/** A field that went away after the keys went out, before it showed them. */
const fieldGone = (characters: number) =>
  new MacpilotError({
    what: `The field went away after ${plural(characters, 'character')} were typed into it, before it showed them`,
    why: 'its app closed or replaced it while it took the keys (an app may even crash on many keys at once)',
    next: 'see whether the app still runs (list_apps), then read the field again before typing anything more',
    kind: 'field_gone',
    changed: true,
    person: {
      next: 'see whether the app still runs (`macpilot apps`), then read the field again before typing anything more',
    },
  });

/**
 * A person's recorded presses as run_workflow steps. Each click names what was under it by path (click_element),
 * or by its point when nothing accessible was there (click). A plain click into a text field is focus_element,
 * which keeps to the background (click_element clicks a field for real, moving the pointer). A click on a menu bar item is a click_menu_item of
 * its menu path, the clicks that only opened the menus on the way left out. Characters typed one after another
 * fold into one type_text, Backspace taking back the last of them; Enter, Tab, arrows and shortcuts are press_key
 * (one step with a repeat when the same key is pressed again). Platform-neutral: the recorder (recording.ts)
 * resolves what the helper sent into these events.
 */
import type { Modifier, MouseButton, Point } from '../../helper-client/protocol.js';
import type { RecordedStep } from '../kernel/results.js';

/** What a click landed on, as a path that replays. */
export interface ClickTarget {
  path: string;
  /** The app's name, as click_menu_item takes it. */
  app: string;
  /** A text field (or any element whose text can be edited). */
  editable?: boolean;
  /** A menu bar entry: its names from the menu bar, and whether the click only opened a menu. */
  menu?: { names: string[]; opensMenu: boolean };
}

/** A recorded press, resolved; `leftOut` says why it makes no step (a denied app, another app, a password). */
export type RecordedEvent =
  | {
      kind: 'press';
      button: MouseButton;
      at: Point;
      modifiers: Modifier[];
      time: number;
      target?: ClickTarget;
      leftOut?: string;
    }
  | { kind: 'release'; button: MouseButton; at: Point; time: number }
  | {
      kind: 'key';
      /** The key's name as press_key takes it; absent when keys.ts does not list it. */
      key?: string;
      /** The character typed, when the key typed one. */
      text?: string;
      modifiers: Modifier[];
      time: number;
      leftOut?: string;
    };

export interface FoldedSteps {
  steps: RecordedStep[];
  /** Presses that made no step, counted by why. */
  leftOut: Record<string, number>;
}

/** Presses on the same spot within this time make a double (or triple) click. */
export const MULTI_CLICK_MS = 400;
/** A release this far from its press makes a drag. */
export const DRAG_DISTANCE = 8;
const SAME_SPOT = 4;

/** press_key's spelling of each modifier. */
const CHORD_WORDS: Record<Modifier, string> = {
  command: 'cmd',
  control: 'ctrl',
  option: 'alt',
  shift: 'shift',
  super: 'super',
  fn: 'fn',
};

const distance = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);

/** A key press as press_key writes it: "enter", "ctrl+shift+s". */
export const chordOf = (key: string, modifiers: readonly Modifier[]): string =>
  [...modifiers.map((m) => CHORD_WORDS[m]), key].join('+');

const clickOptions = (button: MouseButton, modifiers: readonly Modifier[], count: number) => ({
  ...(button === 'left' ? {} : { button }),
  ...(count > 1 ? { count } : {}),
  ...(modifiers.length > 0 ? { modifiers: [...modifiers] } : {}),
});

/** Whether a key press types into the text run rather than being a key of its own. */
const types = (event: {
  text?: string;
  modifiers: readonly Modifier[];
}): event is { text: string } & typeof event =>
  event.text !== undefined && event.modifiers.every((m) => m === 'shift');

export function foldSteps(events: readonly RecordedEvent[]): FoldedSteps {
  const steps: RecordedStep[] = [];
  const leftOut: Record<string, number> = {};
  const leave = (why: string) => (leftOut[why] = (leftOut[why] ?? 0) + 1);
  /** The text being typed, while the presses are characters. */
  let typed: string[] | undefined;
  /** The last click's step and press, for a second press on the same spot. */
  let lastClick:
    { step: RecordedStep; at: Point; time: number; count: number; button: MouseButton } | undefined;
  /** The press a release belongs to, for a drag. */
  let pressed: { at: Point; stepIndex: number } | undefined;

  const endTyping = () => {
    if (typed && typed.length > 0) steps.push({ tool: 'type_text', args: { text: typed.join('') } });
    typed = undefined;
  };

  for (const event of events) {
    if (event.kind === 'release') {
      if (
        pressed &&
        distance(pressed.at, event.at) > DRAG_DISTANCE &&
        steps.length === pressed.stepIndex + 1
      ) {
        steps[pressed.stepIndex] = {
          tool: 'drag',
          args: { from: { ...pressed.at }, to: { x: event.at.x, y: event.at.y } },
        };
        lastClick = undefined;
      }
      pressed = undefined;
      continue;
    }
    if (event.leftOut) {
      leave(event.leftOut);
      endTyping();
      lastClick = undefined;
      pressed = undefined;
      continue;
    }
    if (event.kind === 'key') {
      lastClick = undefined;
      if (types(event)) {
        (typed ??= []).push(event.text);
        continue;
      }
      if (event.key === 'backspace' && event.modifiers.length === 0 && typed && typed.length > 0) {
        typed.pop();
        continue;
      }
      endTyping();
      if (!event.key) {
        leave('of keys macpilot has no name for');
        continue;
      }
      const key = chordOf(event.key, event.modifiers);
      const last = steps.at(-1);
      if (last?.tool === 'press_key' && last.args.key === key) {
        last.args.repeat = ((last.args.repeat as number | undefined) ?? 1) + 1;
      } else steps.push({ tool: 'press_key', args: { key } });
      continue;
    }
    endTyping();
    const again =
      lastClick &&
      lastClick.button === event.button &&
      event.time - lastClick.time <= MULTI_CLICK_MS &&
      distance(lastClick.at, event.at) <= SAME_SPOT &&
      lastClick.count < 3 &&
      steps.at(-1) === lastClick.step;
    if (again && lastClick) {
      lastClick.count++;
      lastClick.time = event.time;
      Object.assign(lastClick.step.args, clickOptions(event.button, event.modifiers, lastClick.count));
      pressed = { at: event.at, stepIndex: steps.length - 1 };
      continue;
    }
    const step = clickStep(event);
    if (!step) {
      lastClick = undefined;
      pressed = undefined;
      continue;
    }
    steps.push(step);
    lastClick = { step, at: event.at, time: event.time, count: 1, button: event.button };
    pressed = { at: event.at, stepIndex: steps.length - 1 };
  }
  endTyping();
  return { steps, leftOut };
}

/** The step a press makes: none for a click that only opened a menu bar menu. */
function clickStep(event: Extract<RecordedEvent, { kind: 'press' }>): RecordedStep | undefined {
  const { target, button, modifiers } = event;
  const options = clickOptions(button, modifiers, 1);
  if (target?.menu && button === 'left' && modifiers.length === 0) {
    if (target.menu.opensMenu) return undefined;
    return { tool: 'click_menu_item', args: { app: target.app, path: target.menu.names.join(' > ') } };
  }
  if (target?.editable && Object.keys(options).length === 0) {
    return { tool: 'focus_element', args: { path: target.path } };
  }
  if (target) return { tool: 'click_element', args: { path: target.path, ...options } };
  return { tool: 'click', args: { x: Math.round(event.at.x), y: Math.round(event.at.y), ...options } };
}

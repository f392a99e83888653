/** ax.element, ax.perform, ax.setValue: reading one element in full and acting on it. */
import {
  type ElementDetail,
  type ElementValue,
  HelperErrorCode,
  type Point,
  type Result,
} from '../../../../helper-client/protocol.js';
import {
  doAction,
  getActionNames,
  getChildren,
  getIndexInParent,
  getProperty,
  getAttributes,
  getInterfaces,
  getProps,
  getState,
  getText,
  isToggle,
  setProperty,
  setTextContents,
} from './atspi.js';
import { optionLists, type ReadContext, readInfo } from './element.js';
import { goneOr, HelperFailure, isUnsupported } from '../../errors.js';
import type { Ref } from './handles.js';
import { has, SECURE_ROLE, State } from './states.js';
import { frameOf, topFrame } from './tree.js';
import { click, hasPointer, raiseWindowOf, windowRelative } from '../desk.js';
import { until } from '../until.js';
import { normalizeName } from '../../../../text.js';

const SETTLE_MS = 1000;
/** How long a field that accepted new text may take to hold it. */
const TEXT_TAKEN_MS = 300;
/** Options named in a refusal, at most. */
const OPTIONS_LISTED = 20;
/** A toggle's own action: GTK's, and Chromium's web checkboxes' (check, uncheck). */
const TOGGLE_ACTIONS = ['toggle', 'click', 'press', 'activate', 'check', 'uncheck'];

/**
 * A numeric value's bounds, where the app gives finite ones that make a range. Read a property at a time:
 * Chromium's GetAll on the Value interface of its own UI's sliders writes a malformed answer and aborts.
 */
async function valueRange(ctx: ReadContext, ref: Ref): Promise<{ range?: { min: number; max: number } }> {
  const read = (name: string) =>
    getProperty(ctx.bus, ref, 'org.a11y.atspi.Value', name).then(Number, () => Number.NaN);
  const [min, max] = await Promise.all([read('MinimumValue'), read('MaximumValue')]);
  return Number.isFinite(min) && Number.isFinite(max) && max > min ? { range: { min, max } } : {};
}

export async function elementDetail(
  ctx: ReadContext,
  ref: Ref,
  maxValueLength: number,
): Promise<ElementDetail> {
  try {
    const readP = frameOf(ctx, ref).then((frame) => readInfo(ctx, ref, { maxValueLength, frame }));
    const restP = Promise.all([getInterfaces(ctx.bus, ref), getAttributes(ctx.bus, ref)]);
    restP.catch(() => {});
    // The read decides whether the element exists; only then do the other answers count.
    const read = await readP;
    const [interfaces, attributes] = await restP;
    const [actions, index, range] = await Promise.all([
      interfaces.has('org.a11y.atspi.Action') ? getActionNames(ctx.bus, ref) : [],
      getIndexInParent(ctx.bus, ref).then(
        (index) => (index === undefined ? {} : { indexInParent: index }),
        () => ({}),
      ),
      interfaces.has('org.a11y.atspi.Value') ? valueRange(ctx, ref) : {},
    ]);
    return { ...read.info, actions, attributes, ...index, ...range };
  } catch (error) {
    return goneOr(error);
  }
}

/**
 * A button's press is a real click at its centre, in its window brought to the front, whenever the button is on
 * screen and synthetic input is available: the app then gets what a person's press gives it, and a modal window
 * keeps it from the windows behind, as it keeps a person (DoAction reaches a button behind a modal dialog).
 * DoAction remains for the rest (hidden menu items, no display, background input); GTK3 runs a modal dialog's
 * loop inside its handling of the action, which is why the action goes on a connection of its own (peer.ts).
 *
 * A web page's element is pressed by its own action first: the browser answers at once and runs the page's
 * handlers later, and Chromium's press gives the page what a person's click gives it (pointerdown, mousedown,
 * pointerup, mouseup and click, trusted, at the element's centre: measured), without moving the pointer or
 * raising the window, even when something covers the element. A pointer click is the fallback when the
 * browser refuses the action.
 */
const CLICKABLE_ROLES = new Set(['push button', 'toggle button', 'check box', 'radio button', 'link']);
const PRESS_ACTIONS = new Set(['click', 'press', 'activate', 'toggle', 'jump']);

/**
 * The window of the element's top-level frame raised and active, so that synthetic input reaches it; false
 * when there is no display, no such window, or it would not become active.
 */
export async function activateFrameOf(ctx: ReadContext, ref: Ref, pid: number, at?: Point): Promise<boolean> {
  const top = await topFrame(ctx, ref);
  if (!top) return false;
  const frameName = (await getProps(ctx.bus, top)).name;
  return raiseWindowOf(ctx.session, pid, frameName, ctx.signal, at).catch(() => false);
}

async function pressWithPointer(ctx: ReadContext, ref: Ref): Promise<boolean> {
  const [top, app, canType] = await Promise.all([
    topFrame(ctx, ref),
    ctx.session.app(ref.bus),
    hasPointer(ctx.session),
  ]);
  if (!top || !canType) return false;
  const read = await readInfo(ctx, ref, {
    maxValueLength: 0,
    frame: windowRelative(ctx.session, app) ? top : undefined,
  });
  const bounds = read.info.bounds;
  if (!CLICKABLE_ROLES.has(read.role) || !bounds || read.info.states.includes('offscreen')) return false;
  if (bounds.width <= 0 || bounds.height <= 0) return false;
  const at = { x: bounds.x + bounds.width / 2, y: bounds.y + bounds.height / 2 };
  // Of two windows of the app titled alike, the one the button shows in.
  if (!(await activateFrameOf(ctx, ref, read.info.pid, at))) return false;
  await click(ctx.session, { at, button: 'left', count: 1, modifiers: [] });
  return true;
}

export async function perform(
  ctx: ReadContext,
  ref: Ref,
  action: string,
  background = false,
): Promise<Result<'ax.perform'>> {
  try {
    // Whether it is a web page's element (browsers give theirs the HTML tag they come from), read alongside.
    const [interfaces, web] = await Promise.all([
      getInterfaces(ctx.bus, ref),
      getAttributes(ctx.bus, ref).then(
        (attributes) => attributes.tag !== undefined,
        () => false,
      ),
    ]);
    const names = interfaces.has('org.a11y.atspi.Action') ? await getActionNames(ctx.bus, ref) : [];
    const index = names.findIndex((n) => n.toLowerCase() === action.trim().toLowerCase());
    const name = names[index];
    if (name === undefined) {
      throw new HelperFailure(
        HelperErrorCode.ActionFailed,
        `the element has no action "${action}"`,
        names.length > 0
          ? `use one of its actions: ${names.join(', ')}`
          : 'it has no actions; click it by position or act on its parent',
      );
    }
    const press = !background && PRESS_ACTIONS.has(name.toLowerCase());
    if (press && !web && (await pressWithPointer(ctx, ref))) return { performed: name, withPointer: true };
    const done = await doAction(ctx.bus, ref, index);
    if (!done && press && web && (await pressWithPointer(ctx, ref)))
      return { performed: name, withPointer: true };
    if (!done) {
      throw new HelperFailure(
        HelperErrorCode.ActionFailed,
        `the app refused the action "${name}"`,
        'the element may be disabled or not ready; check its states and try again',
      );
    }
    return { performed: name };
  } catch (error) {
    return goneOr(error);
  }
}

const notSettable = (why: string, hint: string, data: Record<string, unknown> = {}) =>
  new HelperFailure(HelperErrorCode.ValueNotSettable, `cannot set this value: ${why}`, hint, data);

async function setText(ctx: ReadContext, ref: Ref, role: string, interfaces: Set<string>, text: string) {
  if (!interfaces.has('org.a11y.atspi.EditableText')) {
    // Chromium's web fields take no text through accessibility: the server types into those it knows editable.
    const editable = has(await getState(ctx.bus, ref), State.EDITABLE);
    throw notSettable('it does not hold editable text', 'set text on a text field, or type into it', {
      typeInstead: editable,
    });
  }
  const bits = await getState(ctx.bus, ref);
  if (has(bits, State.READ_ONLY) || (!has(bits, State.EDITABLE) && role !== SECURE_ROLE)) {
    throw notSettable('it is read-only', 'find an editable field');
  }
  const before = role === SECURE_ROLE ? '' : await getText(ctx.bus, ref, -1);
  if (!(await setTextContents(ctx.bus, ref, text))) {
    throw notSettable('the app refused the text', 'type the text instead');
  }
  // Secure fields never yield their value, not even back to the caller.
  if (role === SECURE_ROLE) return {};
  // Firefox says yes to a web field's new text and keeps the old: the field is typed into instead.
  let now = before;
  const held = async () => (now = await getText(ctx.bus, ref, -1)) === text;
  if (!(await until(held, TEXT_TAKEN_MS, ctx.signal))) {
    // A field with a length limit keeps the text's start: typing the rest would be cut as well.
    if (now !== before && now !== '' && now.length < text.length && text.startsWith(now)) {
      throw notSettable('the field keeps no more characters', 'set a shorter value', {
        kept: Array.from(now).length,
      });
    }
    throw notSettable('the app did not take the text', 'type it instead', { typeInstead: true });
  }
  return { value: text };
}

/** The options of a combo box: its items, or those of the list or menu it holds. */
async function optionsOf(ctx: ReadContext, ref: Ref): Promise<{ ref: Ref; name: string; list: Ref }[]> {
  const lists = await optionLists(ctx.bus, ref);
  const held = await Promise.all(
    (lists.length > 0 ? lists : [ref]).map(async (list) =>
      (await getChildren(ctx.bus, list)).map((item) => ({ item, list })),
    ),
  );
  return Promise.all(
    held
      .flat()
      .map(async ({ item, list }) => ({ ref: item, name: (await getProps(ctx.bus, item)).name, list })),
  );
}

/**
 * A combo box set to the option named `text`: chosen through the option's own action or its list's
 * Selection (in Firefox, typed), and answered once the option is the selected one.
 */
async function chooseOption(ctx: ReadContext, ref: Ref, text: string): Promise<{ value: string }> {
  const options = await optionsOf(ctx, ref);
  const same = (a: string, b: string) => normalizeName(a).toLowerCase() === normalizeName(b).toLowerCase();
  const wanted =
    options.find((option) => normalizeName(option.name) === normalizeName(text)) ??
    options.find((option) => same(option.name, text));
  if (!wanted) {
    const names = options.map((option) => JSON.stringify(option.name)).slice(0, OPTIONS_LISTED);
    throw notSettable(
      `it has no option ${JSON.stringify(text)}`,
      names.length > 0
        ? `use one of its options: ${names.join(', ')}`
        : 'it lists no options: click it to open it',
      { notTaken: names.length > 0 },
    );
  }
  // Chosen: the option says it is selected (the browsers), or the box now bears its name (GTK, whose menu
  // items keep no selected state).
  const selected = async () =>
    has(await getState(ctx.bus, wanted.ref), State.SELECTED) ||
    same((await getProps(ctx.bus, ref)).name, wanted.name);
  if (await selected()) return { value: wanted.name };
  // Firefox changes a select chosen through Selection without telling the page (no change event): there the
  // option is typed, as a person picks one from the keyboard.
  if ((await ctx.session.app(ref.bus)).gecko) {
    throw notSettable(
      'Firefox tells the page of an option only when it is chosen from the keyboard',
      'type its name',
      {
        typeInstead: true,
      },
    );
  }
  // The option's own action (Chromium's), else its list's Selection.
  const acts = (await getActionNames(ctx.bus, wanted.ref).catch(() => [])).length > 0;
  if (!(acts && (await doAction(ctx.bus, wanted.ref, 0).catch(() => false)))) {
    const index = await getIndexInParent(ctx.bus, wanted.ref);
    const [chosen] = await ctx.bus
      .call(wanted.list.bus, wanted.list.path, 'org.a11y.atspi.Selection', 'SelectChild', 'i', [index ?? -1])
      .catch(() => [false]);
    if (chosen !== true)
      throw notSettable('the app refused to choose the option', 'click the combo box, then the option');
  }
  if (!(await until(selected, SETTLE_MS, ctx.signal))) {
    throw notSettable(
      'the option was asked for, but the app does not show it chosen',
      'click the combo box, then the option',
    );
  }
  return { value: wanted.name };
}

async function setNumber(ctx: ReadContext, ref: Ref, interfaces: Set<string>, value: number) {
  if (!interfaces.has('org.a11y.atspi.Value')) {
    throw notSettable('it has no numeric value', 'use a string for text fields, a boolean for toggles');
  }
  // Bounds that are no range (a web page's number field without min and max answers NaN and 0) bound nothing.
  const { range } = await valueRange(ctx, ref);
  if (range && (value < range.min || value > range.max)) {
    throw notSettable(
      `${value} is outside ${range.min}..${range.max}`,
      `use a number from ${range.min} to ${range.max}`,
      { notTaken: true },
    );
  }
  const current = () => getProperty(ctx.bus, ref, 'org.a11y.atspi.Value', 'CurrentValue');
  const before = await current();
  await setProperty(ctx.bus, ref, 'org.a11y.atspi.Value', 'CurrentValue', ctx.bus.variant('d', value));
  let after = before;
  const moved = async () => (after = await current()) !== before;
  // Chromium's web number field says yes and keeps its own value: an editable one is typed into instead. (A
  // value the app rounds to its steps has moved all the same.)
  if (before !== value && !(await until(moved, TEXT_TAKEN_MS, ctx.signal))) {
    if (has(await getState(ctx.bus, ref), State.EDITABLE)) {
      throw notSettable('the app did not take the number', 'type it instead', { typeInstead: true });
    }
  }
  return typeof after === 'number' ? { value: after } : {};
}

async function setToggle(
  ctx: ReadContext,
  ref: Ref,
  { role, name }: { role: string; name: string },
  interfaces: Set<string>,
  checked: boolean,
) {
  if (!(await isToggle(ctx.bus, ref, role, name))) {
    throw notSettable(
      'it is not a toggle',
      'use a boolean only for check boxes, switches and toggle buttons',
    );
  }
  const isChecked = async () => has(await getState(ctx.bus, ref), State.CHECKED);
  if ((await isChecked()) === checked) return { value: checked };
  const names = interfaces.has('org.a11y.atspi.Action') ? await getActionNames(ctx.bus, ref) : [];
  const index = names.findIndex((n) => TOGGLE_ACTIONS.includes(n.toLowerCase()));
  if (index < 0 || !(await doAction(ctx.bus, ref, index))) {
    throw notSettable('it has no toggle action', 'click it instead');
  }
  await until(async () => (await isChecked()) === checked, SETTLE_MS, ctx.signal);
  return { value: await isChecked() };
}

export async function setValue(
  ctx: ReadContext,
  ref: Ref,
  value: ElementValue,
): Promise<Result<'ax.setValue'>> {
  try {
    const read = await readInfo(ctx, ref, { maxValueLength: 0, frame: undefined });
    const interfaces = await getInterfaces(ctx.bus, ref);
    if (typeof value === 'string') {
      // A web page's select: a combo box without text of its own, whose options are its items.
      if (read.role === 'combo box' && !interfaces.has('org.a11y.atspi.EditableText'))
        return await chooseOption(ctx, ref, value);
      return await setText(ctx, ref, read.role, interfaces, value);
    }
    if (typeof value === 'number') return await setNumber(ctx, ref, interfaces, value);
    return await setToggle(ctx, ref, { role: read.role, name: read.info.name }, interfaces, value);
  } catch (error) {
    return goneOr(error);
  }
}

/** AT-SPI's ScrollType ANYWHERE: scroll as little as brings the element into view. */
const SCROLL_ANYWHERE = 6;

/**
 * Scrolls whatever contains the element until it is on screen, through Component.ScrollTo (Chromium and
 * Electron have it; GTK3 has not, and the engine then scrolls with the wheel).
 */
export async function scrollIntoView(ctx: ReadContext, ref: Ref): Promise<Result<'ax.scrollIntoView'>> {
  try {
    const [scrolled] = await ctx.bus.call(ref.bus, ref.path, 'org.a11y.atspi.Component', 'ScrollTo', 'u', [
      SCROLL_ANYWHERE,
    ]);
    if (scrolled !== true) throw noScrollTo('the app did not scroll it');
    const read = await readInfo(ctx, ref, { maxValueLength: 0, frame: await frameOf(ctx, ref) });
    return read.info.bounds ? { bounds: read.info.bounds } : {};
  } catch (error) {
    if (isUnsupported(error)) throw noScrollTo("the app's toolkit does not scroll elements into view (GTK3)");
    return goneOr(error);
  }
}

const noScrollTo = (why: string) =>
  new HelperFailure(
    HelperErrorCode.NotAvailable,
    `cannot scroll the element into view through AT-SPI: ${why}`,
    'use scroll_to_element, which scrolls with the mouse wheel',
  );

/**
 * Reads one element into an ElementInfo with as few round trips as possible: properties, role and states go
 * out together; children, value, bounds, a label fallback and a menu item's shortcut follow in one more parallel
 * wave, only where the first wave says they are needed.
 */
import type { Bounds, ElementInfo, ElementValue } from '../../../../helper-client/protocol.js';
import {
  type Extents,
  getChildren,
  getActions,
  getAttributes,
  getExtents,
  getLabelledBy,
  getProperty,
  getProps,
  getRoleName,
  getState,
  getText,
  isToggle,
  type Props,
} from './atspi.js';
import type { Bus } from '../../dbus/bus.js';
import { elementGone, goneOr, isGone, isUnsupported } from '../../errors.js';
import { asRef, handleOf, type Ref } from './handles.js';
import type { AppFacts, Session } from '../session.js';
import { has, isShowing, normalizeStates, SECURE_ROLE, State, type StateBits } from './states.js';
import { type FrameOffsets, shift } from './windows.js';
import { windowRelative } from '../desk.js';
import { elementName } from './names.js';
import { LONG_CONTAINER, onScreenChildren } from './on-screen.js';
import { childrenNamed } from './named-children.js';
import { shortcutOf } from './shortcuts.js';

/** Roles whose value is their text (read through the Text interface). */
const TEXT_ROLES = new Set(['text', 'entry', 'paragraph', 'terminal', 'document text', 'editbar']);
/**
 * Web page containers that hold their own text when they have no children: Firefox exposes a `<div>`'s or a
 * `<li>`'s text through its Text interface, not as a child (Chromium gives it a child of its own). Read as the
 * value of such an element without a name, it is what a person reads there.
 */
const TEXT_HOLDER_ROLES = new Set([
  'section',
  'status bar',
  'static',
  'list item',
  'table cell',
  'block quote',
  'caption',
  'note',
  'footer',
  'header',
  'article',
  'description term',
  'description value',
]);
/** Where an element's text has a child element (a link in a paragraph), the Text interface has this character. */
const EMBEDDED_OBJECT = /\uFFFC/g;
/** What holds a combo box's options, between it and them. */
const OPTION_LISTS = new Set(['menu', 'list', 'list box']);
/** Roles whose value is a number (the Value interface). */
const VALUE_ROLES = new Set(['slider', 'spin button', 'progress bar', 'scroll bar', 'level bar', 'dial']);
/** Form fields that often carry their name in a LABELLED_BY relation instead of Name. */
const FIELD_ROLES = new Set(['text', 'entry', SECURE_ROLE, 'spin button', 'combo box', 'slider']);
/** Roles whose key binding is a shortcut worth showing (menus have mnemonics only). */
const SHORTCUT_ROLES = new Set(['menu item', 'check menu item', 'radio menu item']);
/** Roles that are top-level windows. */
export const WINDOW_ROLES = new Set(['frame', 'window', 'dialog', 'alert', 'file chooser']);

const HIDDEN_COORD = -2147483648;

export interface ReadContext {
  bus: Bus;
  session: Session;
  offsets: FrameOffsets;
  /** Aborted when the server cancels the request: a long walk stops between its rounds. */
  signal?: AbortSignal;
}

export interface ReadOptions {
  maxValueLength: number;
  /** Fetch the children's references (GetChildren) when the element has any. */
  children: boolean;
  /** Read the element even when it is not showing (otherwise only `hidden: true` comes back). */
  includeHidden: boolean;
  bounds: boolean;
  /** The top-level frame the element lives in (needed for GTK4 bounds). */
  frame: Ref | undefined;
  /** Of a long container's children, take only those on screen (on-screen.ts). */
  onScreenOnly?: boolean;
  /** Of a long container's children, take only those whose name may hold this text (named-children.ts). */
  nameFilter?: string;
}

export type NodeRead =
  | { hidden: true }
  | {
      hidden: false;
      info: ElementInfo;
      children: Ref[];
      role: string;
      props: Props;
      bits: StateBits;
      /** The top-level frame the element's children live in: the element itself when it is one. */
      frame: Ref | undefined;
      /** Children a name filter passed over (their names were read, and did not match). */
      passedOver?: number;
    };

/** Code-point-safe truncation. */
function truncate(text: string, max: number): { value: string; truncated: boolean } {
  const points = Array.from(text);
  return points.length > max
    ? { value: points.slice(0, max).join(''), truncated: true }
    : { value: text, truncated: false };
}

/**
 * A text whose inline elements (a link, a span in a paragraph) stand as embedded-object characters, with each
 * one's own text in its place, where every child is one of them (Firefox's way: the n-th character is the n-th
 * child); else without them (Chromium's children mix its own text nodes in).
 */
async function withInlineText(bus: Bus, ref: Ref, text: string): Promise<string> {
  const embedded = text.match(EMBEDDED_OBJECT)?.length ?? 0;
  if (embedded === 0) return text;
  const children = await getChildren(bus, ref).catch(() => []);
  if (children.length !== embedded) return text.replace(EMBEDDED_OBJECT, '');
  const texts = await Promise.all(
    children.map(async (child) => {
      const { name } = await getProps(bus, child).catch(() => ({ name: '' }));
      if (name !== '') return name;
      return (await getText(bus, child, -1).catch(() => '')).replace(EMBEDDED_OBJECT, '');
    }),
  );
  let n = 0;
  return text.replace(EMBEDDED_OBJECT, () => texts[n++] ?? '');
}

/** The lists or menus among a combo box's children that hold its options. */
export async function optionLists(bus: Bus, ref: Ref): Promise<Ref[]> {
  const children = await getChildren(bus, ref);
  const roles = await Promise.all(children.map((child) => getRoleName(bus, child).catch(() => '')));
  return children.filter((_, i) => OPTION_LISTS.has(roles[i] ?? ''));
}

/** The name of the option a combo box's list has selected, if it says. */
async function chosenOption(bus: Bus, ref: Ref): Promise<string | undefined> {
  for (const list of await optionLists(bus, ref)) {
    const [selected] = await bus.call(
      list.bus,
      list.path,
      'org.a11y.atspi.Selection',
      'GetSelectedChild',
      'i',
      [0],
    );
    const option = asRef(selected);
    if (option) return (await getProps(bus, option)).name;
  }
  return undefined;
}

async function readValue(
  bus: Bus,
  ref: Ref,
  { role, bits, props }: Pick<FirstWave, 'role' | 'bits' | 'props'>,
  maxValueLength: number,
): Promise<{ value?: ElementValue; truncated?: boolean }> {
  if (role === SECURE_ROLE) return {};
  if (await isToggle(bus, ref, role, props.name)) return { value: has(bits, State.CHECKED) };
  try {
    if (VALUE_ROLES.has(role)) {
      const current = await getProperty(bus, ref, 'org.a11y.atspi.Value', 'CurrentValue');
      // An empty number field (a web page's) says 0 through Value; what it shows, nothing, is its value.
      if (
        current === 0 &&
        has(bits, State.EDITABLE) &&
        (await getText(bus, ref, 1).catch(() => undefined)) === ''
      )
        return { value: '' };
      return typeof current === 'number' ? { value: current } : {};
    }
    const holder = TEXT_HOLDER_ROLES.has(role) && props.name === '' && props.childCount === 0;
    if ((TEXT_ROLES.has(role) || holder) && maxValueLength > 0) {
      const text = await getText(bus, ref, maxValueLength + 1);
      const shown = has(bits, State.EDITABLE) ? text : await withInlineText(bus, ref, text);
      // A field's empty text is its value; a container's is no text at all.
      if (holder && shown.trim() === '') return {};
      const { value, truncated } = truncate(shown, maxValueLength);
      return truncated ? { value, truncated } : { value };
    }
    // A web page's select: its value is the option chosen, as a person reads it in the closed box.
    if (role === 'combo box' && maxValueLength > 0 && !has(bits, State.EDITABLE)) {
      const chosen = await chosenOption(bus, ref);
      return chosen === undefined ? {} : truncate(chosen, maxValueLength);
    }
    // A web link's value is where it leads (its Hyperlink's URI), as AXURL is on macOS.
    if (role === 'link' && maxValueLength > 0) {
      const [uri] = await bus.call(ref.bus, ref.path, 'org.a11y.atspi.Hyperlink', 'GetURI', 'i', [0]);
      if (typeof uri !== 'string' || uri === '') return {};
      const { value, truncated } = truncate(uri, maxValueLength);
      return truncated ? { value, truncated } : { value };
    }
  } catch (error) {
    if (isGone(error)) throw error;
  }
  return {};
}

/** A heading's level from its "level" attribute (browsers give one), if it is one from 1 to 9. */
async function headingLevel(bus: Bus, ref: Ref): Promise<number | undefined> {
  const level = Number((await getAttributes(bus, ref).catch(() => ({}) as Record<string, string>)).level);
  return Number.isInteger(level) && level >= 1 && level <= 9 ? level : undefined;
}

/** The keyboard shortcut of the element's first action that has one. */
async function readShortcut(bus: Bus, ref: Ref): Promise<string | undefined> {
  try {
    return (await getActions(bus, ref)).map((a) => shortcutOf(a.keyBinding)).find(Boolean);
  } catch (error) {
    if (isGone(error)) throw error;
    return undefined;
  }
}

/** An unnamed web landmark is known by its kind: main, navigation, banner, contentinfo, search, form, region. */
async function landmarkKind(bus: Bus, ref: Ref): Promise<string> {
  try {
    return (await getAttributes(bus, ref))['xml-roles'] ?? '';
  } catch (error) {
    if (isGone(error)) throw error;
    return '';
  }
}

async function labelName(bus: Bus, ref: Ref): Promise<string> {
  try {
    const labels = await getLabelledBy(bus, ref);
    const names = await Promise.all(labels.map(async (label) => (await getProps(bus, label)).name));
    return names.filter(Boolean).join(' ');
  } catch (error) {
    if (isGone(error)) throw error;
    return '';
  }
}

async function toBounds(
  ctx: ReadContext,
  extents: Extents,
  app: AppFacts,
  frame: Ref | undefined,
): Promise<Bounds | undefined> {
  if (extents.x === HIDDEN_COORD || extents.y === HIDDEN_COORD || extents.width < 0) return undefined;
  if (!windowRelative(ctx.session, app)) return extents;
  return frame ? shift(extents, await ctx.offsets.offset(frame, app.pid)) : undefined;
}

/**
 * Wave one asks for everything the element may need at once (properties, role, states, and speculatively its
 * children and extents: a leaf's empty GetChildren costs less than a second round trip); wave two reads a
 * value or a label only where the role calls for one. `onChildren` hears the children (and the frame they live
 * in) after wave one, so a walk can start on them while wave two is still out.
 */
export async function readNode(
  ctx: ReadContext,
  ref: Ref,
  options: ReadOptions,
  onChildren?: (children: Ref[], frame: Ref | undefined) => void,
): Promise<NodeRead> {
  const { bus } = ctx;
  try {
    const swallow =
      <T>(fallback: T) =>
      (error: unknown) => {
        if (isGone(error)) throw error;
        return fallback;
      };
    const extentsP = options.bounds ? getExtents(bus, ref).catch(swallow(undefined)) : undefined;
    extentsP?.catch(() => {});
    const [props, role, bits, app] = await Promise.all([
      getProps(bus, ref),
      getRoleName(bus, ref),
      getState(bus, ref),
      ctx.session.app(ref.bus),
    ]).catch((error: unknown) => {
      // An object without the Accessible interface is no element.
      throw isUnsupported(error) ? elementGone() : error;
    });
    if (has(bits, State.DEFUNCT)) throw elementGone();
    if (!isShown(role, bits, app) && !options.includeHidden) return { hidden: true };

    const frame = WINDOW_ROLES.has(role) ? ref : options.frame;
    // The children are listed once the count is known: a long container's are found on screen instead.
    const long = options.children && props.childCount > LONG_CONTAINER;
    const shown =
      long && options.onScreenOnly ? await onScreenChildren(bus, ref, props.childCount, frame) : undefined;
    const named =
      long && !shown && options.nameFilter !== undefined
        ? await childrenNamed(bus, ref, options.nameFilter, ctx.signal).catch(swallow<Ref[]>([]))
        : undefined;
    const [listed, extents] = await Promise.all([
      shown || named || !options.children || props.childCount === 0
        ? undefined
        : getChildren(bus, ref).catch(swallow<Ref[]>([])),
      extentsP,
    ]);
    const children = shown?.children ?? named ?? listed ?? [];
    onChildren?.(children, frame);
    const info = await completeInfo(ctx, ref, { props, role, bits, app }, options.maxValueLength, {
      extents,
      frame,
    });
    if (shown) info.shownChildren = { from: shown.from, count: children.length };
    const passedOver = named ? { passedOver: props.childCount - named.length } : {};
    return { hidden: false, info, children, role, props, bits, frame, ...passedOver };
  } catch (error) {
    return goneOr(error);
  }
}

/** Whether a walk shows the element (GTK4 sets SHOWING on top-level windows only). */
export const isShown = (role: string, bits: StateBits, app: AppFacts): boolean =>
  role === 'application' || isShowing(bits, !app.gtk4);

/** What the first wave read of an element: its Accessible properties, role, states, and its app. */
export interface FirstWave {
  props: Props;
  role: string;
  bits: StateBits;
  app: AppFacts;
}

/**
 * The element's ElementInfo from what the first wave read, plus the second wave: a value or a label only
 * where the role calls for one, and its bounds when extents were read.
 */
export async function completeInfo(
  ctx: ReadContext,
  ref: Ref,
  { props, role, bits, app }: FirstWave,
  maxValueLength: number,
  place: { extents: Extents | undefined; frame: Ref | undefined } = { extents: undefined, frame: undefined },
): Promise<ElementInfo> {
  const { bus } = ctx;
  const { extents, frame } = place;
  const [value, bounds, label, shortcut, level] = await Promise.all([
    readValue(bus, ref, { role, bits, props }, maxValueLength),
    extents && isShown(role, bits, app) && role !== 'application'
      ? toBounds(ctx, extents, app, frame)
      : undefined,
    props.name === '' && FIELD_ROLES.has(role)
      ? labelName(bus, ref)
      : props.name === '' && role === 'landmark'
        ? landmarkKind(bus, ref)
        : '',
    SHORTCUT_ROLES.has(role) ? readShortcut(bus, ref) : undefined,
    role === 'heading' ? headingLevel(bus, ref) : undefined,
  ]);
  const info: ElementInfo = {
    id: handleOf(ref),
    nativeRole: role,
    name: elementName(props.name, role, app.gtk4) || label,
    states: normalizeStates(bits, role, !app.gtk4),
    childCount: props.childCount,
    pid: app.pid,
  };
  if (value.value !== undefined) info.value = value.value;
  if (value.truncated) info.valueTruncated = true;
  if (props.description) info.description = props.description;
  if (props.accessibleId) info.identifier = props.accessibleId;
  if (bounds) info.bounds = bounds;
  if (shortcut) info.shortcut = shortcut;
  if (level !== undefined) info.level = level;
  return info;
}

/** Reads an element that must be there, hidden or not. */
export async function readInfo(
  ctx: ReadContext,
  ref: Ref,
  options: Pick<ReadOptions, 'maxValueLength' | 'frame'> & { children?: boolean },
) {
  const read = await readNode(ctx, ref, {
    maxValueLength: options.maxValueLength,
    children: options.children ?? false,
    includeHidden: true,
    bounds: true,
    frame: options.frame,
  });
  if (read.hidden) throw elementGone();
  return read;
}

/** Typed AT-SPI calls on one object. Each function is one D-Bus round trip. */
import type { Bus } from '../../dbus/bus.js';
import { asRef, asRefs, type Ref } from './handles.js';
import { roleName } from './roles.js';
import { asStateBits, type StateBits, TOGGLE_ROLES } from './states.js';

const ACCESSIBLE = 'org.a11y.atspi.Accessible';
const PROPERTIES = 'org.freedesktop.DBus.Properties';
export const REGISTRY: Ref = { bus: 'org.a11y.atspi.Registry', path: '/org/a11y/atspi/accessible/root' };

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown): number => (typeof v === 'number' ? v : Number(v ?? 0));
const record = (v: unknown): Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

export interface Props {
  name: string;
  description: string;
  childCount: number;
  accessibleId: string;
  parent: Ref | undefined;
}

export async function getProps(bus: Bus, ref: Ref, timeoutMs?: number): Promise<Props> {
  const [all] = await bus.call(ref.bus, ref.path, PROPERTIES, 'GetAll', 's', [ACCESSIBLE], timeoutMs);
  const p = record(all);
  return {
    name: str(p.Name),
    description: str(p.Description),
    childCount: Math.max(0, num(p.ChildCount)),
    accessibleId: str(p.AccessibleId),
    parent: asRef(p.Parent),
  };
}

export async function getProperty(bus: Bus, ref: Ref, iface: string, name: string): Promise<unknown> {
  const [value] = await bus.call(ref.bus, ref.path, PROPERTIES, 'Get', 'ss', [iface, name]);
  return value;
}

export async function setProperty(bus: Bus, ref: Ref, iface: string, name: string, variant: unknown) {
  await bus.call(ref.bus, ref.path, PROPERTIES, 'Set', 'ssv', [iface, name, variant]);
}

/** The canonical AT-SPI role name (see roles.ts for why not GetRoleName). */
export async function getRoleName(bus: Bus, ref: Ref): Promise<string> {
  return roleName(num((await bus.call(ref.bus, ref.path, ACCESSIBLE, 'GetRole'))[0]));
}

export async function getState(bus: Bus, ref: Ref): Promise<StateBits> {
  return asStateBits((await bus.call(ref.bus, ref.path, ACCESSIBLE, 'GetState'))[0]);
}

export async function getChildren(bus: Bus, ref: Ref): Promise<Ref[]> {
  return asRefs((await bus.call(ref.bus, ref.path, ACCESSIBLE, 'GetChildren'))[0]);
}

/** The element's place among its parent's children; undefined where the app gives none (-1). */
export async function getIndexInParent(bus: Bus, ref: Ref): Promise<number | undefined> {
  const [index] = await bus.call(ref.bus, ref.path, ACCESSIBLE, 'GetIndexInParent');
  return typeof index === 'number' && index >= 0 ? index : undefined;
}

export async function getInterfaces(bus: Bus, ref: Ref): Promise<Set<string>> {
  const [list] = await bus.call(ref.bus, ref.path, ACCESSIBLE, 'GetInterfaces');
  return new Set(Array.isArray(list) ? list.map(str) : []);
}

export async function getAttributes(bus: Bus, ref: Ref): Promise<Record<string, string>> {
  const [attrs] = await bus.call(ref.bus, ref.path, ACCESSIBLE, 'GetAttributes');
  return Object.fromEntries(Object.entries(record(attrs)).map(([k, v]) => [k, str(v)]));
}

const LABELLED_BY = 2;

/** The targets of the element's LABELLED_BY relation. */
export async function getLabelledBy(bus: Bus, ref: Ref): Promise<Ref[]> {
  const [relations] = await bus.call(ref.bus, ref.path, ACCESSIBLE, 'GetRelationSet');
  if (!Array.isArray(relations)) return [];
  for (const relation of relations) {
    if (Array.isArray(relation) && num(relation[0]) === LABELLED_BY) return asRefs(relation[1]);
  }
  return [];
}

export interface Extents {
  x: number;
  y: number;
  width: number;
  height: number;
}

export const COORD_SCREEN = 0;
export const COORD_WINDOW = 1;

export async function getExtents(bus: Bus, ref: Ref, coordType = COORD_SCREEN): Promise<Extents> {
  const [box] = await bus.call(ref.bus, ref.path, 'org.a11y.atspi.Component', 'GetExtents', 'u', [coordType]);
  const [x, y, width, height] = Array.isArray(box) ? box.map(num) : [];
  return { x: x ?? 0, y: y ?? 0, width: width ?? 0, height: height ?? 0 };
}

export async function getAccessibleAtPoint(
  bus: Bus,
  ref: Ref,
  x: number,
  y: number,
  coordType: number,
): Promise<Ref | undefined> {
  const [hit] = await bus.call(ref.bus, ref.path, 'org.a11y.atspi.Component', 'GetAccessibleAtPoint', 'iiu', [
    Math.round(x),
    Math.round(y),
    coordType,
  ]);
  return asRef(hit);
}

export async function grabFocus(bus: Bus, ref: Ref): Promise<boolean> {
  return (await bus.call(ref.bus, ref.path, 'org.a11y.atspi.Component', 'GrabFocus'))[0] === true;
}

/** Text from offset 0 to `end` characters (-1: all). */
export async function getText(bus: Bus, ref: Ref, end: number): Promise<string> {
  const read = async (to: number) =>
    str((await bus.call(ref.bus, ref.path, 'org.a11y.atspi.Text', 'GetText', 'ii', [0, to]))[0]);
  const text = await read(end);
  if (text !== '' || end < 0) return text;
  // Firefox answers "" when `end` lies past the text's end: asked again up to where the text ends.
  const count = Number(await getProperty(bus, ref, 'org.a11y.atspi.Text', 'CharacterCount'));
  return count > 0 ? read(Math.min(count, end)) : '';
}

/** The caret put at the end of the text (which ends any selection). */
export async function caretToEnd(bus: Bus, ref: Ref): Promise<boolean> {
  const count = Number(await getProperty(bus, ref, 'org.a11y.atspi.Text', 'CharacterCount'));
  const [ok] = await bus.call(ref.bus, ref.path, 'org.a11y.atspi.Text', 'SetCaretOffset', 'i', [count]);
  return ok === true;
}

export async function setTextContents(bus: Bus, ref: Ref, text: string): Promise<boolean> {
  const [ok] = await bus.call(ref.bus, ref.path, 'org.a11y.atspi.EditableText', 'SetTextContents', 's', [
    text,
  ]);
  return ok === true;
}

/** An action: its name and its key binding as the toolkit writes it (GTK: "mnemonic;path;accelerator"). */
export interface Action {
  name: string;
  keyBinding: string;
}

export async function getActions(bus: Bus, ref: Ref): Promise<Action[]> {
  const [actions] = await bus.call(ref.bus, ref.path, 'org.a11y.atspi.Action', 'GetActions');
  if (!Array.isArray(actions)) return [];
  const listed = actions.map((a) =>
    Array.isArray(a) ? { name: str(a[0]), keyBinding: str(a[2]) } : { name: str(a), keyBinding: '' },
  );
  // GetActions lists localized names, which Chromium leaves empty and Firefox fills with ";;" (an empty key
  // binding's form): GetName has the action's own.
  return Promise.all(
    listed.map(async (action, i) => {
      if (/[\p{L}\p{N}]/u.test(action.name)) return action;
      const [name] = await bus.call(ref.bus, ref.path, 'org.a11y.atspi.Action', 'GetName', 'i', [i]);
      return { ...action, name: str(name) };
    }),
  );
}

export async function getActionNames(bus: Bus, ref: Ref): Promise<string[]> {
  return (await getActions(bus, ref)).map((action) => action.name);
}

/**
 * Whether an element is a toggle: a role whose value is its checked state, or a list's check box cell (GTK's
 * toggle cells, zenity's checklist): unnamed, with a "toggle" action, and no CHECKABLE state to tell it by.
 */
export async function isToggle(bus: Bus, ref: Ref, role: string, name: string): Promise<boolean> {
  if (TOGGLE_ROLES.has(role)) return true;
  if (role !== 'table cell' || name !== '') return false;
  const names = await getActionNames(bus, ref).catch(() => []);
  return names.some((n) => n.toLowerCase() === 'toggle');
}

export async function doAction(bus: Bus, ref: Ref, index: number): Promise<boolean> {
  return (await bus.act(ref.bus, ref.path, 'org.a11y.atspi.Action', 'DoAction', 'i', [index]))[0] === true;
}

const MATCH_ALL = 1;
const SORT_CANONICAL = 1;

/** Collection.GetMatches for elements that have all of `states` (GTK3; GTK4 lacks Collection). */
export async function matchStates(bus: Bus, ref: Ref, states: readonly [number, number], count: number) {
  const rule = [states.map((s) => s | 0), MATCH_ALL, {}, MATCH_ALL, [], MATCH_ALL, [], MATCH_ALL, false];
  const [found] = await bus.call(
    ref.bus,
    ref.path,
    'org.a11y.atspi.Collection',
    'GetMatches',
    '(aiia{ss}iaiiasib)uib',
    [rule, SORT_CANONICAL, count, true],
  );
  return asRefs(found);
}

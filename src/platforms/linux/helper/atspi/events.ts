/**
 * observe.start: AT-SPI UI events, folded per app into `observe.changed` notifications, at most one per
 * FOLD_MS per app. Only event kinds, counts and the handles of the elements they were about leave the helper:
 * never an event's content (inserted text, names).
 */
import type { Bus, Signal } from '../../dbus/bus.js';
import { handleOf } from './handles.js';
import { oncePer } from '../once.js';
import type { Notify, Session } from '../session.js';

export const FOLD_MS = 10;

const EVENT_PREFIX = 'org.a11y.atspi.Event.';
const EVENT_INTERFACES = ['Object', 'Window', 'Focus'];
/** Toolkits (GTK3's atk-bridge) emit only event types someone registered; a type's prefix covers its subtypes. */
const REGISTERED_TYPES = ['object:', 'window:', 'focus:'];
const REGISTRY_PATH = '/org/a11y/atspi/registry';
/** State, property and change-kind names; anything else in the detail slot is not passed on. */
const DETAIL = /^[a-z0-9_:-]{1,48}$/;

/**
 * "object:state-changed:focused" from interface org.a11y.atspi.Event.Object, member StateChanged, detail
 * "focused". Members arrive as "StateChanged" or "state-changed", "Deactivate" or "deactivate".
 */
export function eventKind(iface: string, member: string, detail: unknown): string | undefined {
  if (!iface.startsWith(EVENT_PREFIX)) return undefined;
  const type = iface.slice(EVENT_PREFIX.length).toLowerCase();
  const name = member.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
  const sub = typeof detail === 'string' ? detail.toLowerCase() : '';
  return DETAIL.test(sub) ? `${type}:${name}:${sub}` : `${type}:${name}`;
}

/** Past this many elements in one notification, it names none (the change is then anywhere in the app). */
export const MAX_ELEMENTS = 64;

interface Batch {
  kinds: Set<string>;
  count: number;
  /** Kinds by element handle; undefined once more than MAX_ELEMENTS elements were touched. */
  elements: Map<string, Set<string>> | undefined;
}

/** Events per pid, sent as one notification per FOLD_MS: the first of a burst at once, the rest folded. */
export class EventFolder {
  private readonly pending = new Map<number, Batch>();
  private readonly timers = new Map<number, NodeJS.Timeout>();
  private readonly lastSent = new Map<number, number>();

  constructor(private readonly notify: Notify) {}

  /** An event of `kind` about the element `element` (a handle) in the app `pid`. */
  add(pid: number, kind: string, element: string): void {
    const batch = this.pending.get(pid) ?? { kinds: new Set(), count: 0, elements: new Map() };
    this.pending.set(pid, batch);
    batch.kinds.add(kind);
    batch.count++;
    if (batch.elements) {
      const kinds = batch.elements.get(element) ?? new Set();
      batch.elements.set(element, kinds.add(kind));
      if (batch.elements.size > MAX_ELEMENTS) batch.elements = undefined;
    }
    if (this.timers.has(pid)) return;
    const due = (this.lastSent.get(pid) ?? Number.NEGATIVE_INFINITY) + FOLD_MS - performance.now();
    // Even when nothing is due, wait a turn: events that arrive together go out together.
    this.timers.set(
      pid,
      setTimeout(() => this.flush(pid), Math.max(0, due)),
    );
  }

  private flush(pid: number): void {
    this.timers.delete(pid);
    const batch = this.pending.get(pid);
    this.pending.delete(pid);
    if (!batch) return;
    this.lastSent.set(pid, performance.now());
    const elements =
      batch.elements && [...batch.elements].map(([id, kinds]) => ({ id, kinds: [...kinds].sort() }));
    this.notify('observe.changed', {
      pid,
      kinds: [...batch.kinds].sort(),
      count: batch.count,
      ...(elements ? { elements } : {}),
    });
  }
}

async function registerEvent(bus: Bus, type: string): Promise<void> {
  const registry = 'org.a11y.atspi.Registry';
  try {
    // at-spi2-core 2.46+: event type, properties to cache, app bus name ('' = every app).
    await bus.call(registry, REGISTRY_PATH, registry, 'RegisterEvent', 'sass', [type, [], '']);
  } catch {
    await bus.call(registry, REGISTRY_PATH, registry, 'RegisterEvent', 's', [type]);
  }
}

async function subscribe(session: Session): Promise<void> {
  const bus = await session.a11y();
  const daemon = 'org.freedesktop.DBus';
  await Promise.all(
    EVENT_INTERFACES.map((name) =>
      bus.call(daemon, '/org/freedesktop/DBus', daemon, 'AddMatch', 's', [
        `type='signal',interface='${EVENT_PREFIX}${name}'`,
      ]),
    ),
  );
  await Promise.all(REGISTERED_TYPES.map((type) => registerEvent(bus, type)));
  // Listening only once everything is in place: a failed start can be retried without doubling events.
  const folder = new EventFolder(session.notify);
  bus.onSignal((signal: Signal) => {
    const kind = eventKind(signal.iface, signal.member, signal.body[0]);
    const { sender, path } = signal;
    if (!kind || !sender) return;
    session.heardFrom(sender, kind);
    session.app(sender).then(
      ({ pid }) => folder.add(pid, kind, handleOf({ bus: sender, path })),
      () => {}, // the app went away before its pid was known: nobody can wait on it any more
    );
  });
}

const started = new WeakMap<Session, Promise<void>>();

/** observe.start: subscribes once per session; later calls share the first (or retry after a failure). */
export async function startObserving(session: Session): Promise<Record<string, never>> {
  await oncePer(started, session, () => subscribe(session));
  return {};
}

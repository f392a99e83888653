/**
 * observe_changes: an app's UI change events over a while, in words (window opened, focus moved to …, value of
 * … changed to …), for clients that cannot subscribe to resources. It listens to the change feed, never polls;
 * with a filter (kinds of change, one element) it ends at the first change that matches.
 */
import type { CallOptions } from '../../helper-client/errors.js';
import type { ChangeFeed, ChangeEvent } from '../kernel/feed.js';
import type { Kernel } from '../kernel/kernel.js';
import { pause } from '../kernel/observer.js';
import type { ChangeCategory, ObservedChange, ObservedResult } from '../kernel/results.js';
import { roleOf } from '../kernel/roles.js';
import { labelOf } from '../kernel/tree.js';

export const CHANGE_CATEGORIES = [
  'window',
  'focus',
  'value',
  'text',
  'children',
  'name',
  'state',
  'selection',
  'layout',
] as const satisfies readonly ChangeCategory[];

/** What kind of change an event kind is: AT-SPI's ("object:state-changed:focused") or AX's ("ax:valuechanged"). */
export function categoryOf(kind: string): ChangeCategory {
  const k = kind.toLowerCase();
  if (/bounds-changed|visible-data-changed|ax:layoutchanged|ax:windowmoved|ax:windowresized/.test(k))
    return 'layout';
  if (/^window:|ax:window|ax:sheetcreated|ax:applicationactivated/.test(k)) return 'window';
  if (/focus/.test(k)) return 'focus';
  if (/value-changed|accessible-value|ax:valuechanged/.test(k)) return 'value';
  if (/text-|selectedtext/.test(k)) return 'text';
  if (/selection-changed|ax:selectedchildren|ax:selectedrows/.test(k)) return 'selection';
  if (/children-changed|ax:uielementdestroyed|ax:layoutchanged|ax:created|ax:menuopened/.test(k))
    return 'children';
  if (/accessible-name|ax:titlechanged/.test(k)) return 'name';
  if (/state-changed|property-change/.test(k)) return 'state';
  return 'other';
}

export interface ObserveOptions {
  app: string;
  /** Only these kinds of change; the observation ends at the first. */
  events?: ChangeCategory[];
  /** Only changes of this element (a ref); the observation ends at the first. */
  ref?: string;
  durationMs: number;
}

/** Elements read back to name them in the answer. */
const NAMED_ELEMENTS = 20;
const VALUE_CHARS = 200;

export class Observations {
  constructor(
    private readonly kernel: Kernel,
    private readonly feed: ChangeFeed,
  ) {}

  async observe(options: ObserveOptions, call?: CallOptions): Promise<ObservedResult> {
    const app = await this.kernel.guard('find the app', () => this.kernel.resolver.app(options.app, call));
    const handle = options.ref ? (await this.kernel.entry({ ref: options.ref }, call)).handle : undefined;
    const filtered = options.events !== undefined || handle !== undefined;
    const started = performance.now();
    /** One line per kind of change and element, in the order first seen; later events add to its count. */
    const changes = new Map<string, ObservedChange & { id?: string }>();
    const stop = new AbortController();
    const matches = (change: { category: ChangeCategory; id?: string }) =>
      (!options.events || options.events.includes(change.category as never)) &&
      (!handle || change.id === handle);

    const listener = (event: ChangeEvent) => {
      if (event.pid !== app.pid || stop.signal.aborted) return;
      const afterMs = performance.now() - started;
      const items = event.elements?.length
        ? event.elements.map((e) => ({ id: e.id, kinds: e.kinds }))
        : [{ id: undefined, kinds: event.kinds }];
      for (const item of items) {
        for (const category of new Set(item.kinds.map(categoryOf))) {
          const change = {
            afterMs,
            category,
            kinds: item.kinds.filter((k) => categoryOf(k) === category),
            count: item.id ? 1 : event.count,
            id: item.id,
          };
          if (filtered ? !matches(change) : category === 'layout') continue;
          const key = `${category} ${item.id ?? ''}`;
          const seen = changes.get(key);
          if (seen) {
            seen.count += change.count;
            seen.kinds = [...new Set([...seen.kinds, ...change.kinds])];
          } else changes.set(key, change);
          if (filtered) stop.abort();
        }
      }
    };
    const { stop: stopListening, live } = await this.feed.onChange(listener);
    try {
      await pause(
        options.durationMs,
        AbortSignal.any([stop.signal, ...(call?.signal ? [call.signal] : [])]),
      ).catch((error: unknown) => {
        if (!stop.signal.aborted) throw error;
      });
    } finally {
      stopListening();
    }
    return {
      kind: 'observed',
      app: { name: app.name, pid: app.pid },
      elapsedMs: performance.now() - started,
      durationMs: options.durationMs,
      changes: await this.named([...changes.values()], call),
      matched: filtered && stop.signal.aborted,
      live,
    };
  }

  /** The changes with their elements read back (the first few distinct ones): label, ref, value now. */
  private async named(
    changes: (ObservedChange & { id?: string })[],
    call?: CallOptions,
  ): Promise<ObservedChange[]> {
    const ids = [...new Set(changes.flatMap((c) => (c.id ? [c.id] : [])))].slice(0, NAMED_ELEMENTS);
    const read = new Map(
      await Promise.all(
        ids.map(async (id) => {
          const element = await this.kernel.port
            .call('ax.element', { id, maxValueLength: VALUE_CHARS }, call)
            .then(
              (r) => r.element,
              () => undefined,
            );
          if (!element) return [id, undefined] as const;
          const value =
            element.states.includes('secure') || element.value === undefined
              ? undefined
              : String(element.value);
          return [
            id,
            { label: labelOf(roleOf(element), element.name), ref: this.kernel.refs.refOf(id), value },
          ] as const;
        }),
      ),
    );
    return changes.map(({ id, ...change }) => {
      const element = id ? read.get(id) : undefined;
      return element ? { ...change, element } : change;
    });
  }
}

/**
 * Session-stable element refs (`e1`, `e2`, ...): one ref per helper handle for the whole session. A ref also
 * remembers how to find its element again (its path) and what it was (a one-line label), so that a ref whose
 * element went away can be re-resolved and reported by name.
 *
 * The table is bounded, for sessions that last hours: past `limits.live` refs the least recently seen one is
 * retired (used by ref, it resolves again through its path; seen again in a walk, it is live again), and past
 * `limits.retired` retired refs the oldest are forgotten.
 */
import type { Reached } from '../../errors.js';

export interface AppRef {
  pid: number;
  name: string;
}

/** Where a ref's element was last seen: its path, app and label. */
export interface RefSighting {
  /** The formatted path, replayable with resolvePath. */
  path: string;
  app: AppRef;
  /** Role and name, e.g. `button "Save"`. */
  label: string;
  /** Editable (a rich text area's text, say): its name may be text someone entered (kernel/entered.ts). */
  editable?: boolean;
}

/** What the audit log and the console keep of an element a call reached (never a name that may be entered). */
export const reachedAt = ({ app, label, path, editable }: RefSighting): Reached => ({
  app: app.name,
  label,
  path,
  editable,
});

export interface RefEntry extends RefSighting {
  readonly ref: string;
  handle: string;
}

export const REF_LIMITS = { live: 20_000, retired: 50_000 } as const;

export class RefTable {
  /** Live refs, least recently seen first. */
  private readonly byRef = new Map<string, RefEntry>();
  private readonly byHandle = new Map<string, RefEntry>();
  /** Refs that let go of their handle, oldest first, with the handle they had. */
  private readonly retiredRefs = new Map<string, RefSighting & { handle: string }>();
  /** A retired ref by the handle it had: an element seen again gets its old ref back. */
  private readonly retiredHandles = new Map<string, string>();
  private next = 1;

  constructor(private readonly limits: { live: number; retired: number } = REF_LIMITS) {}

  /** The entry of `handle`, issued on first sight; path, app and label are refreshed on every sighting. */
  issue(handle: string, seen: RefSighting): RefEntry {
    const known = this.byHandle.get(handle);
    if (known) {
      this.touch(known);
      return Object.assign(known, seen);
    }
    const retired = this.retiredHandles.get(handle);
    if (retired !== undefined) return this.repoint(retired, handle, seen);
    const entry: RefEntry = { ref: `e${this.next++}`, handle, ...seen };
    this.bind(entry);
    return entry;
  }

  /** A live ref: one that holds its element's handle. */
  get(ref: string): RefEntry | undefined {
    return this.byRef.get(ref);
  }

  /** Where a ref's element was last seen, live or retired. */
  known(ref: string): RefSighting | undefined {
    return this.byRef.get(ref) ?? this.retiredRefs.get(ref);
  }

  /** The element last seen at `path` (a live ref's), if this session met one there. */
  atPath(path: string): RefSighting | undefined {
    let found: RefEntry | undefined;
    for (const entry of this.byRef.values()) if (entry.path === path) found = entry;
    return found;
  }

  /** The name of the app with `pid`, if this session met an element of it. */
  appName(pid: number): string | undefined {
    for (const entry of this.byRef.values()) if (entry.app.pid === pid) return entry.app.name;
    return undefined;
  }

  /** A ref that let go of its handle: its element is found again through its path. */
  retired(ref: string): RefSighting | undefined {
    const retired = this.retiredRefs.get(ref);
    return retired && { path: retired.path, app: retired.app, label: retired.label };
  }

  /** This session issued the ref once, whether or not it still knows it. */
  issued(ref: string): boolean {
    const n = /^e(\d+)$/.exec(ref)?.[1];
    return n !== undefined && Number(n) < this.next;
  }

  refOf(handle: string): string | undefined {
    return this.byHandle.get(handle)?.ref;
  }

  /** Point an existing ref (live or retired) at the element its path resolves to now. */
  repoint(ref: string, handle: string, seen?: RefSighting): RefEntry {
    const live = this.byRef.get(ref);
    const sighting = seen ?? live ?? this.retired(ref);
    if (!sighting) throw new Error(`repoint of unknown ref ${ref}`);
    if (live && this.byHandle.get(live.handle) === live) this.byHandle.delete(live.handle);
    this.forgetRetired(ref);
    const entry: RefEntry = live ?? { ref, handle, ...sighting };
    Object.assign(entry, sighting, { handle });
    this.byRef.delete(ref);
    this.bind(entry);
    return entry;
  }

  private bind(entry: RefEntry): void {
    this.byRef.set(entry.ref, entry);
    // A handle already known under another ref keeps that ref; this one becomes a second name for it.
    if (!this.byHandle.has(entry.handle)) this.byHandle.set(entry.handle, entry);
    while (this.byRef.size > this.limits.live) this.retireOldest();
  }

  private touch(entry: RefEntry): void {
    this.byRef.delete(entry.ref);
    this.byRef.set(entry.ref, entry);
  }

  private retireOldest(): void {
    const oldest = this.byRef.values().next().value as RefEntry;
    this.byRef.delete(oldest.ref);
    if (this.byHandle.get(oldest.handle) === oldest) this.byHandle.delete(oldest.handle);
    const { path, app, label, handle } = oldest;
    this.retiredRefs.set(oldest.ref, { path, app, label, handle });
    this.retiredHandles.set(handle, oldest.ref);
    while (this.retiredRefs.size > this.limits.retired) {
      this.forgetRetired(this.retiredRefs.keys().next().value as string);
    }
  }

  private forgetRetired(ref: string): void {
    const retired = this.retiredRefs.get(ref);
    if (!retired) return;
    this.retiredRefs.delete(ref);
    if (this.retiredHandles.get(retired.handle) === ref) this.retiredHandles.delete(retired.handle);
  }
}

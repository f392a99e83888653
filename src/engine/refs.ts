/**
 * Session-stable element refs (`e1`, `e2`, ...): one ref per helper handle for the whole session. A ref also
 * remembers how to find its element again (its path) and what it was (a one-line label), so that a ref whose
 * element went away can be re-resolved and reported by name.
 */
export interface AppRef {
  pid: number;
  name: string;
}

export interface RefEntry {
  readonly ref: string;
  handle: string;
  /** The formatted path, replayable with resolvePath. */
  path: string;
  app: AppRef;
  /** Role and name, e.g. `button "Save"`. */
  label: string;
}

export type RefSighting = Omit<RefEntry, 'ref' | 'handle'>;

export class RefTable {
  private readonly byRef = new Map<string, RefEntry>();
  private readonly byHandle = new Map<string, RefEntry>();
  private next = 1;

  /** The entry of `handle`, issued on first sight; path, app and label are refreshed on every sighting. */
  issue(handle: string, seen: RefSighting): RefEntry {
    const known = this.byHandle.get(handle);
    if (known) return Object.assign(known, seen);
    const entry: RefEntry = { ref: `e${this.next++}`, handle, ...seen };
    this.byRef.set(entry.ref, entry);
    this.byHandle.set(handle, entry);
    return entry;
  }

  get(ref: string): RefEntry | undefined {
    return this.byRef.get(ref);
  }

  refOf(handle: string): string | undefined {
    return this.byHandle.get(handle)?.ref;
  }

  /** Point an existing ref at the element its path resolves to now. */
  repoint(ref: string, handle: string): RefEntry {
    const entry = this.byRef.get(ref);
    if (!entry) throw new Error(`repoint of unknown ref ${ref}`);
    if (this.byHandle.get(entry.handle) === entry) this.byHandle.delete(entry.handle);
    entry.handle = handle;
    // A handle already known under another ref keeps that ref; this one becomes a second name for it.
    if (!this.byHandle.has(handle)) this.byHandle.set(handle, entry);
    return entry;
  }
}

/**
 * What a person watching this server sees (the console, src/console/): every call as it starts and as it ends,
 * by the audit log's rules (no typed text, no value set: their lengths), the consent questions they may answer
 * there, and the desk's pause. It costs nothing while no one watches.
 */
import { z } from 'zod';
import { type AuditEntry, withoutContent } from './audit-log.js';
import type { CallOutcome, Guard, ToolCall } from './pipeline.js';

const Target = z.object({ role: z.string(), name: z.string().optional() });

/** A small picture of the screen (JPEG, base64) taken before or after an action, for the watching person. */
const Thumbnail = z.object({ data: z.string(), width: z.number(), height: z.number() });
export type Thumbnail = z.infer<typeof Thumbnail>;

export const WatchEvent = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('started'),
    call: z.string(),
    time: z.string(),
    session: z.string(),
    tool: z.string(),
    write: z.boolean(),
  }),
  z.object({
    type: z.literal('ended'),
    call: z.string(),
    session: z.string(),
    tool: z.string(),
    write: z.boolean(),
    time: z.string(),
    app: z.string().optional(),
    target: Target.optional(),
    outcome: z.enum(['ok', 'refused', 'stopped', 'failed']),
    error: z.string().optional(),
    duration_ms: z.number(),
    /** What changed in the app, in a person's words (paths, not refs). */
    changes: z.array(z.string()).optional(),
    /** Where it acted, in screen points (a point: no size). */
    bounds: z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() }).optional(),
    /** Filled in by the `pictured` event that follows (the hub keeps them with the call). */
    before: Thumbnail.optional(),
    after: Thumbnail.optional(),
  }),
  /** An action's pictures, sent once taken: the call's end is not held back for them. */
  z.object({
    type: z.literal('pictured'),
    call: z.string(),
    before: Thumbnail.optional(),
    after: Thumbnail.optional(),
  }),
  z.object({
    type: z.literal('consent'),
    id: z.string(),
    session: z.string(),
    action: z.string(),
    detail: z.string().optional(),
    tool: z.string(),
    /** The undo tool can take the action back. */
    undoable: z.boolean(),
    /** Date.now() when an unanswered question is denied. */
    expires: z.number(),
  }),
  z.object({
    type: z.literal('answered'),
    id: z.string(),
    /** withdrawn: answered elsewhere first (the client's own question), or the call was cancelled. */
    answer: z.enum(['allow', 'deny', 'expired', 'withdrawn']),
    /** Allowed for the rest of the session: asked no more. */
    forSession: z.boolean().optional(),
  }),
  z.object({ type: z.literal('desk'), pausedUntil: z.number(), by: z.string().optional() }),
  z.object({
    type: z.literal('recording'),
    /** Undefined when no recording runs (it ended). */
    app: z.string().optional(),
    running: z.boolean(),
    /** The steps folded so far, their typed text and keys as lengths only. */
    steps: z.array(z.object({ tool: z.string(), args: z.record(z.string(), z.unknown()) })),
  }),
  z.object({
    type: z.literal('progress'),
    call: z.string(),
    session: z.string(),
    message: z.string(),
    done: z.number(),
    total: z.number().optional(),
  }),
]);
export type WatchEvent = z.infer<typeof WatchEvent>;
type Ended = Extract<WatchEvent, { type: 'ended' }>;

/** How a watched call's outcome is described and pictured. */
export interface FeedSources {
  /** The audit log's record of a call: what the timeline may show of it. */
  describe(call: ToolCall, outcome: CallOutcome): AuditEntry;
  /** A thumbnail of the screen now; undefined where none can be taken. */
  thumbnail?(): Promise<Thumbnail | undefined>;
  /** Whether actions are pictured before and after (read-only mode: only when asked). */
  pictures: boolean;
}

/** How recent the picture after an action must be to stand for the picture before the next one. */
const REUSED_PICTURE_MS = 1000;

/** How long a consent question waits in the console before it is denied. */
export const CONSENT_WAIT_MS = 120_000;
/** How long questions wait once no page of any console is open: longer than a page takes to reload. */
export const ABANDONED_MS = 10_000;

export type ConsoleAnswer = 'once' | 'session' | 'deny';
type Question = Extract<WatchEvent, { type: 'consent' }>;

let calls = 0;
let questions = 0;

export class CallFeed implements Guard {
  private readonly watchers = new Set<(event: WatchEvent) => void>();
  private readonly ids = new WeakMap<ToolCall, { id: string; before?: Promise<Thumbnail | undefined> }>();
  private recording: Extract<WatchEvent, { type: 'recording' }> | undefined;
  /** The latest picture taken, and when. */
  private last: { at: number; picture: Promise<Thumbnail | undefined> } | undefined;
  private readonly open = new Map<
    string,
    { question: Question; answer: (a: ConsoleAnswer) => void; expire: () => void }
  >();
  /** How many pages each watching console has open, as it last said. */
  private readonly pages = new Map<(event: WatchEvent) => void, number>();
  private abandoned: NodeJS.Timeout | undefined;
  /** Actions a person allowed for the rest of a session: `session\u0000action`. */
  private readonly allowed = new Set<string>();

  constructor(private readonly sources: FeedSources) {}

  /** `watcher` hears every event from now on; the returned function stops it. */
  watch(watcher: (event: WatchEvent) => void): () => void {
    this.watchers.add(watcher);
    return () => {
      this.watchers.delete(watcher);
      this.seen(watcher, 0);
    };
  }

  watched(): boolean {
    return this.watchers.size > 0;
  }

  /** Whether a person can see a question: a watching console has a page open. */
  attended(): boolean {
    return [...this.pages.values()].some((count) => count > 0);
  }

  /**
   * How many pages `watcher`'s console has open now. Once none is open anywhere for ABANDONED_MS (a reload is
   * quicker), the questions waiting there are no one's to answer: they end unanswered, not after minutes.
   */
  seen(watcher: (event: WatchEvent) => void, pages: number): void {
    if (pages > 0 && this.watchers.has(watcher)) this.pages.set(watcher, pages);
    else this.pages.delete(watcher);
    clearTimeout(this.abandoned);
    this.abandoned = undefined;
    if (this.attended() || this.open.size === 0) return;
    this.abandoned = setTimeout(() => {
      if (this.attended()) return;
      for (const open of [...this.open.values()]) open.expire();
    }, ABANDONED_MS);
    this.abandoned.unref();
  }

  /** What a console that connects now is shown first: the questions no one answered yet, the recording running. */
  current(): WatchEvent[] {
    const questions = [...this.open.values()].map((q) => q.question);
    return this.recording?.running ? [this.recording, ...questions] : questions;
  }

  /** The recording as it goes (its steps' typed text and keys as lengths), or its end. */
  recorded(
    view: { app?: string; steps: { tool: string; args: Record<string, unknown> }[] } | undefined,
  ): void {
    this.recording = {
      type: 'recording',
      running: view !== undefined,
      ...(view?.app === undefined ? {} : { app: view.app }),
      steps: (view?.steps ?? []).map((step) => ({ tool: step.tool, args: withoutContent(step.args) })),
    };
    this.emit(this.recording);
  }

  /**
   * Asks the watching person whether to allow `action`; their answer, a denial when no one answers within
   * `waitMs`, or the signal's abort (an answer given elsewhere first, the call cancelled).
   */
  async ask(
    ask: { session: string; action: string; detail?: string; tool: string; undoable: boolean },
    signal: AbortSignal,
    waitMs = CONSENT_WAIT_MS,
  ): Promise<'accept' | 'decline' | 'unanswered'> {
    const key = `${ask.session}\u0000${ask.action}`;
    if (this.allowed.has(key)) return 'accept';
    const id = `${process.pid}-q${++questions}`;
    const question: Question = { type: 'consent', id, ...ask, expires: Date.now() + waitMs };
    const answer = await new Promise<ConsoleAnswer | 'expired' | 'withdrawn'>((resolve) => {
      const done = (a: ConsoleAnswer | 'expired' | 'withdrawn') => {
        clearTimeout(timer);
        signal.removeEventListener('abort', withdrawn);
        resolve(a);
      };
      const timer = setTimeout(() => done('expired'), waitMs);
      const withdrawn = () => done('withdrawn');
      if (signal.aborted) return done('withdrawn');
      signal.addEventListener('abort', withdrawn, { once: true });
      this.open.set(id, { question, answer: done, expire: () => done('expired') });
      this.emit(question);
    });
    this.open.delete(id);
    const allow = answer === 'once' || answer === 'session';
    this.emit({
      type: 'answered',
      id,
      answer: allow ? 'allow' : answer,
      ...(answer === 'session' ? { forSession: true } : {}),
    });
    if (answer === 'session') this.allowed.add(key);
    return allow ? 'accept' : answer === 'expired' ? 'unanswered' : 'decline';
  }

  /** A watching person's answer to question `id`; false when it is no longer open (answered or expired). */
  answer(id: string, answer: ConsoleAnswer): boolean {
    const open = this.open.get(id);
    if (!open) return false;
    this.open.delete(id);
    open.answer(answer);
    return true;
  }

  emit(event: WatchEvent): void {
    for (const watcher of this.watchers) {
      try {
        watcher(event);
      } catch {
        // A watcher that fails (a socket gone) is its own affair: the calls go on.
      }
    }
  }

  /** A long call's progress (a workflow's steps), for the person watching. */
  progress(call: ToolCall, done: number, total: number | undefined, message: string | undefined): void {
    const id = this.ids.get(call)?.id;
    if (!this.watched() || id === undefined) return;
    this.emit({
      type: 'progress',
      call: id,
      session: call.session ?? 'unknown',
      message: message ?? '',
      done,
      ...(total === undefined ? {} : { total }),
    });
  }

  admit(call: ToolCall): Promise<undefined> {
    if (!this.watched()) return Promise.resolve(undefined);
    const id = `${process.pid}-${++calls}`;
    const write = call.tool.annotations.readOnlyHint !== true;
    const before = write && this.sources.pictures ? this.pictureBefore() : undefined;
    this.ids.set(call, { id, before });
    this.emit({
      type: 'started',
      call: id,
      time: new Date().toISOString(),
      session: call.session ?? 'unknown',
      tool: call.tool.name,
      write,
    });
    // The picture before is taken before the action runs: the call waits for it (a few tens of ms).
    return (before ?? Promise.resolve()).then(() => undefined);
  }

  settled(call: ToolCall, outcome: CallOutcome): void {
    if (!this.watched()) return;
    const known = this.ids.get(call);
    const id = known?.id ?? `${process.pid}-${++calls}`;
    const entry = this.sources.describe(call, outcome);
    const event: Ended = {
      type: 'ended',
      call: id,
      session: call.session ?? 'unknown',
      tool: entry.tool,
      write: call.tool.annotations.readOnlyHint !== true,
      time: entry.time,
      outcome: entry.outcome,
      duration_ms: entry.duration_ms,
      ...(entry.app === undefined ? {} : { app: entry.app }),
      ...(entry.target === undefined ? {} : { target: entry.target }),
      ...(entry.error === undefined ? {} : { error: entry.error }),
      ...(outcome.changes === undefined ? {} : { changes: [...outcome.changes] }),
      ...(outcome.bounds === undefined ? {} : { bounds: outcome.bounds }),
    };
    this.emit(event);
    // A refused call did nothing: there is no after to show, and its before would suggest otherwise.
    if (known?.before === undefined || entry.outcome === 'refused') return;
    void Promise.all([known.before, this.picture()]).then(([before, after]) =>
      this.emit({ type: 'pictured', call: id, ...(before ? { before } : {}), ...(after ? { after } : {}) }),
    );
  }

  private picture(): Promise<Thumbnail | undefined> {
    const taken = (this.sources.thumbnail?.() ?? Promise.resolve(undefined)).catch(() => undefined);
    this.last = { at: performance.now(), picture: taken };
    return taken;
  }

  /**
   * The screen before an action: the picture after the last one when it is that recent (an agent acting fast is
   * pictured once per action, not twice), else a new one.
   */
  private pictureBefore(): Promise<Thumbnail | undefined> {
    const last = this.last;
    return last && performance.now() - last.at < REUSED_PICTURE_MS ? last.picture : this.picture();
  }
}

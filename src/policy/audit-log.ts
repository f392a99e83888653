/**
 * The audit log: one JSON line per write action (a tool not annotated readOnlyHint), per call of a tool that
 * asks the human though it changes nothing (start_recording), and per call of any tool that a setting of the
 * person's refused (a read of a denied app included, by a tool or a resource read) — when, which tool, which app and
 * element, how it ended — in a file, and (of calls that ran) as MCP log messages. Never the text typed, the value
 * set or what went to the clipboard: their lengths only, and never the raw arguments.
 */
import { appendFileSync, chmodSync, existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Mode } from '../modes.js';
import { isWrite, toolsetOf } from '../toolsets.js';
import type { RefTable } from '../engine/kernel/refs.js';
import { type ElementPath, elementPathIn, formatPath } from '../engine/kernel/paths.js';
import { mayBeNamedByEntry } from '../engine/kernel/entered.js';
import { labelParts } from '../engine/kernel/tree.js';
import { MacpilotError } from '../errors.js';
import { helperFailure } from '../engine/kernel/failures.js';
import { HelperError, typedBefore } from '../helper-client/errors.js';
import type { Logger } from '../log.js';
import type { CallOutcome, ClientLog, Guard, ToolCall } from './pipeline.js';

export interface AuditEntry {
  time: string;
  /** The tool called; `resources/read` or `resources/subscribe` for a resource. */
  tool: string;
  /** The resource read, as its URI template (`macpilot://app/{name}/tree`). */
  resource?: string;
  app?: string;
  /** The app's process id, when the call named the app by it. */
  pid?: number;
  target?: { role: string; name?: string };
  outcome: 'ok' | 'refused' | 'stopped' | 'failed';
  /**
   * What kind of failure or refusal ("unknown_ref", "not_in_mode"), never its sentence: a message may quote what
   * was typed or asked for.
   */
  error?: string;
  /** The arguments the failure is about, by name ("path", "key"), when known. */
  error_arguments?: string[];
  duration_ms: number;
  /** `text_length`, `value_length`, `key_length`: how much was typed, set or pressed, never what. */
  [length: `${string}_length`]: number;
  /** The mode the server runs in, and what guards noted (e.g. that the human was asked). */
  flags: Record<string, string | boolean>;
}

/** Arguments whose content is the user's data: only their length is recorded. */
const CONTENT_ARGS = ['text', 'value', 'key', 'title', 'message', 'subtitle', 'script'] as const;

export interface AuditOptions {
  /** The JSONL file; undefined: MCP log messages only. */
  file?: string;
  mode: Mode;
  refs: RefTable;
  log: Logger;
  /** Passed this size, the file is renamed to `.1` (and `.1` to `.2`, ...). */
  maxBytes?: number;
  /** Rotated files kept. */
  keep?: number;
  now?: () => Date;
}

export class AuditLog implements Guard {
  private readonly maxBytes: number;
  private readonly keep: number;
  private readonly now: () => Date;
  private warned = false;
  /** The file is known to be the person's alone (mode 0600). */
  private madePrivate = false;

  constructor(private readonly options: AuditOptions) {
    this.maxBytes = options.maxBytes ?? 5 * 1024 * 1024;
    this.keep = options.keep ?? 3;
    this.now = options.now ?? (() => new Date());
  }

  async admit(): Promise<undefined> {
    return undefined;
  }

  settled(call: ToolCall, outcome: CallOutcome): void {
    // A call that asks the human though it changes nothing (start_recording) is logged as an action is.
    if (!isWrite(call.tool, call.args) && !outcome.refused && !call.tool.asksConsent) return;
    this.record(this.entry(call, outcome), call.clientLog);
  }

  /**
   * The entry in the file, and, of a call that ran, as a log message to the client. The client's messages reach
   * the agent, which has its answer of a call refused or failed: an entry of one would tell it more than the
   * answer did (a call the app lists refused is answered as if the app did not run, and is logged as refused).
   */
  private record(entry: AuditEntry, clientLog: ClientLog): void {
    if (this.options.file) this.write(this.options.file, `${JSON.stringify(entry)}\n`);
    if (entry.outcome === 'ok' || entry.outcome === 'stopped') clientLog.send('info', 'audit', entry);
  }

  /**
   * A resource read or subscription that a setting refused (an app the lists hide, a toolset left out): its line
   * names the resource's template and the app, as a tool call's does. A refusal goes to the file only (record).
   */
  refusedResource(read: {
    tool: 'resources/read' | 'resources/subscribe';
    resource: string;
    app?: string;
    pid?: number;
    error: MacpilotError;
  }): void {
    const entry: AuditEntry = {
      time: this.now().toISOString(),
      tool: read.tool,
      resource: read.resource,
      // An app named by its pid is logged by its pid and its name, as a tool call's is.
      ...(read.pid === undefined ? {} : { pid: read.pid }),
      ...(read.app === undefined ? {} : { app: read.app }),
      outcome: 'refused',
      error: read.error.kind,
      duration_ms: 0,
      flags: { mode: this.options.mode },
    };
    if (this.options.file) this.write(this.options.file, `${JSON.stringify(entry)}\n`);
  }

  entry(call: ToolCall, outcome: CallOutcome): AuditEntry {
    const { args } = call;
    const entry: AuditEntry = {
      time: this.now().toISOString(),
      tool: call.tool.name,
      ...this.where(call, outcome),
      outcome: outcome.refused ? 'refused' : outcome.ok ? 'ok' : outcome.stopped ? 'stopped' : 'failed',
      duration_ms: Math.round(outcome.durationMs),
      flags: { mode: this.options.mode, ...call.notes },
    };
    Object.assign(entry, contentLengths(args));
    const typed = typedBefore(outcome.cutShort ?? outcome.error);
    if (typed !== undefined) entry.typed_length = typed;
    if (!outcome.ok) {
      const { kind, concerns } = failureOf(outcome.error);
      entry.error = kind;
      if (concerns.length > 0) entry.error_arguments = [...concerns];
    }
    return entry;
  }

  /**
   * The app and element the call acted on: as its answer says (the element a path reached, the app keys went
   * to), else from what the session already knows (no helper calls).
   */
  private where(call: ToolCall, outcome: CallOutcome): Pick<AuditEntry, 'app' | 'pid' | 'target'> {
    const said = outcome.actedOn ?? call.reached;
    const path = typeof call.args.path === 'string' ? elementPathIn(call.args.path) : undefined;
    const pid = pidNamed(call, path);
    const byPid = pid === undefined ? {} : { pid };
    const named = this.namedApp(call, pid);
    // A call that failed where it was not aimed (keys for one app, the focus in another) names the app it
    // named: what it found elsewhere is not what it tried to act on.
    const elsewhere =
      !outcome.ok && named !== undefined && said?.app !== undefined && !sameApp(named, said.app);
    if (elsewhere) return { app: named, ...byPid };
    if (said?.label !== undefined)
      return { app: said.app, ...byPid, target: parseLabel({ ...said, label: said.label }) };
    // A path's names are only what the call asked for: they name the target when the call reached it (it did).
    const known = { ...this.known(call, path, pid, outcome.ok), ...byPid };
    return said?.app !== undefined ? { ...known, app: said.app } : known;
  }

  /** From what the call names: a ref the session issued, an element path (malformed: none), an app. */
  private known(
    call: ToolCall,
    path: ElementPath | undefined,
    pid: number | undefined,
    reached: boolean,
  ): Pick<AuditEntry, 'app' | 'target'> {
    const { args } = call;
    const ref = typeof args.ref === 'string' ? this.options.refs.known(args.ref) : undefined;
    if (ref) return { app: ref.app.name, target: parseLabel(ref) };
    // An app named by its pid is named by its name when the session met it.
    const app = (name: string) => (pid === undefined ? name : this.options.refs.appName(pid));
    if (path) {
      const last = path.segments.at(-1);
      // A path that picks by role and index names no element: the element met there names it.
      const seen = last?.name === undefined ? this.options.refs.atPath(formatPath(path)) : undefined;
      if (seen) return { app: seen.app.name, target: parseLabel(seen) };
      return {
        app: app(path.app),
        target: reached && last ? targetOf(last.role, last.name, formatPath(path)) : undefined,
      };
    }
    const named = this.namedApp(call, pid);
    return named === undefined ? {} : { app: named };
  }

  /** The app the call's app argument names, by its name when it was named by a pid the session met. */
  private namedApp(call: ToolCall, pid: number | undefined): string | undefined {
    const named = call.args[toolsetOf(call.tool.toolset).appArgument];
    if (typeof named !== 'string') return undefined;
    return pid === undefined ? named : this.options.refs.appName(pid);
  }

  private write(file: string, line: string): void {
    try {
      if (existsSync(file)) {
        const stats = statSync(file);
        // Never chmod or append to what is not a file of the person's (a folder given by mistake).
        if (!stats.isFile()) throw new Error('it is not a file');
        if (stats.size + line.length > this.maxBytes) this.rotate(file);
        // A file made before (by hand, or by an older macpilot) is made private too, once.
        else if (!this.madePrivate) chmodSync(file, 0o600);
      } else {
        mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
      }
      appendFileSync(file, line, { mode: 0o600 });
      this.madePrivate = true;
    } catch (error) {
      if (this.warned) return;
      this.warned = true;
      this.options.log.warn(`audit log ${file} not writable: ${(error as Error).message}`);
    }
  }

  private rotate(file: string): void {
    for (let n = this.keep - 1; n >= 1; n--) {
      if (existsSync(`${file}.${n}`)) renameSync(`${file}.${n}`, `${file}.${n + 1}`);
    }
    renameSync(file, `${file}.1`);
  }
}

/**
 * A call's arguments as a record may keep them: those whose content is the user's data (typed text, a value, a
 * key) as their lengths (`text_length`), the others as they are.
 */
export function withoutContent(args: Record<string, unknown>): Record<string, unknown> {
  const kept = Object.fromEntries(
    Object.entries(args).filter(([name]) => !(CONTENT_ARGS as readonly string[]).includes(name)),
  );
  return { ...kept, ...contentLengths(args) };
}

function contentLengths(args: Record<string, unknown>): Record<`${string}_length`, number> {
  const lengths: Record<`${string}_length`, number> = {};
  for (const name of CONTENT_ARGS) {
    const value = args[name];
    // A value of no type the tools take (an object given as text) has no length to speak of: its call fails.
    if (!['string', 'number', 'boolean'].includes(typeof value)) continue;
    // In characters as the answers count them (code points: an emoji is one), not UTF-16 units.
    lengths[`${name}_length`] = Array.from(String(value)).length;
  }
  return lengths;
}

/** The pid the call names its app by: `app(1234)/…` in its element path, or "1234" as its app. */
const sameApp = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

function pidNamed(call: ToolCall, path: ElementPath | undefined): number | undefined {
  if (path) return path.pid;
  const app = call.args[toolsetOf(call.tool.toolset).appArgument];
  return typeof app === 'string' && /^\d+$/.test(app) ? Number(app) : undefined;
}

/** A label as the log keeps it (see targetOf). */
function parseLabel({ label, path, editable }: { label: string; path?: string; editable?: boolean }): {
  role: string;
  name?: string;
} {
  const { role, name } = labelParts(label);
  return targetOf(role, name, path, editable);
}

/** A target as the log keeps it: a name that may be entered text (kernel/entered.ts) is left out. */
function targetOf(
  role: string,
  name: string | undefined,
  path: string | undefined,
  editable = false,
): { role: string; name?: string } {
  return name === undefined || mayBeNamedByEntry(role, path, editable) ? { role } : { role, name };
}

/** A failure as its kind and the arguments it concerns: what a record may keep of it. */
function failureOf(error: unknown): { kind: string; concerns: readonly string[] } {
  if (error === undefined) return { kind: 'answered_error', concerns: [] }; // the tool answered with an error
  if (error instanceof HelperError) return helperFailure(error);
  if (error instanceof MacpilotError) return error;
  return { kind: 'internal_error', concerns: [] };
}

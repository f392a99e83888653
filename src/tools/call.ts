/**
 * One tool call, as every front end makes it (the MCP server, the CLI, a workflow's steps): the policy, the
 * app access of the call, the handler, one reply, the action recorded for undo. Failures become isError
 * results, never exceptions.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import type { Config } from '../config.js';
import { MacpilotError, type Reached } from '../errors.js';
import type { Engine } from '../engine/index.js';
import type { EngineResult } from '../engine/kernel/results.js';
import type { HelperStatus } from '../engine/kernel/port.js';
import { reachedAt } from '../engine/kernel/refs.js';
import { typedBefore } from '../helper-client/errors.js';
import type { Logger } from '../log.js';
import type { ModelPort } from '../engine/features/visual.js';
import { type AppPicks, backgroundOf, inCallScope } from '../policy/call-scope.js';
import { isListed } from '../policy/mode.js';
import type { ClientLog, Human, Policy, ToolCall, Witnessed } from '../policy/pipeline.js';
import type { AuditLog } from '../policy/audit-log.js';
import { type Desk, StoppedAtTheDesk } from '../policy/desk.js';
import type { CallFeed } from '../policy/watch.js';
import { watchedHuman } from '../policy/watched-human.js';
import type { ServiceCheck, Services } from '../services/types.js';
import { appAccess, isWrite } from '../toolsets.js';
import { failedAnswer } from './errors.js';
import { Baselines } from '../engine/testing/visual-diff.js';
import { ActionHistory } from './history.js';
import { allTools } from './index.js';
import { reply } from './reply.js';
import { DIFF_MAX_LINES, renderChanges } from '../engine/render/changes.js';
import { WATCHING } from '../engine/render/vocabulary.js';
import type { NestedAnswer, ToolContext, ToolDefinition } from './types.js';

/** What a session's tool calls share: the engine and the policy, assembled once per process. */
export interface ToolDependencies {
  config: Config;
  log: Logger;
  /** The helper's handshake and process, for reports; calls go through the engine. */
  helper: HelperStatus;
  engine: Engine;
  policy: Policy;
  /** The audit log, for what reaches the desktop other than by a tool call (a resource read a setting refused). */
  audit: AuditLog;
  /** The person's stop and pause over every call (`macpilot stop`). */
  desk: Desk;
  /** What a watching person (the console) sees of the calls, and where they may answer consent questions. */
  feed: CallFeed;
  services: Services;
  /** What check_permissions reports of the services, for the enabled toolsets. */
  serviceChecks: readonly ServiceCheck[];
}

/** The tools this platform can serve, split by whether the enabled toolsets hold them. */
const servedTools = (config: Config, services: Services, enabled: boolean): ToolDefinition[] =>
  allTools.filter(
    (tool) =>
      config.toolsets.includes(tool.toolset) === enabled &&
      (tool.service === undefined || services[tool.service] !== undefined),
  );

/** The tools of the enabled toolsets that this platform can serve. */
export const availableTools = (config: Config, services: Services): ToolDefinition[] =>
  servedTools(config, services, true);

/** The tools this platform serves in the toolsets the server leaves out: a call by name is told how to add them. */
export const toolsLeftOut = (config: Config, services: Services): ToolDefinition[] =>
  servedTools(config, services, false);

/** The tools whose platform service is missing here (run_applescript on Linux): a call by name is told so. */
export const toolsNotServed = (services: Services): ToolDefinition[] =>
  allTools.filter((tool) => tool.service !== undefined && services[tool.service] === undefined);

/** Why a tool this platform cannot serve does not run, in the words of both front ends. */
export const notOnThisPlatform = (toolName: string): string =>
  `${toolName} is not available on this platform (${process.platform === 'darwin' ? 'macOS' : process.platform})`;

/** The tools in tools/list: the available ones that the mode allows. */
export function enabledTools(config: Config, services: Services): ToolDefinition[] {
  return availableTools(config, services).filter((tool) => isListed(tool, config.mode));
}

/** One front end's session: who is asked for consent, where log messages go, which tools it offers. */
export interface SessionOptions {
  human: Human;
  /** Who makes the calls, as the person watching reads it (an MCP client's name; the CLI). */
  who: () => string;
  clientLog: ClientLog;
  /** The tools this session offers, by name (the MCP server: those in tools/list). */
  listed: readonly ToolDefinition[];
  /** Tools registered but hidden by the mode: a call by name is refused by the policy, which says why. */
  available: readonly ToolDefinition[];
  /** The folders the client declared as its roots; none given: no roots declared. */
  roots?: (signal: AbortSignal) => Promise<string[] | undefined>;
  /** The client's model (MCP sampling), when the client offers one; asked at each call (it is known once the client has connected). */
  model?: () => ModelPort | undefined;
  /** Aborted when the session ends (an MCP session closes); none given: it lasts as long as the process. */
  sessionEnd?: AbortSignal;
  /** Wraps each call (the MCP server times it for its debug log). */
  around?: <T>(tool: string, run: () => Promise<T>) => Promise<T>;
}

export interface CallOptions {
  signal: AbortSignal;
  /** Progress of a long call, for a client that asked for it. */
  progress?: ToolContext['progress'];
  /** False for an undo's own calls, which are not actions to undo in turn. */
  record?: boolean;
}

/** A call's reply and, when the handler answered one, the engine result it was rendered from. */
export interface ToolAnswer {
  result: CallToolResult;
  answer?: EngineResult;
  /** Why the call failed, when it threw: the CLI tells it in a person's words. */
  failure?: MacpilotError;
}

let sessions = 0;

/**
 * What the console shows of an answer: what the action changed, line by line in a person's words (paths, not
 * refs; text values as their lengths), and where it acted (the element's frame, or the point a call gave).
 */
function witnessed(args: Record<string, unknown>, answer: EngineResult | undefined): Witnessed {
  const point =
    typeof args.x === 'number' && typeof args.y === 'number'
      ? { x: args.x, y: args.y, width: 0, height: 0 }
      : undefined;
  if (answer?.kind !== 'action') return point ? { bounds: point } : {};
  const changes =
    answer.outcome?.kind === 'changes'
      ? renderChanges(answer.outcome.changes, DIFF_MAX_LINES, WATCHING).split('\n').slice(1)
      : undefined;
  const bounds = answer.targetBounds ?? point;
  return { ...(changes ? { changes } : {}), ...(bounds ? { bounds } : {}) };
}

export class ToolSession {
  readonly history = new ActionHistory();
  /** visual_diff's baseline://NAME images, for the session's life. */
  readonly baselines = new Baselines();
  /** Which app the human meant by an ambiguous name, for the session's life. */
  private readonly appPicks: AppPicks = new Map();
  private readonly names: string[];
  private readonly byName: Map<string, ToolDefinition>;
  /** The tools of the toolsets the server leaves out: a call from a workflow is refused by the policy, as by name. */
  private readonly leftOut: Map<string, ToolDefinition>;
  /** One signal for the session's calls (what it starts is known by it); none given: never aborted. */
  private readonly sessionEnd: AbortSignal;
  /** Asked for consent through the session's own way, and in the console while one watches. */
  private readonly human: Human;
  private readonly number = ++sessions;

  constructor(
    private readonly deps: ToolDependencies,
    private readonly options: SessionOptions,
  ) {
    this.sessionEnd = options.sessionEnd ?? new AbortController().signal;
    this.human = watchedHuman(options.human, deps.feed, () => this.label());
    // What the session held down is let go with it.
    this.sessionEnd.addEventListener('abort', () => void this.letGo(), { once: true });
    this.names = options.listed.map((tool) => tool.name);
    this.byName = new Map(options.available.map((tool) => [tool.name, tool]));
    this.leftOut = new Map(toolsLeftOut(deps.config, deps.services).map((tool) => [tool.name, tool]));
  }

  /** The session as the person watching reads it: its client's name and its number in this process. */
  label(): string {
    return `${this.options.who()} #${this.number}`;
  }

  /** A tool the session knows by this name, listed or hidden by the mode. */
  tool(name: string): ToolDefinition | undefined {
    return this.byName.get(name);
  }

  /**
   * A call whose arguments do not fit the tool's schema: not run, answered with each bad argument in words,
   * and recorded as any call is (the audit log has an action that was asked for and failed). A tool the mode
   * leaves out is refused whatever its arguments: that refusal is the answer, and the log's.
   */
  async invalid(
    tool: ToolDefinition,
    args: unknown,
    error: z.ZodError,
  ): Promise<ToolAnswer & { failure: MacpilotError }> {
    const failure = invalidArguments(tool.name, error, args);
    // An argument the tool does not take is no part of what the call asked for (an `app` type_text does not
    // take names no app it acted in): the guards and the audit log see the arguments the tool knows.
    const takes = new Set(Object.keys(tool.input.shape));
    const given =
      typeof args === 'object' && args !== null
        ? Object.fromEntries(Object.entries(args).filter(([name]) => takes.has(name)))
        : {};
    const call: ToolCall = {
      tool,
      args: given,
      human: this.human,
      session: this.label(),
      clientLog: this.options.clientLog,
      signal: this.sessionEnd,
    };
    if (this.hiddenBecause(tool) === undefined) {
      this.deps.policy.rejected(call, failure);
      return failedAnswer(failure, tool.name, this.deps.log, this.offered());
    }
    // The guards refuse it before the work, which would only say what the arguments lack.
    const refused = await this.deps.policy
      .run(
        call,
        () => Promise.reject(failure),
        () => true,
      )
      .catch((refusal: unknown) => refusal);
    return failedAnswer(refused, tool.name, this.deps.log, this.offered());
  }

  /** The tools this session lists, and every tool, for advice that names one it does not offer. */
  private offered(): { listed: readonly string[]; all: readonly string[] } {
    return { listed: this.names, all: allTools.map((tool) => tool.name) };
  }

  /** Runs a tool whose arguments its input schema already validated. */
  async run(tool: ToolDefinition, args: unknown, options: CallOptions): Promise<CallToolResult> {
    return (await this.answer(tool, args, options)).result;
  }

  /** As run, with the engine result the reply was rendered from (the CLI renders it its own way). */
  async answer(tool: ToolDefinition, args: unknown, options: CallOptions): Promise<ToolAnswer> {
    return this.deps.desk.run(options.signal, async (signal) => {
      const answer = await this.answered(tool, args, { ...options, signal });
      if (!(signal.aborted && signal.reason instanceof StoppedAtTheDesk)) return answer;
      // Typing cut short says how far it got: an agent that types it all again would type it twice.
      const typed = typedBefore(answer.failure);
      const text = (args as { text?: unknown }).text;
      const stop: StoppedAtTheDesk = signal.reason;
      const told =
        typed === undefined
          ? stop
          : new StoppedAtTheDesk({
              ...stop,
              what: `${stop.what}: ${typed}${typeof text === 'string' ? ` of ${[...text].length}` : ''} characters had been typed`,
            });
      return failedAnswer(told, tool.name, this.deps.log, this.offered());
    });
  }

  private async answered(tool: ToolDefinition, args: unknown, options: CallOptions): Promise<ToolAnswer> {
    const { deps, history, baselines } = this;
    const context: ToolContext = {
      ...deps,
      signal: options.signal,
      enabledTools: this.names,
      callTool: (name, stepArgs, signal, callOptions) =>
        this.callTool(name, stepArgs, { signal, record: callOptions?.record }),
      note: (flags) => {
        call.notes = { ...call.notes, ...flags };
      },
      checkCall: (name, stepArgs, pending) => this.checkCall(name, stepArgs, pending),
      history,
      baselines,
      roots: async () => this.options.roots?.(options.signal),
      sessionEnd: this.sessionEnd,
      holder: this,
      model: this.options.model?.(),
      progress: (done, total, message) => {
        options.progress?.(done, total, message);
        deps.feed.progress(call, done, total, message);
      },
    };
    const call: ToolCall = {
      tool,
      args: args as Record<string, unknown>,
      human: this.human,
      session: this.label(),
      clientLog: this.options.clientLog,
      signal: options.signal,
    };
    const around = this.options.around ?? ((_tool, run) => run());
    try {
      return await around(tool.name, () =>
        deps.policy.run(
          call,
          async (): Promise<ToolAnswer> => {
            const writes = isWrite(tool, call.args);
            // The engine's checks read the call's access (src/policy/apps.ts) and its human (choose-app.ts).
            const scope = {
              access: appAccess(tool),
              asker: { human: this.human, picks: this.appPicks, signal: options.signal },
              background: this.background(call.args),
            };
            return inCallScope(scope, async () => {
              // What undoes it is read before it runs; a read that fails leaves the action without one.
              const inverse = writes
                ? await tool.inverse?.(args as never, context).catch(() => undefined)
                : undefined;
              const recorded = writes && !tool.unrecorded && options.record !== false;
              const handled = await tool.handle(args as never, context).catch((error: unknown) => {
                // Cut short after part of its work (keys typed before a cancel or a stop, a field that kept part of
                // a value): undone as one that ran.
                const changed =
                  (typedBefore(error) ?? 0) > 0 || (error instanceof MacpilotError && error.changed);
                if (recorded && changed) history.record(tool.name, inverse);
                throw error;
              });
              const result = reply(handled, tool.output);
              if (recorded && !result.isError) history.record(tool.name, inverse);
              const answer = typeof handled === 'string' || 'content' in handled ? undefined : handled;
              return { result, ...(answer ? { answer } : {}) };
            });
          },
          (answered) => answered.result.isError === true,
          (answered) => actedOn(answered.answer),
          (answered) => (deps.feed.watched() ? witnessed(call.args, answered.answer) : {}),
        ),
      );
    } catch (error) {
      return failedAnswer(error, tool.name, deps.log, this.offered());
    } finally {
      // A cancelled call stops what the session does, held keys and buttons included.
      if (options.signal?.aborted) await this.letGo();
    }
  }

  /** Why a call keeps to the background: its own background argument, else the server's MACPILOT_INPUT. */
  private background(args: Record<string, unknown>): string | undefined {
    const { config } = this.deps;
    return backgroundOf(args, config.input, () => config.origins.input.where);
  }

  /** Release the buttons and keys the session holds down. */
  private async letGo(): Promise<void> {
    await this.deps.engine.held.releaseAll(this).catch((error: unknown) => {
      this.deps.log.warn(
        `releasing held input failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    });
  }

  /** A tool called by name, as an agent calls it: input validated as tools/call validates, then run. */
  async callTool(name: string, args: Record<string, unknown>, options: CallOptions): Promise<NestedAnswer> {
    const tool = this.callable(name);
    if (typeof tool === 'string') {
      const result: CallToolResult = { content: [{ type: 'text', text: tool }], isError: true };
      const unknown = this.known(name) === undefined;
      return { result, failure: { kind: unknown ? 'unknown_tool' : 'not_callable', refusal: false } };
    }
    const parsed = tool.input.safeParse(args);
    if (!parsed.success) {
      const { result, failure } = await this.invalid(tool, args, parsed.error);
      return { result, failure: { kind: failure.kind, refusal: failure.refusal } };
    }
    const { result, failure } = await this.answer(tool, parsed.data, options);
    return { result, ...(failure ? { failure: { kind: failure.kind, refusal: failure.refusal } } : {}) };
  }

  /** Why callTool would refuse the call before it runs, in one line; undefined: it would run. */
  checkCall(
    name: string,
    args: Record<string, unknown>,
    pending: (path: readonly PropertyKey[]) => boolean = () => false,
  ): string | undefined {
    const tool = this.callable(name);
    if (typeof tool === 'string') return tool;
    const hidden = this.hiddenBecause(tool);
    if (hidden !== undefined) return `${name} would be refused: ${hidden}`;
    const parsed = tool.input.safeParse(args);
    const issues = parsed.error?.issues.filter((issue) => !pending(issue.path)) ?? [];
    if (issues.length === 0) return undefined;
    const listed = issues.map(
      (issue) => `${issue.path.map(String).join('.') || 'arguments'}: ${issue.message}`,
    );
    return `invalid arguments for ${name}: ${listed.join('; ')}`;
  }

  /** A tool of this platform by name, offered to the session or not. */
  private known(name: string): ToolDefinition | undefined {
    return this.byName.get(name) ?? this.leftOut.get(name);
  }

  /** Why a tool this platform has is not offered to the session, naming the setting; undefined: it is. */
  private hiddenBecause(tool: ToolDefinition): string | undefined {
    if (this.names.includes(tool.name)) return undefined;
    const { config } = this.deps;
    return this.leftOut.has(tool.name)
      ? `its toolset "${tool.toolset}" is left out by ${config.origins.toolsets.where}`
      : `it is not available in ${config.mode} mode (set by ${config.origins.mode.where})`;
  }

  /**
   * The tool a call by name from within another call reaches, or why there is none. One the toolsets or the mode
   * leave out is reached: the policy refuses it as it refuses a call by name, naming the setting.
   */
  private callable(name: string): ToolDefinition | string {
    const tool = this.known(name);
    if (!tool) return `${name} is not a tool of this server; tools/list names those it offers.`;
    if (tool.nested === false) return `${name} cannot be called from within another tool call.`;
    return tool;
  }
}

/** How error_arguments names an argument the tool does not take. */
const UNKNOWN_ARGUMENT = '(unknown)';

/** Why a call's arguments do not fit the tool's schema, each bad one named with what it takes. */
function invalidArguments(name: string, error: z.ZodError, args: unknown): MacpilotError {
  const given = (path: readonly PropertyKey[]) =>
    path.reduce<unknown>(
      (at, key) =>
        typeof at === 'object' && at !== null ? (at as Record<PropertyKey, unknown>)[key] : undefined,
      args,
    );
  const issues = error.issues.map((issue) => {
    const where = issue.path.map(String).join('.');
    // zod's heading ("Invalid input: ", "Too big: ") says nothing the rest does not.
    const said = issue.message.replace(/^(Invalid input|Too big|Too small|Invalid option): /, '');
    const value = given(issue.path);
    const quoted =
      issue.code === 'invalid_type' && issue.expected === 'string' && typeof value === 'number'
        ? ` (as text it is "${value}")`
        : '';
    return where === '' ? said : `${where}: ${said}${quoted}`;
  });
  // The names the tool takes; a name it does not take is the agent's own text, which the audit log never keeps.
  const concerns = [
    ...new Set(
      error.issues.flatMap((issue) =>
        issue.code === 'unrecognized_keys' ? [UNKNOWN_ARGUMENT] : issue.path.slice(0, 1).map(String),
      ),
    ),
  ];
  return new MacpilotError({
    what: `${name} was not run: its arguments do not fit it`,
    why: issues.join('; '),
    next: `call ${name} again with the arguments its input schema (tools/list) describes`,
    kind: 'invalid_arguments',
    concerns,
  });
}

/** What an action's answer says it acted on, for the audit log: its element, and the app. */
function actedOn(answer: EngineResult | undefined): Reached | undefined {
  if (answer?.kind !== 'action') return undefined;
  const outcome = answer.outcome?.kind === 'unwatched' ? undefined : answer.outcome;
  const app = answer.target?.app.name ?? answer.app?.name ?? outcome?.app.name;
  return { ...(answer.target ? reachedAt(answer.target) : {}), app };
}

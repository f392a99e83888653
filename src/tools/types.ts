/** A tool is data plus one handler: the MCP server registers these, policy and tests read them. */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Config } from '../config.js';
import type { Engine } from '../engine/index.js';
import type { StructuredOutput } from '../engine/render/json.js';
import type { Baselines } from '../engine/testing/visual-diff.js';
import type { ModelPort } from '../engine/features/visual.js';
import type { EngineResult } from '../engine/kernel/results.js';
import type { HelperStatus } from '../engine/kernel/port.js';
import type { ServiceCheck, ServiceName, Services } from '../services/types.js';
import type { ToolAnnotations, Toolset } from '../toolsets.js';
import type { ActionHistory, Inverse, NothingToUndo } from './history.js';

/** A call made from within another: its reply, and why it failed when it did (its kind, whether refused). */
export interface NestedAnswer {
  result: CallToolResult;
  failure?: { kind: string; refusal: boolean };
}

export interface ToolContext {
  engine: Engine;
  /** The helper's handshake and process, for reports; calls go through the engine. */
  helper: HelperStatus;
  config: Config;
  /** What this platform offers beyond the accessibility tree (system, audio, file manager, scripts...). */
  services: Services;
  serviceChecks: readonly ServiceCheck[];
  /** Aborted when the client cancels the request. */
  signal: AbortSignal;
  /** Tools in tools/list, by toolset, for session_info. */
  enabledTools: readonly string[];
  /**
   * Another tool called as an agent would call it (its input validated, then the policy: mode, app lists, rate
   * limits, consent, audit), for workflows; the tools the mode hides, and run_workflow itself, are refused.
   */
  callTool(
    name: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    /** record: false for an undo's own calls, which are not actions to undo in turn. */
    options?: { record?: boolean },
  ): Promise<NestedAnswer>;
  /** Adds flags to this call's audit line (which step of a workflow stopped it, say). */
  note(flags: Record<string, string | boolean>): void;
  /**
   * Why callTool would refuse this call before running it (a tool not listed, one that cannot be nested,
   * arguments that do not fit), in one line; undefined: it would run. `pending`: argument paths whose values
   * are not known yet (filled in later), whose problems are left out.
   */
  checkCall(
    name: string,
    args: Record<string, unknown>,
    pending?: (path: readonly PropertyKey[]) => boolean,
  ): string | undefined;
  /** Reports progress to the client, when it asked for progress. */
  progress(done: number, total: number, message: string): void;
  /** The session's actions, for undo and rollback. */
  history: ActionHistory;
  /** The session's visual_diff baselines (baseline://NAME). */
  baselines: Baselines;
  /** The folders the client declared as its roots, as paths; undefined when it declared none. */
  roots(): Promise<string[] | undefined>;
  /** The client's model (MCP sampling), when the client offers one; macpilot never calls a model itself. */
  model?: ModelPort;
  /** Aborted when the MCP session that makes the call ends (what it started, such as a recording, ends too). */
  sessionEnd: AbortSignal;
  /** The session, as the holder of the buttons and keys it holds down (engine.held). */
  holder: object;
}

/** A tool as its file declares it; its toolset is given once for the file's tools (toolsetTools). */
export interface ToolSpec<Input extends z.ZodObject = z.ZodObject, R extends EngineResult = EngineResult> {
  name: string;
  title: string;
  description: string;
  input: Input;
  /**
   * Its structuredContent: tools/list shows the schema as outputSchema, and every answer must match it. A tool
   * whose handler answers a full result with its structuredContent declares the schema alone.
   */
  output?: StructuredOutput<R> | { schema: z.ZodObject };
  annotations: ToolAnnotations;
  /** The platform service the tool needs: without it on this platform, the tool is not listed. */
  service?: ServiceName;
  /** What the human asked to allow the call also reads, when its title and target say too little (a script's source). */
  consentDetail?: (args: z.output<Input>) => string;
  /** The human is asked before every call, though it changes nothing (see ToolMeta.asksConsent). */
  asksConsent?: true;
  /** Its app argument names an app without a tree (see ToolMeta.namesAppWithoutTree). */
  namesAppWithoutTree?: true;
  /** A long call a client may run as a task (tasks/get, tasks/result, tasks/cancel) instead of waiting on it. */
  task?: true;
  /** False for a tool that may not run as another tool's step (run_workflow itself). */
  nested?: false;
  /**
   * For an action that can be undone: the call that puts back what it is about to change, read before it
   * runs; undefined when this call cannot be undone (a secure field, a target it cannot name again).
   */
  inverse?: (args: z.output<Input>, context: ToolContext) => Promise<Inverse | NothingToUndo | undefined>;
  /** Not recorded as an action of its own (undo and run_workflow, whose steps are). */
  unrecorded?: true;
  /** Arguments that make a read-only tool write, with what each changes (see ToolMeta.writesWith). */
  writesWith?: Partial<Record<keyof z.output<Input> & string, string>>;
  /**
   * Returns an engine result (rendered by reply.ts), the text the agent reads, or a full result. Throws
   * MacpilotError for foreseeable failures.
   */
  handle(args: z.output<Input>, context: ToolContext): Promise<string | CallToolResult | R>;
}

export interface ToolDefinition<Input extends z.ZodObject = z.ZodObject> extends ToolSpec<Input> {
  toolset: Toolset;
}

export function defineTool<Input extends z.ZodObject, R extends EngineResult>(
  spec: ToolSpec<Input, R>,
): ToolSpec<Input, R> {
  return spec;
}

/**
 * The tools of one toolset: each inherits it. Their arguments are strict: an argument a tool does not take is
 * refused, naming it, rather than dropped (an agent that passed `clear: true` would believe it cleared).
 */
export function toolsetTools(toolset: Toolset, specs: readonly ToolSpec[]): ToolDefinition[] {
  return specs.map((spec) => ({ ...spec, input: strictInput(spec), toolset }));
}

/** A tool's arguments, refusing one it does not take with the names of those it does. */
function strictInput(spec: ToolSpec): z.ZodObject {
  const takes = Object.keys(spec.input.shape);
  const error = (issue: { code?: string; keys?: readonly string[] }) => {
    if (issue.code !== 'unrecognized_keys') return undefined;
    const unknown = (issue.keys ?? []).map((key) => JSON.stringify(key)).join(', ');
    const plural = (issue.keys ?? []).length === 1 ? 'argument' : 'arguments';
    return `${spec.name} takes no ${plural} ${unknown}; it takes ${takes.length > 0 ? takes.join(', ') : 'none'}`;
  };
  return spec.input.clone({ ...spec.input._zod.def, catchall: z.never(), error });
}

/** Tools that need one platform service: they are listed only where it exists. */
export function withService(service: ServiceName, specs: readonly ToolSpec[]): ToolSpec[] {
  return specs.map((spec) => ({ ...spec, service }));
}

/** Annotation presets; a tool spreads one and overrides what differs. */
export const READ_ONLY: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
export const WRITE: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
};

/** The service a tool declared in `service`; the server lists and registers the tool only where it exists. */
export function serviceOf<Name extends ServiceName>(
  context: Pick<ToolContext, 'services'>,
  name: Name,
): NonNullable<Services[Name]> {
  const service = context.services[name];
  if (service === undefined) throw new Error(`service ${name} is not available on this platform`);
  return service;
}

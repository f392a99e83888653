/**
 * Every tool call passes here (docs/architecture.md, the policy). Guards run in order before the call and may refuse it by
 * throwing a MacpilotError (the agent reads why and what would allow it); each may hand back a release function
 * (a concurrency slot, say) and learns how the call ended.
 */
import type { LoggingLevel } from '@modelcontextprotocol/sdk/types.js';
import { isRefusal, MacpilotError, type Reached } from '../errors.js';
import type { Bounds } from '../helper-client/protocol.js';
import type { ToolMeta } from '../toolsets.js';

/** Log messages to the client, at or above the level it asked for. */
export interface ClientLog {
  send(level: LoggingLevel, logger: string, data: unknown): void;
}

export type ConsentAnswer = 'accept' | 'decline' | 'cancel' | 'unanswered';

/** The person who runs macpilot, as a guard can ask them: through the MCP client, or at the CLI's terminal. */
export interface Human {
  /**
   * Why they cannot be asked here (a client without elicitation, no terminal), or undefined when they can;
   * `ask`: the kind of question (a consent may have been given in advance, a choice cannot).
   */
  unreachable(ask?: 'confirm' | 'choose'): string | undefined;
  /**
   * Asks whether to allow `action` ("quit app (zenity)"), with what else they should read; their answer, or
   * `unanswered` when the question's time ran out with no answer. `asGiven`: the action with what it acts on
   * named as it is, for a human who is the caller (the CLI's person); `because`: why they are asked.
   */
  confirm(
    ask: {
      action: string;
      asGiven?: string;
      because?: string;
      detail?: string;
      tool: string;
      undoable?: boolean;
    },
    signal: AbortSignal,
  ): Promise<ConsentAnswer>;
  /** Asks which of `options` they mean; the value of their pick, or how they answered otherwise. */
  choose(
    ask: { question: string; title: string; options: readonly { value: string; label: string }[] },
    signal: AbortSignal,
  ): Promise<{ action: 'accept'; value: string } | { action: 'decline' | 'cancel' }>;
}

export interface ToolCall {
  tool: ToolMeta;
  /** The arguments as validated by the tool's schema. */
  args: Record<string, unknown>;
  /** Who a guard asks for consent. */
  human: Human;
  /** Which session made it, as the person watching reads it (the client's name and a short id). */
  session?: string;
  /** Log messages to the client. */
  clientLog: ClientLog;
  signal: AbortSignal;
  /** What guards noted while admitting the call (e.g. that the human was asked), for the audit log. */
  notes?: Record<string, string | boolean>;
  /** What a guard found the call would act on (the element a path reaches, the focused one), for the audit log. */
  reached?: Reached;
}

export interface CallOutcome {
  ok: boolean;
  /** What the answer says it acted on, or what the call had reached when it failed. */
  actedOn?: Reached;
  /** What failed, when the call failed (a MacpilotError, a helper error, or a bug). */
  error?: unknown;
  /** A guard, or a setting checked while it ran (the app list), refused the call: it did not act. */
  refused: boolean;
  /** The person stopped it at the desk (`macpilot stop`, the console's Stop) while it ran: `error` says so. */
  stopped?: boolean;
  /** What the work a stop cut short failed with (a cancelled helper request that says how far it got). */
  cutShort?: unknown;
  durationMs: number;
  /** What changed in the app, in a person's words, when the call acted and watched. */
  changes?: readonly string[];
  /** Where on screen it acted (an element's frame, a point as a frame without size), in screen points. */
  bounds?: Bounds;
}

/** What a watching person is shown of a call's result beside the audit log's record. */
export type Witnessed = Pick<CallOutcome, 'changes' | 'bounds'>;

export interface Guard {
  admit(call: ToolCall): Promise<(() => void) | undefined>;
  settled?(call: ToolCall, outcome: CallOutcome): void;
}

/** The person's stop, when a call's signal was aborted by one (policy/desk.ts's StoppedAtTheDesk). */
function stoppedAtTheDesk(signal: AbortSignal): MacpilotError | undefined {
  const reason: unknown = signal.aborted ? signal.reason : undefined;
  return reason instanceof MacpilotError && reason.kind === 'stopped_at_the_desk' ? reason : undefined;
}

export class Policy {
  constructor(private readonly guards: readonly Guard[] = []) {}

  /** A call refused before any guard admitted it (its arguments did not fit): the guards learn how it ended. */
  rejected(call: ToolCall, error: MacpilotError): void {
    for (const guard of this.guards)
      guard.settled?.(call, { ok: false, error, refused: false, durationMs: 0 });
  }

  async run<T>(
    call: ToolCall,
    work: () => Promise<T>,
    failed: (result: T) => boolean,
    actedOn: (result: T) => Reached | undefined = () => undefined,
    witnessed: (result: T) => Witnessed = () => ({}),
  ): Promise<T> {
    const releases: (() => void)[] = [];
    const started = performance.now();
    const settle = (outcome: Omit<CallOutcome, 'durationMs'>) => {
      for (const release of releases.splice(0).reverse()) release();
      const durationMs = performance.now() - started;
      for (const guard of this.guards) guard.settled?.(call, { ...outcome, durationMs });
    };
    try {
      for (const guard of this.guards) {
        const release = await guard.admit(call);
        if (release) releases.push(release);
      }
      const result = await work();
      const ok = !failed(result);
      const stop = ok ? undefined : stoppedAtTheDesk(call.signal);
      settle({
        ok,
        refused: false,
        actedOn: actedOn(result),
        ...witnessed(result),
        ...(stop ? { error: stop, stopped: true } : {}),
      });
      return result;
    } catch (error) {
      // A refusal is a setting's doing, whether a guard or the work met it; anything else a guard threw (a path
      // that leads nowhere, a bug) is a failure like any other. Work the person stopped failed as the stop made
      // it (a cancelled helper request): it is said as the stop.
      const stop = stoppedAtTheDesk(call.signal);
      const reached = error instanceof MacpilotError ? error.reached : undefined;
      settle({
        ok: false,
        error: stop ?? error,
        refused: !stop && isRefusal(error),
        ...(stop ? { stopped: true, cutShort: error } : {}),
        ...(reached ? { actedOn: reached } : {}),
      });
      throw error;
    }
  }
}

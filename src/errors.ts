import { shellQuote } from './text.js';

/**
 * A failure an agent can act on: what failed, why, and what to do next. Tools turn it into an isError result;
 * anything else thrown is a bug and is reported as such.
 */
export interface FailureParts {
  what: string;
  why: string;
  next: string;
  /**
   * What kind of failure, in snake_case ("element_not_found"): what records that must not quote the sentences
   * (which may hold what the agent typed) keep instead, as the audit log does. Every construction in src/ gives one
   * (an eslint rule checks); "failed" is left for errors built from parts that have none.
   */
  kind?: string;
  /** The call's arguments it is about, by name ("ref", "text"), when known. */
  concerns?: readonly string[];
  /** A setting of the person's refused the call (a mode, a limit, the app list, a pause): not a failure. */
  refusal?: boolean;
  /**
   * The parts as told to a person who ran the command at a terminal, where they differ from an agent's: the
   * person is the one asked and the one who answers, and they give flags where an agent gives arguments.
   */
  person?: Partial<Pick<FailureParts, 'what' | 'why' | 'next'>>;
  /** What the call had reached when it failed: its element's label and app, for the audit log. */
  reached?: Reached;
  /** The call failed after it changed what it acted on (a field kept part of a value): undo restores it. */
  changed?: boolean;
}

/** An element a call acted on or reached (`button "Save"`), and its app. */
export interface Reached {
  app?: string;
  label?: string;
  /** Where the element is, for a log that must know whether its name may be entered text. */
  path?: string;
  /** The element is editable: its name may be entered text. */
  editable?: boolean;
}

/** A what as a sentence: a full stop, unless it ends with its own ("did you mean "home"?"). */
const sentence = (what: string): string => (/[.?!]$/.test(what) ? what : `${what}.`);

export class MacpilotError extends Error {
  readonly what: string;
  readonly why: string;
  readonly next: string;
  readonly kind: string;
  readonly concerns: readonly string[];
  readonly refusal: boolean;
  readonly person: Partial<Pick<FailureParts, 'what' | 'why' | 'next'>>;
  readonly reached?: Reached;
  readonly changed: boolean;

  constructor(parts: FailureParts, options?: { cause?: unknown }) {
    super(`${parts.what}: ${parts.why}`, options);
    this.name = 'MacpilotError';
    this.what = parts.what;
    this.why = parts.why;
    this.next = parts.next;
    this.kind = parts.kind ?? 'failed';
    this.concerns = parts.concerns ?? [];
    this.refusal = parts.refusal ?? false;
    this.person = parts.person ?? {};
    if (parts.reached) this.reached = parts.reached;
    this.changed = parts.changed ?? false;
  }

  /** The three parts as the agent reads them. */
  render(): string {
    return `${sentence(this.what)}\nWhy: ${this.why}\nNext: ${this.next}`;
  }

  /**
   * The same failure about an element the call reached: the person's `<path>` placeholders filled in by its
   * path (shell-quoted), and what it reached kept for the audit log.
   */
  about(path: string, reached?: Reached): MacpilotError {
    const fill = (text: string | undefined) => text?.replaceAll('<path>', shellQuote(path));
    const { what, why, next } = this.person;
    const person = { what: fill(what), why: fill(why), next: fill(next) };
    return new MacpilotError({ ...this, person, reached: reached ?? this.reached }, { cause: this.cause });
  }

  /** The same failure, keeping what the call had reached (for the audit log), unless it names what it reached. */
  reaching(reached: Reached): MacpilotError {
    return this.reached ? this : new MacpilotError({ ...this, reached }, { cause: this.cause });
  }

  /** The same failure, about the call's arguments named (the audit log's error_arguments). */
  concerning(concerns: readonly string[]): MacpilotError {
    return new MacpilotError({ ...this, concerns }, { cause: this.cause });
  }

  /** The three parts in a person's words where the failure has them, else as the agent reads them. */
  forPerson(): Pick<FailureParts, 'what' | 'why' | 'next'> {
    const { what = this.what, why = this.why, next = this.next } = this.person;
    return { what, why, next };
  }

  /** The three parts as a person at a terminal reads them: each in their words where it has them. */
  renderForPerson(): string {
    const { what, why, next } = this.forPerson();
    return `${sentence(what)}\nWhy: ${why}\nNext: ${next}`;
  }
}

/** Whether a setting of the person's refused the call (it never ran, or stopped before acting). */
export const isRefusal = (error: unknown): boolean => error instanceof MacpilotError && error.refusal;

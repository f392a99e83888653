/**
 * A failure an agent can act on: what failed, why, and what to do next. Tools turn it into an isError result;
 * anything else thrown is a bug and is reported as such.
 */
export class MacpilotError extends Error {
  readonly what: string;
  readonly why: string;
  readonly next: string;

  constructor(parts: { what: string; why: string; next: string }, options?: { cause?: unknown }) {
    super(`${parts.what}: ${parts.why}`, options);
    this.name = 'MacpilotError';
    this.what = parts.what;
    this.why = parts.why;
    this.next = parts.next;
  }

  /** The three parts as the agent reads them. */
  render(): string {
    return `${this.what}.\nWhy: ${this.why}\nNext: ${this.next}`;
  }
}

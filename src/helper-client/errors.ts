/**
 * How a helper call fails, and how it is asked for: what the engine needs of the helper's errors without
 * depending on the client that spawns it.
 */
import type { HelperErrorCode, HelperErrorData } from './protocol.js';

/** Failures that happen on the server's side of the pipe. */
export const ClientErrorCode = {
  /** The helper process exited or could not be started. */
  HelperExited: -32030,
  /** The helper speaks another protocol version. */
  VersionMismatch: -32031,
  /** The MCP request was cancelled. */
  Cancelled: -32800,
  /** The helper answered with something that breaks the protocol. */
  BadResponse: -32032,
} as const;
export type ClientErrorCode = (typeof ClientErrorCode)[keyof typeof ClientErrorCode];

/** Every code a HelperError can carry: the helper's own and the client's. */
export type ErrorCode = HelperErrorCode | ClientErrorCode;

export class HelperError extends Error {
  constructor(
    readonly method: string,
    readonly code: number,
    message: string,
    readonly data: HelperErrorData = {},
  ) {
    super(message);
    this.name = 'HelperError';
  }
}

/** How many characters a cancelled or stopped typing had typed, as its helper said, through an error's causes. */
export function typedBefore(error: unknown): number | undefined {
  for (let at = error; at instanceof Error; at = at.cause) {
    if (at instanceof HelperError && at.data.typed !== undefined) return at.data.typed;
  }
  return undefined;
}

export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

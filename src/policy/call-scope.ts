/**
 * What the engine's checks learn of the tool call in progress (its access, who can be asked which app a name
 * means), kept in one AsyncLocalStorage for the whole process: each one adds work to every promise the process
 * makes, and a server makes many promises per call.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { InputMode } from '../config.js';
import type { Human } from './pipeline.js';

export type Access = 'read' | 'write';

/** The pids a session's human picked, by the name they were asked about (lower case). */
export type AppPicks = Map<string, number>;

export interface Asker {
  human: Human;
  picks: AppPicks;
  signal: AbortSignal;
}

interface CallScope {
  access?: Access;
  asker?: Asker;
  /** Why the call's input stays in the background (the call's argument, or the server's setting), if it does. */
  background?: string;
}

const scope = new AsyncLocalStorage<CallScope>();

/** Run `work` with these parts of the call's scope set, the others as they are. */
export function inCallScope<T>(part: CallScope, work: () => Promise<T>): Promise<T> {
  return scope.run({ ...scope.getStore(), ...part }, work);
}

export function callScope(): CallScope | undefined {
  return scope.getStore();
}

/**
 * The access of the tool call in progress. An app checked outside any call is a mistake in macpilot, not a call
 * to let through as a read or a write: it fails loudly.
 */
export function accessOfCall(): Access {
  const access = scope.getStore()?.access;
  if (access === undefined) {
    throw new Error('an app was checked outside any tool call, so its access (read or write) is unknown');
  }
  return access;
}

/** Why the call in progress must leave the pointer and the keyboard focus alone; undefined when it need not. */
export function backgroundOfCall(): string | undefined {
  return scope.getStore()?.background;
}

/**
 * Why a call keeps to the background: its own `background` argument, else the person's input setting (`setBy`
 * says where it was set); undefined when it need not.
 */
export function backgroundOf(
  args: Record<string, unknown>,
  input: InputMode | undefined,
  setBy: () => string,
): string | undefined {
  if (args.background === true) return 'the call asked for background: true';
  if (args.background === false || input !== 'background') return undefined;
  return `${setBy()} is "background"`;
}

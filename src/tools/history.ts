/**
 * The session's actions, newest last, for undo and a workflow's rollback: each write a tool call made, with
 * the call that puts back what it changed, read before it ran (a field's previous value, the previous
 * clipboard, a window's previous frame), or none when it cannot be undone (clicks, keys, launches).
 */
import type { Engine } from '../engine/index.js';

/** The tool call that undoes an action, and what it puts back, in words. */
export interface Inverse {
  tool: string;
  args: Record<string, unknown>;
  what: string;
  /**
   * Read just before undoing: why it must not run, when what the action left has changed since (a person copied
   * something else), so that undoing would destroy that; undefined when it may run.
   */
  changedSince?: (now: { engine: Engine; signal: AbortSignal }) => Promise<string | undefined>;
}

/** What an action that changed nothing (a window minimized already) leaves for undo: why there is nothing to undo. */
export interface NothingToUndo {
  nothing: string;
}

export interface Action {
  /** Counts every action of the session, from 1. */
  seq: number;
  tool: string;
  inverse?: Inverse;
  /** Why an action without an inverse needs none: it changed nothing. */
  unchanged?: string;
}

/** Actions kept for undo; older ones are forgotten. */
export const HISTORY_KEPT = 100;

export class ActionHistory {
  private readonly actions: Action[] = [];
  private done = 0;

  record(tool: string, inverse: Inverse | NothingToUndo | undefined): void {
    this.done++;
    const kept =
      inverse === undefined ? {} : 'nothing' in inverse ? { unchanged: inverse.nothing } : { inverse };
    this.actions.push({ seq: this.done, tool, ...kept });
    if (this.actions.length > HISTORY_KEPT) this.actions.shift();
  }

  /** Actions made so far in the session. */
  get count(): number {
    return this.done;
  }

  /** How many of the kept actions can be undone. */
  get undoable(): number {
    return this.actions.filter((a) => a.inverse).length;
  }

  /** Where the history stands now, to take back only what comes after (a workflow's rollback). */
  mark(): number {
    return this.done;
  }

  /** Takes out the newest `count` actions (or those after `mark`), newest first. */
  takeBack(count: number, mark = 0): Action[] {
    const taken: Action[] = [];
    while (taken.length < count && this.actions.length > 0 && (this.actions.at(-1) as Action).seq > mark) {
      taken.push(this.actions.pop() as Action);
    }
    return taken;
  }
}

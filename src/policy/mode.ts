/**
 * Modes (MACPILOT_MODE): read-only runs only tools annotated readOnlyHint; safe and read-only both leave out the
 * scripting toolset (a script can do anything the user can). tools/list shows only what the mode runs.
 */
import type { Mode } from '../config.js';
import { MacpilotError } from '../errors.js';
import type { ToolDefinition } from '../tools/types.js';
import type { Guard, ToolCall } from './pipeline.js';

export const isListed = (tool: ToolDefinition, mode: Mode): boolean => {
  if (tool.toolset === 'scripting') return mode === 'full';
  return mode !== 'read-only' || tool.annotations.readOnlyHint;
};

const WHY: Record<Mode, string> = {
  full: '',
  safe: 'macpilot runs with MACPILOT_MODE=safe, which leaves out scripts: a script can do anything the user can',
  'read-only': 'macpilot runs with MACPILOT_MODE=read-only, where only tools that change nothing run',
};

export class ModeGuard implements Guard {
  constructor(private readonly mode: Mode) {}

  admit(call: ToolCall): Promise<undefined> {
    if (isListed(call.tool, this.mode)) return Promise.resolve(undefined);
    const allowing = call.tool.toolset === 'scripting' ? 'full' : 'safe or full';
    return Promise.reject(
      new MacpilotError({
        what: `${call.tool.name} is not available in ${this.mode} mode`,
        why: WHY[this.mode],
        next: `only a human can allow it: set MACPILOT_MODE=${allowing} (or "mode" in the config file) and restart macpilot`,
      }),
    );
  }
}

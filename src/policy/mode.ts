/**
 * Modes (MACPILOT_MODE): read-only runs only tools annotated readOnlyHint; a toolset runs only in the modes from
 * its lowest mode up (scripting: full only, since a script can do anything the user can). tools/list shows
 * only what the mode runs.
 */
import { MacpilotError } from '../errors.js';
import { type Mode, modeAllows } from '../modes.js';
import { type ToolMeta, toolsetOf, writingArgs } from '../toolsets.js';
import type { Guard, ToolCall } from './pipeline.js';

export const isListed = (tool: Pick<ToolMeta, 'toolset' | 'annotations'>, mode: Mode): boolean =>
  modeAllows(mode, toolsetOf(tool.toolset).lowestMode) &&
  (mode !== 'read-only' || tool.annotations.readOnlyHint);

const WHY: Record<Mode, string> = {
  full: '',
  safe: 'macpilot runs with MACPILOT_MODE=safe, which leaves out scripts: a script can do anything the user can',
  'read-only': 'macpilot runs with MACPILOT_MODE=read-only, where only tools that change nothing run',
};

export class ModeGuard implements Guard {
  constructor(private readonly mode: Mode) {}

  admit(call: ToolCall): Promise<undefined> {
    if (isListed(call.tool, this.mode)) return this.admitArguments(call);
    const allowing = toolsetOf(call.tool.toolset).lowestMode === 'full' ? 'full' : 'safe or full';
    return Promise.reject(
      new MacpilotError({
        what: `${call.tool.name} is not available in ${this.mode} mode`,
        why: WHY[this.mode],
        next: `only a human can allow it: set MACPILOT_MODE=${allowing} (or "mode" in the config file) and restart macpilot`,
      }),
    );
  }

  /** A read-only tool listed in read-only mode still may not write (take_screenshot's file_path). */
  private admitArguments(call: ToolCall): Promise<undefined> {
    const writing = this.mode === 'read-only' ? writingArgs(call.tool, call.args) : [];
    if (writing.length === 0) return Promise.resolve(undefined);
    const named = writing.map(([name]) => name).join(' and ');
    const changes = writing.map(([name, what]) => `${name} ${what}`).join(', ');
    return Promise.reject(
      new MacpilotError({
        what: `${call.tool.name} with ${named} is not available in read-only mode`,
        why: `${changes}, and ${WHY['read-only']}`,
        next: `call it without ${named}; only a human can allow writing: set MACPILOT_MODE=safe or full and restart macpilot`,
      }),
    );
  }
}

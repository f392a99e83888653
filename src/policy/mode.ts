/**
 * Modes (MACPILOT_MODE): read-only runs only tools annotated readOnlyHint; a toolset runs only in the modes from
 * its lowest mode up (scripting: full only, since a script can do anything the user can). tools/list shows
 * only what the mode runs.
 */
import { environmentOrigin, type SettingOrigin } from '../config.js';
import { MacpilotError } from '../errors.js';
import { type Mode, modeAllows } from '../modes.js';
import { type ToolMeta, toolsetOf, writingArgs } from '../toolsets.js';
import type { Guard, ToolCall } from './pipeline.js';

export const isListed = (tool: Pick<ToolMeta, 'toolset' | 'annotations'>, mode: Mode): boolean =>
  modeAllows(mode, toolsetOf(tool.toolset).lowestMode) &&
  (mode !== 'read-only' || tool.annotations.readOnlyHint);

const WHY: Record<Mode, string> = {
  full: '',
  safe: 'which leaves out scripts: a script can do anything the user can',
  'read-only': 'where only tools that change nothing run',
};

export class ModeGuard implements Guard {
  constructor(
    private readonly mode: Mode,
    private readonly origin: SettingOrigin = environmentOrigin('mode'),
  ) {}

  /** "macpilot runs in read-only mode (set by ...), where ..." */
  private why(): string {
    return `macpilot runs in ${this.mode} mode (set by ${this.origin.where}), ${WHY[this.mode]}`;
  }

  admit(call: ToolCall): Promise<undefined> {
    if (isListed(call.tool, this.mode)) return this.admitArguments(call);
    const lowest = toolsetOf(call.tool.toolset).lowestMode === 'full' ? 'full' : 'safe';
    return Promise.reject(
      new MacpilotError({
        what: `${call.tool.name} is not available in ${this.mode} mode`,
        why: this.why(),
        next: `only a human can allow it: ${this.origin.changeAndRestart(lowest)}${lowest === 'safe' ? ' (full allows it too)' : ''}`,
        kind: 'not_in_mode',
        refusal: true,
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
        why: `${changes}, and ${this.why()}`,
        next: `call it without ${named}; only a human can allow writing: ${this.origin.changeAndRestart('safe')} (full allows it too)`,
        kind: 'writes_in_read_only_mode',
        concerns: writing.map(([name]) => name),
        refusal: true,
      }),
    );
  }
}

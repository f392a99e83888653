/** Modes (MACPILOT_MODE): in read-only mode only tools annotated readOnlyHint run; tools/list shows only those. */
import type { Mode } from '../config.js';
import { MacpilotError } from '../errors.js';
import type { ToolDefinition } from '../tools/types.js';
import type { Guard, ToolCall } from './pipeline.js';

export const isListed = (tool: ToolDefinition, mode: Mode): boolean =>
  mode !== 'read-only' || tool.annotations.readOnlyHint;

export class ModeGuard implements Guard {
  constructor(private readonly mode: Mode) {}

  admit(call: ToolCall): Promise<undefined> {
    if (isListed(call.tool, this.mode)) return Promise.resolve(undefined);
    return Promise.reject(
      new MacpilotError({
        what: `${call.tool.name} is not available in read-only mode`,
        why: 'macpilot runs with MACPILOT_MODE=read-only, where only tools that change nothing run',
        next: 'only a human can allow it: set MACPILOT_MODE=safe or full (or "mode" in the config file) and restart macpilot',
      }),
    );
  }
}

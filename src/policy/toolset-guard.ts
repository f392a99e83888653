/**
 * Toolsets (MACPILOT_TOOLSETS, --toolsets): a tool of a toolset the server leaves out is not listed; a call of it
 * by name is refused, naming the toolset and the setting that adds it (and the audit log records the refusal).
 */
import type { SettingOrigin } from '../config.js';
import { MacpilotError } from '../errors.js';
import { ALWAYS_ON, type Toolset } from '../toolsets.js';
import type { Guard, ToolCall } from './pipeline.js';

export class ToolsetGuard implements Guard {
  constructor(
    private readonly toolsets: readonly Toolset[],
    private readonly origin: SettingOrigin,
  ) {}

  admit(call: ToolCall): Promise<undefined> {
    const { tool } = call;
    if (this.toolsets.includes(tool.toolset)) return Promise.resolve(undefined);
    return Promise.reject(toolsetLeftOut(tool.name, tool.toolset, this.toolsets, this.origin));
  }
}

/**
 * The refusal of what a toolset left out gives (`what`: a tool's name, a resource's URI): the toolsets as the
 * setting gave them, the always-on ones said apart, and how to add it where it was set.
 */
export function toolsetLeftOut(
  what: string,
  toolset: Toolset,
  toolsets: readonly Toolset[],
  origin: SettingOrigin,
): MacpilotError {
  const given = toolsets.filter((offered) => !ALWAYS_ON.includes(offered));
  const always = ALWAYS_ON.length > 0 ? ` (and ${ALWAYS_ON.join(', ')}, always offered)` : '';
  return new MacpilotError({
    what: `${what} is not offered: it is in the toolset "${toolset}", which this server leaves out`,
    why: `${origin.where} gives the toolsets ${given.join(',')}${always}`,
    next: `only a human can add it: ${origin.changeAndRestart([...given, toolset].join(','))}`,
    kind: 'toolset_left_out',
    refusal: true,
  });
}

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
    // The always-on toolsets are offered whatever the setting says: it is told as given.
    const given = this.toolsets.filter((toolset) => !ALWAYS_ON.includes(toolset));
    const always = ALWAYS_ON.length > 0 ? ` (and ${ALWAYS_ON.join(', ')}, always offered)` : '';
    return Promise.reject(
      new MacpilotError({
        what: `${tool.name} is not offered: it is in the toolset "${tool.toolset}", which this server leaves out`,
        why: `${this.origin.where} gives the toolsets ${given.join(',')}${always}`,
        next: `only a human can add it: ${this.origin.changeAndRestart([...given, tool.toolset].join(','))}`,
        kind: 'toolset_left_out',
        refusal: true,
      }),
    );
  }
}

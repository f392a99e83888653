/**
 * Toolsets (MACPILOT_TOOLSETS, --toolsets): a tool of a toolset the server leaves out is not listed; a call of it
 * by name is refused, naming the toolset and the setting that adds it (and the audit log records the refusal).
 */
import type { SettingOrigin } from '../config.js';
import { MacpilotError } from '../errors.js';
import type { Toolset } from '../toolsets.js';
import type { Guard, ToolCall } from './pipeline.js';

export class ToolsetGuard implements Guard {
  constructor(
    private readonly toolsets: readonly Toolset[],
    private readonly origin: SettingOrigin,
  ) {}

  admit(call: ToolCall): Promise<undefined> {
    const { tool } = call;
    if (this.toolsets.includes(tool.toolset)) return Promise.resolve(undefined);
    return Promise.reject(
      new MacpilotError({
        what: `${tool.name} is not offered: it is in the toolset "${tool.toolset}", which this server leaves out`,
        why: `${this.origin.where} gives the toolsets ${this.toolsets.join(',')}`,
        next: `only a human can add it: ${this.origin.change([...this.toolsets, tool.toolset].join(','))}, then restart macpilot`,
        kind: 'toolset_left_out',
        refusal: true,
      }),
    );
  }
}

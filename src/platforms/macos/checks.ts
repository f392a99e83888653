/**
 * `macpilot doctor`'s look at the macOS services. Their permissions (Automation, Accessibility for System Events)
 * belong to the MCP client and cannot be read without prompting, so only the commands are checked.
 */
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import type { ServiceCheck } from '../../services/types.js';
import { MAC_COMMANDS, SHIPS_WITH_MACOS } from './commands.js';

export function macosServiceChecks(): ServiceCheck[] {
  return [
    {
      label: 'osascript',
      toolsets: ['system', 'finder', 'menus', 'scripting'],
      check: async () => {
        try {
          await access(MAC_COMMANDS.osascript, constants.X_OK);
          return {
            available: true,
            detail:
              'the system, finder, status bar and scripting tools run it; macOS asks your MCP client for Automation on first use (docs/macos.md)',
          };
        } catch {
          return { available: false, detail: `${MAC_COMMANDS.osascript} is missing`, how: SHIPS_WITH_MACOS };
        }
      },
    },
  ];
}

/**
 * The MCP clients `macpilot setup` configures: where each keeps its servers and in what shape
 * (docs/clients.md says where these facts come from).
 */
import { join } from 'node:path';
import type { ServerEntry } from './launch.js';

export const CLIENTS = ['claude-code', 'claude-desktop', 'cursor', 'vscode'] as const;
export type ClientId = (typeof CLIENTS)[number];

export const isClient = (value: string): value is ClientId => (CLIENTS as readonly string[]).includes(value);

export interface Machine {
  home: string;
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
}

/** A client configured by editing one JSON file: the servers live in an object under `key`. */
export interface FileClient {
  name: string;
  file: string;
  key: 'mcpServers' | 'servers';
  entry: (server: ServerEntry) => Record<string, unknown>;
  /** What the user does for the client to pick the change up. */
  then: string;
}

/** Where Electron apps keep their settings: ~/Library/Application Support on macOS, XDG's config home on Linux. */
function appData(machine: Machine): string {
  if (machine.platform === 'darwin') return join(machine.home, 'Library', 'Application Support');
  return machine.env.XDG_CONFIG_HOME || join(machine.home, '.config');
}

const plain = ({ command, args, env }: ServerEntry) => ({
  command,
  args,
  ...(Object.keys(env).length > 0 ? { env } : {}),
});
const stdio = (server: ServerEntry) => ({ type: 'stdio', ...plain(server) });

/** The clients with a configuration file of one project, beside the user's own. */
export const PROJECT_FILES: Partial<
  Record<ClientId, { path: string[]; key: FileClient['key']; then?: string }>
> = {
  'claude-code': {
    path: ['.mcp.json'],
    key: 'mcpServers',
    then: "start `claude` in that folder and approve the project's macpilot server",
  },
  cursor: { path: ['.cursor', 'mcp.json'], key: 'mcpServers' },
  vscode: { path: ['.vscode', 'mcp.json'], key: 'servers' },
};

/** The client's user configuration, or with `project` (a folder) that project's. */
export function fileClient(id: ClientId, machine: Machine, project?: string): FileClient {
  const user = userFileClient(id, machine);
  const inProject = PROJECT_FILES[id];
  if (project === undefined || inProject === undefined) return user;
  return {
    ...user,
    file: join(project, ...inProject.path),
    key: inProject.key,
    then: inProject.then ?? user.then,
  };
}

function userFileClient(id: ClientId, machine: Machine): FileClient {
  switch (id) {
    case 'claude-desktop':
      return {
        name: 'Claude Desktop',
        file: join(appData(machine), 'Claude', 'claude_desktop_config.json'),
        key: 'mcpServers',
        entry: plain,
        then: 'quit Claude Desktop completely and start it again',
      };
    case 'cursor':
      return {
        name: 'Cursor',
        file: join(machine.home, '.cursor', 'mcp.json'),
        key: 'mcpServers',
        entry: plain,
        then: 'restart Cursor, then check that macpilot is on in its MCP settings',
      };
    case 'vscode':
      return {
        name: 'VS Code',
        file: join(appData(machine), 'Code', 'User', 'mcp.json'),
        key: 'servers',
        entry: stdio,
        then: 'in VS Code, run "MCP: List Servers" and start macpilot',
      };
    case 'claude-code':
      // Without the `claude` command: its user scope, the top-level servers of ~/.claude.json.
      return {
        name: 'Claude Code',
        file: join(machine.home, '.claude.json'),
        key: 'mcpServers',
        entry: stdio,
        // The `claude` command is not on PATH here: what checks the entry is Claude Code once it runs.
        then: 'once Claude Code is installed, `claude mcp list` checks that it connects',
      };
  }
}

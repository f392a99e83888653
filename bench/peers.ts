/**
 * The MCP servers the bench runs beside macpilot, installed on first use into a cache folder outside the project
 * (users never install them): computer-use-mcp (nut.js, one `computer` tool) and agent-device (AT-SPI through a
 * Python script, input through xdotool), and Anthropic's published tokenizer for the snapshot's token counts.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { stopGroup } from '../scripts/process-group.js';

export type Env = Record<string, string>;

const FOLDER = join(homedir(), '.cache', 'macpilot', 'bench-peers');
const MODULES = join(FOLDER, 'node_modules');
/** Pinned, so that a run compares against the versions docs/performance.md names. */
const PACKAGES = {
  'computer-use-mcp': '1.8.0',
  'agent-device': '0.21.5',
  '@anthropic-ai/tokenizer': '0.0.4',
} as const;

const installedVersion = (name: string): string | undefined => {
  const manifest = join(MODULES, name, 'package.json');
  return existsSync(manifest)
    ? (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version
    : undefined;
};

/** Installs the pinned peers into the cache folder unless they are there already; returns its node_modules. */
export function installPeers(): string {
  const wanted = Object.entries(PACKAGES).filter(([name, version]) => installedVersion(name) !== version);
  if (wanted.length > 0) {
    process.stderr.write(
      `bench: installing ${wanted.map(([n, v]) => `${n}@${v}`).join(', ')} into ${FOLDER}\n`,
    );
    mkdirSync(FOLDER, { recursive: true });
    execFileSync(
      'npm',
      [
        'install',
        '--prefix',
        FOLDER,
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        ...wanted.map(([n, v]) => `${n}@${v}`),
      ],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
  }
  return MODULES;
}

const peerPath = (...parts: string[]): string => join(MODULES, ...parts);

/** Tokens of a text by Anthropic's published tokenizer (made for earlier Claude models: an estimate today). */
export function tokenCounter(): (text: string) => number {
  const { countTokens } = createRequire(import.meta.url)(peerPath('@anthropic-ai', 'tokenizer')) as {
    countTokens: (text: string) => number;
  };
  return countTokens;
}

/** A client connected over stdio to `node args...`; the clock of a caller starts before this. */
export async function connect(args: string[], env: Env): Promise<Client> {
  const client = new Client({ name: 'macpilot-bench', version: '0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args, env, stderr: 'ignore' }));
  return client;
}

/** A tool call's text; a failed call throws with it. */
export async function callText(client: Client, name: string, args: Record<string, unknown>): Promise<string> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('\n');
  if (result.isError) throw new Error(`${name} failed: ${text.split('\n')[0]}`);
  return text;
}

export const computerUseMcp = (env: Env): Promise<Client> =>
  connect([peerPath('computer-use-mcp', 'dist', 'main.js')], env);

/**
 * agent-device's MCP server with a HOME of its own (it keeps a daemon and its state in ~/.agent-device), in which
 * `python3` is /usr/bin/python3: its AT-SPI script needs Debian's python3-gi, which another python3 on PATH
 * (pyenv, say) lacks.
 */
export class AgentDevice {
  private constructor(
    readonly client: Client,
    private readonly home: string,
  ) {}

  static async start(env: Env): Promise<AgentDevice> {
    try {
      execFileSync('/usr/bin/python3', ['-c', "import gi; gi.require_version('Atspi', '2.0')"], {
        stdio: 'ignore',
      });
    } catch {
      throw new Error(
        "agent-device's AT-SPI script needs python3-gi and gir1.2-atspi-2.0: " +
          'sudo apt-get install -y --no-install-recommends python3-gi gir1.2-atspi-2.0',
      );
    }
    const home = mkdtempSync(join(tmpdir(), 'macpilot-bench-agent-device-'));
    mkdirSync(join(home, 'bin'));
    symlinkSync('/usr/bin/python3', join(home, 'bin', 'python3'));
    const client = await connect([peerPath('agent-device', 'bin', 'agent-device.mjs'), 'mcp'], {
      ...env,
      HOME: home,
      PATH: `${join(home, 'bin')}:${env.PATH ?? process.env.PATH ?? ''}`,
    }).catch((error: unknown) => {
      rmSync(home, { recursive: true, force: true });
      throw error;
    });
    return new AgentDevice(client, home);
  }

  call(name: string, args: Record<string, unknown>): Promise<string> {
    return callText(this.client, name, args);
  }

  /** Its snapshot of the interactive elements (`snapshot -i`), the one its guide tells agents to take. */
  snapshot(): Promise<string> {
    return this.call('snapshot', { interactiveOnly: true });
  }

  /** The ref of the button whose snapshot line is `[button] "<label>"`, e.g. gnome-calculator's `"1 1"`. */
  static refOf(snapshot: string, label: string): string {
    const line = snapshot.split('\n').find((l) => l.includes(`[button] ${JSON.stringify(label)}`));
    const ref = line && /@e\d+/.exec(line)?.[0];
    if (!ref) throw new Error(`agent-device's snapshot has no button ${JSON.stringify(label)}`);
    return ref;
  }

  clickRef(ref: string): Promise<string> {
    return this.call('click', { target: { kind: 'ref', ref } });
  }

  /** Closes the client, stops its daemon by the PID the daemon recorded, and removes its HOME. */
  async close(): Promise<void> {
    await this.client.close().catch(() => undefined);
    const state = join(this.home, '.agent-device', 'daemon.json');
    if (existsSync(state)) {
      const { pid } = JSON.parse(readFileSync(state, 'utf8')) as { pid?: number };
      if (typeof pid === 'number' && pid > 0) await stopGroup(pid);
    }
    rmSync(this.home, { recursive: true, force: true });
  }
}

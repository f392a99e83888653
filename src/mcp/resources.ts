/**
 * The desktop as MCP resources (`macpilot://`): the server's status, the running apps, the clipboard, and per app
 * its tree, a window's tree, its state and a screenshot. Every read runs as a read under the app policy: an app
 * the policy refuses is neither listed nor readable. The text and JSON come from the same engine results and
 * renderers as the tools'.
 */
import { type McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, type ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import type { Config } from '../config.js';
import type { Engine } from '../engine/index.js';
import { clipboardJson } from '../engine/render-json.js';
import { appStateJson, desktopJson } from '../engine/render-state.js';
import { renderText } from '../engine/render-text.js';
import { MacpilotError } from '../errors.js';
import type { HelperClient } from '../helper/client.js';
import { HelperError } from '../helper/errors.js';
import { withAccess } from '../policy/apps.js';
import { explain } from '../engine/failures.js';
import { VERSION } from '../version.js';
import type { Completer, Completers } from './completions.js';

export interface ResourceDependencies {
  config: Config;
  helper: HelperClient;
  engine: Engine;
}

const JSON_TYPE = 'application/json';
const TEXT_TYPE = 'text/plain';
const startedAt = Date.now();

const json = (uri: URL, value: unknown): ReadResourceResult => ({
  contents: [{ uri: uri.href, mimeType: JSON_TYPE, text: JSON.stringify(value, null, 2) }],
});
const text = (uri: URL, value: string): ReadResourceResult => ({
  contents: [{ uri: uri.href, mimeType: TEXT_TYPE, text: value }],
});

/**
 * A read that failed foreseeably, answered as a JSON-RPC error with this code and message (McpError would put
 * "MCP error -32602:" in front of the message, which the client then adds again).
 */
const failure = (message: string, code: number = ErrorCode.InvalidParams) =>
  Object.assign(new Error(message), { code });

/** One template variable, percent-decoded (the SDK hands them over as they stand in the URI). */
function variable(variables: Record<string, string | string[]>, name: string): string {
  const raw = variables[name];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (!value) throw failure(`the resource URI names no ${name}`);
  try {
    return decodeURIComponent(value);
  } catch {
    throw failure(`the ${name} in the resource URI is not percent-encoded text`);
  }
}

/** Runs a read as a read-only call; a foreseeable failure becomes an error whose message has all three parts. */
async function read(work: () => Promise<ReadResourceResult>): Promise<ReadResourceResult> {
  try {
    return await withAccess('read', work);
  } catch (error) {
    const explained = error instanceof HelperError ? explain(error) : error;
    if (explained instanceof MacpilotError) throw failure(explained.render());
    throw error;
  }
}

export const appUri = (name: string, rest: string) => `macpilot://app/${encodeURIComponent(name)}/${rest}`;

/** Completes app names: the readable running apps whose name starts with the prefix, each once. */
export function appNameCompleter(engine: Engine): Completer {
  return async (prefix) => {
    const { apps } = await withAccess('read', () => engine.states.desktop()).catch(() => ({ apps: [] }));
    const names = apps
      .map((o) => o.app.name)
      .filter((name) => name.toLowerCase().startsWith(prefix.toLowerCase()));
    return [...new Set(names)];
  };
}

/** Registers the resources; answers what completes their templates' variables. */
export function registerResources(server: McpServer, deps: ResourceDependencies): Completers {
  const { engine, config, helper } = deps;
  const readableApps = async () => (await withAccess('read', () => engine.states.desktop())).apps;
  const appNames = appNameCompleter(engine);
  const windowIndices: Completer = async (_value, context) => {
    const name = context.name;
    if (!name) return [];
    const state = await withAccess('read', () => engine.states.of(name)).catch(() => undefined);
    return state ? state.windows.map((_, i) => String(i)) : [];
  };
  const appTemplate = (rest: string, what: string, mimeType: string) =>
    new ResourceTemplate(`macpilot://app/{name}/${rest}`, {
      list: async () => ({
        resources: (await readableApps().catch(() => [])).map((o) => ({
          uri: appUri(o.app.name, rest),
          name: `${o.app.name} ${what}`,
          mimeType,
        })),
      }),
    });

  server.registerResource(
    'status',
    'macpilot://system/status',
    {
      title: 'macpilot status',
      description: 'Platform, versions, permissions, mode, toolsets, helper state and uptime.',
      mimeType: JSON_TYPE,
    },
    async (uri) => {
      const hello = await helper.hello().catch((error: unknown) => error as Error);
      return json(uri, {
        platform: process.platform,
        versions: { macpilot: VERSION, node: process.version },
        mode: config.mode,
        toolsets: config.toolsets,
        helper:
          hello instanceof Error
            ? { state: 'unavailable', error: hello.message }
            : {
                state: 'running',
                pid: await helper.pid(),
                version: hello.helperVersion,
                protocol: hello.protocolVersion,
              },
        permissions: hello instanceof Error ? undefined : hello.capabilities,
        uptime_s: Math.round((Date.now() - startedAt) / 1000),
      });
    },
  );

  server.registerResource(
    'apps',
    'macpilot://apps',
    {
      title: 'Running apps',
      description:
        'The running apps with pid, windows and a one-word state (active, background, minimized, windowless).',
      mimeType: JSON_TYPE,
    },
    (uri) => read(async () => json(uri, desktopJson(await engine.states.desktop()))),
  );

  server.registerResource(
    'clipboard',
    'macpilot://clipboard',
    { title: 'Clipboard', description: "The clipboard's text and types.", mimeType: JSON_TYPE },
    (uri) => read(async () => json(uri, clipboardJson(await engine.clipboard.get()))),
  );

  server.registerResource(
    'app-tree',
    appTemplate('tree', 'tree', TEXT_TYPE),
    {
      title: "An app's UI tree",
      description: 'The snapshot_ui text of an app: its windows, one element a line with refs.',
      mimeType: TEXT_TYPE,
    },
    (uri, variables) =>
      read(async () =>
        text(uri, renderText(await engine.elements.snapshot({ app: variable(variables, 'name') }))),
      ),
  );

  server.registerResource(
    'app-window-tree',
    new ResourceTemplate('macpilot://app/{name}/window/{index}/tree', { list: undefined }),
    {
      title: "One window's UI tree",
      description: 'The snapshot_ui text of one window of an app, by its index among the app windows.',
      mimeType: TEXT_TYPE,
    },
    (uri, variables) =>
      read(async () => {
        const index = Number(variable(variables, 'index'));
        if (!Number.isInteger(index) || index < 0) {
          throw failure('the window index must be a whole number from 0');
        }
        const snapshot = await engine.elements.snapshot({ app: variable(variables, 'name'), window: index });
        return text(uri, renderText(snapshot));
      }),
  );

  server.registerResource(
    'app-state',
    appTemplate('state', 'state', JSON_TYPE),
    {
      title: "An app's state",
      description: 'Its windows, the dialog it shows, the focused element and its menu bar, as JSON.',
      mimeType: JSON_TYPE,
    },
    (uri, variables) =>
      read(async () => json(uri, appStateJson(await engine.states.of(variable(variables, 'name'))))),
  );

  server.registerResource(
    'app-screenshot',
    appTemplate('screenshot', 'screenshot', 'image/png'),
    {
      title: "An app's window, as an image",
      description: "A PNG of the app's front-most window, scaled as take_screenshot scales it.",
      mimeType: 'image/png',
    },
    (uri, variables) =>
      read(async () => {
        const shot = await engine.screen.take({ app: variable(variables, 'name'), format: 'png' });
        if (!shot.image) throw failure('the capture produced no image', ErrorCode.InternalError);
        return { contents: [{ uri: uri.href, mimeType: shot.image.mimeType, blob: shot.image.data }] };
      }),
  );

  const byName = { name: appNames };
  return {
    'macpilot://app/{name}/tree': byName,
    'macpilot://app/{name}/window/{index}/tree': { ...byName, index: windowIndices },
    'macpilot://app/{name}/state': byName,
    'macpilot://app/{name}/screenshot': byName,
  };
}

/**
 * The desktop as MCP resources (`macpilot://`): the server's status, the running apps, the clipboard, and per app
 * its tree, a window's tree, its state, its recent change events and a screenshot. Every read runs as a read
 * under the app policy: an app the policy refuses is neither listed nor readable. The text and JSON come from
 * the same engine results and renderers as the tools'. One table of resources serves resources/read and the
 * subscriptions (subscriptions.ts), which say what each one is watched by.
 */
import { type McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { UriTemplate, type Variables } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import {
  ErrorCode,
  ListResourceTemplatesRequestSchema,
  type ReadResourceResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { Config } from '../config.js';
import { explain } from '../engine/kernel/failures.js';
import type { Engine } from '../engine/index.js';
import { clipboardJson } from '../engine/render/json.js';
import { appStateJson, desktopJson } from '../engine/render/state.js';
import { renderText } from '../engine/render/text.js';
import { isRefusal, MacpilotError } from '../errors.js';
import type { HelperStatus } from '../engine/kernel/port.js';
import type { AppOverview } from '../engine/kernel/results.js';
import { HelperError } from '../helper-client/errors.js';
import { withAccess } from '../policy/apps.js';
import { toolsetLeftOut } from '../policy/toolset-guard.js';
import type { Toolset } from '../toolsets.js';
import type { AuditLog } from '../policy/audit-log.js';
import { DATA_FENCE } from '../untrusted.js';
import { VERSION } from '../version.js';
import type { Completer, Completers } from './completions.js';

export interface ResourceDependencies {
  config: Config;
  /** Where a read a setting refused is logged. */
  audit: AuditLog;
  /** The helper's handshake and process, for reports; calls go through the engine. */
  helper: HelperStatus;
  engine: Engine;
}

/** What a resource's content changes with: the app list, the clipboard, one app's UI; absent: nothing watched. */
export type Watched =
  { kind: 'apps' } | { kind: 'clipboard' } | { kind: 'app'; app: string; debounceMs: number };

export interface ResourceReader {
  /** The resource's content now. */
  read(uri: string): Promise<ReadResourceResult>;
  /** What its content changes with, or undefined when it cannot be subscribed to; a setting may refuse it. */
  watched(uri: string): Watched | undefined;
  /** A subscription to it that a setting refused, for the audit log. */
  refused(uri: string, error: MacpilotError): void;
}

interface Definition {
  name: string;
  /** A fixed URI, or a template with {name} (and {index}). */
  uri: string;
  title: string;
  description: string;
  mimeType: string;
  read(uri: URL, variables: Variables): Promise<ReadResourceResult>;
  watched?: (variables: Variables) => Watched;
  /** A template listed once per readable app: its URI with the app's name, e.g. "tree". */
  perApp?: string;
  /** The toolset whose tools give the same: left out (MACPILOT_TOOLSETS), the resource is not served either. */
  toolset?: Toolset;
  complete?: Record<string, Completer>;
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
function variable(variables: Variables, name: string): string {
  const raw = variables[name];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (!value) throw failure(`the resource URI names no ${name}`);
  try {
    return decodeURIComponent(value);
  } catch {
    throw failure(`the ${name} in the resource URI is not percent-encoded text`);
  }
}

/**
 * Runs a read as a read-only call; a foreseeable failure becomes an error whose message has all three parts, and
 * one a setting refused is told to `refused` (the audit log) first.
 */
async function asRead(
  work: () => Promise<ReadResourceResult>,
  refused: (error: MacpilotError) => void = () => {},
): Promise<ReadResourceResult> {
  try {
    return await withAccess('read', work);
  } catch (error) {
    const explained = error instanceof HelperError ? explain(error) : error;
    if (explained instanceof MacpilotError) {
      if (isRefusal(explained)) refused(explained);
      throw failure(explained.render());
    }
    throw error;
  }
}

export const appUri = (name: string, rest: string) => `macpilot://app/${encodeURIComponent(name)}/${rest}`;

/** The running apps whose resources may be read: one listed but off limits (MACPILOT_LIST_DENIED_APPS) has none. */
async function readableApps(engine: Engine): Promise<AppOverview[]> {
  const { apps, offLimits } = await withAccess('read', () => engine.states.desktop());
  return apps.filter((o) => !offLimits.includes(o.app.pid));
}

/** Completes app names: the readable running apps whose name starts with the prefix, each once. */
export function appNameCompleter(engine: Engine): Completer {
  return async (prefix) => {
    const names = (await readableApps(engine).catch(() => []))
      .map((o) => o.app.name)
      .filter((name) => name.toLowerCase().startsWith(prefix.toLowerCase()));
    return [...new Set(names)];
  };
}

function definitions({ engine, config, helper }: ResourceDependencies): Definition[] {
  const names = { name: appNameCompleter(engine) };
  const windowIndices: Completer = async (_value, context) => {
    const name = context.name;
    if (!name) return [];
    const state = await withAccess('read', () => engine.states.of(name)).catch(() => undefined);
    return state ? state.windows.map((_, i) => String(i)) : [];
  };
  const app = (debounceMs: number) => (variables: Variables) =>
    ({ kind: 'app', app: variable(variables, 'name'), debounceMs }) as const;
  return [
    {
      name: 'status',
      uri: 'macpilot://system/status',
      title: 'macpilot status',
      description: 'Platform, versions, permissions, mode, toolsets, helper state and uptime.',
      mimeType: JSON_TYPE,
      read: async (uri) => {
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
    },
    {
      name: 'apps',
      uri: 'macpilot://apps',
      title: 'Running apps',
      description:
        'The running apps with pid, windows and a one-word state (active, background, minimized, windowless); ' +
        'subscribe to hear when apps start and quit.',
      mimeType: JSON_TYPE,
      read: async (uri) => json(uri, desktopJson(await engine.states.desktop())),
      watched: () => ({ kind: 'apps' }),
      toolset: 'apps',
    },
    {
      name: 'clipboard',
      uri: 'macpilot://clipboard',
      title: 'Clipboard',
      description: "The clipboard's text and types; subscribe to hear when it changes.",
      mimeType: JSON_TYPE,
      read: async (uri) => json(uri, clipboardJson(await engine.clipboard.get())),
      watched: () => ({ kind: 'clipboard' }),
      toolset: 'clipboard',
    },
    {
      name: 'app-tree',
      toolset: 'ui',
      uri: 'macpilot://app/{name}/tree',
      title: "An app's UI tree",
      description: 'The snapshot_ui text of an app: its windows, one element a line with refs.',
      mimeType: TEXT_TYPE,
      read: async (uri, variables) =>
        text(uri, renderText(await engine.elements.snapshot({ app: variable(variables, 'name') }))),
      watched: app(500),
      perApp: 'tree',
      complete: names,
    },
    {
      name: 'app-window-tree',
      toolset: 'ui',
      uri: 'macpilot://app/{name}/window/{index}/tree',
      title: "One window's UI tree",
      description: 'The snapshot_ui text of one window of an app, by its index among the app windows.',
      mimeType: TEXT_TYPE,
      read: async (uri, variables) => {
        const index = Number(variable(variables, 'index'));
        if (!Number.isInteger(index) || index < 0)
          throw failure('the window index must be a whole number from 0');
        const snapshot = await engine.elements.snapshot({ app: variable(variables, 'name'), window: index });
        return text(uri, renderText(snapshot));
      },
      watched: app(500),
      complete: { ...names, index: windowIndices },
    },
    {
      name: 'app-state',
      toolset: 'ui',
      uri: 'macpilot://app/{name}/state',
      title: "An app's state",
      description:
        'Its windows, the dialog it shows, the focused element, its menu bar, the UI patterns it shows (login ' +
        'form, save dialog, editor...) with suggested next steps by ref, and its state (idle, loading, error, ' +
        'auth_required, busy, modal_dialog), as JSON.',
      mimeType: JSON_TYPE,
      read: async (uri, variables) =>
        json(uri, appStateJson(await engine.states.of(variable(variables, 'name')))),
      watched: app(100),
      perApp: 'state',
      complete: names,
    },
    {
      name: 'app-events',
      toolset: 'ui',
      uri: 'macpilot://app/{name}/events',
      title: "An app's recent change events",
      description:
        'The kinds of UI change events the app reported most recently (since macpilot started watching), as JSON.',
      mimeType: JSON_TYPE,
      read: async (uri, variables) => {
        const found = await engine.apps.resolve(variable(variables, 'name'));
        await engine.feed.start();
        const events = engine.feed.recent(found.pid).map((e) => ({
          at: new Date(e.at).toISOString(),
          kinds: e.kinds,
          count: e.count,
        }));
        return json(uri, { note: DATA_FENCE, app: found.name, pid: found.pid, events });
      },
      watched: app(0),
      perApp: 'events',
      complete: names,
    },
    {
      name: 'app-screenshot',
      toolset: 'screen',
      uri: 'macpilot://app/{name}/screenshot',
      title: "An app's window, as an image",
      description:
        "A PNG of the app's front-most window, scaled as take_screenshot scales it. Windows of apps the person's " +
        'app lists hide are painted black in it.',
      mimeType: 'image/png',
      read: async (uri, variables) => {
        const shot = await engine.screen.take({
          app: variable(variables, 'name'),
          format: 'png',
          blackOutHidden: true,
        });
        if (!shot.image) throw failure('the capture produced no image', ErrorCode.InternalError);
        return { contents: [{ uri: uri.href, mimeType: shot.image.mimeType, blob: shot.image.data }] };
      },
      perApp: 'screenshot',
      complete: names,
    },
  ];
}

/** Registers the resources; answers what completes their templates' variables, and how to read and watch them. */
export function registerResources(
  server: McpServer,
  deps: ResourceDependencies,
): { completers: Completers; reader: ResourceReader } {
  const table = definitions(deps);
  const { toolsets, origins } = deps.config;
  // A resource of a toolset left out is not listed; read by its URI, it is refused as the toolset's tools are.
  const served = (def: Definition) => def.toolset === undefined || toolsets.includes(def.toolset);
  /** The refusal of a resource not served, as a tool of its toolset is refused; undefined when it is served. */
  const leftOut = (def: Definition) =>
    def.toolset === undefined || toolsets.includes(def.toolset)
      ? undefined
      : toolsetLeftOut(def.uri, def.toolset, toolsets, origins.toolsets);
  const content = (def: Definition, uri: URL, variables: Variables) => {
    const refusal = leftOut(def);
    return refusal ? Promise.reject(refusal) : def.read(uri, variables);
  };
  /** The app a URI names: its name, or its pid's digits. */
  const appNamed = (variables: Variables) => {
    try {
      return variables.name === undefined ? undefined : variable(variables, 'name');
    } catch {
      return undefined;
    }
  };
  /**
   * A read a setting refused, in the audit log: an app named by its pid with the name the refusal found for it
   * (the file's; the agent's copy of a refusal by the app lists names none).
   */
  const logRefused = (
    resource: string,
    named: string | undefined,
    error: MacpilotError,
    tool: 'resources/read' | 'resources/subscribe' = 'resources/read',
  ) => {
    const pid = named !== undefined && /^\d+$/.test(named) ? Number(named) : undefined;
    const app = pid === undefined ? named : error.reached?.app;
    deps.audit.refusedResource({ tool, resource, app, pid, error });
  };
  for (const def of table) {
    const meta = { title: def.title, description: def.description, mimeType: def.mimeType };
    // The client's own reads: one a setting refused is in the audit log, as a refused tool call is.
    const read = (uri: URL, variables: Variables) =>
      asRead(
        () => content(def, uri, variables),
        (error) => logRefused(def.uri, appNamed(variables), error),
      );
    if (!def.uri.includes('{')) {
      // A template without variables is read as the resource is, and not listed in resources/list.
      if (served(def)) server.registerResource(def.name, def.uri, meta, (uri) => read(uri, {}));
      else server.registerResource(def.name, new ResourceTemplate(def.uri, { list: undefined }), meta, read);
      continue;
    }
    const perApp = served(def) ? def.perApp : undefined;
    // Two copies of an app share its name: each is listed by its pid, which the URI takes as well.
    const list = perApp
      ? async () => {
          const apps = (await readableApps(deps.engine).catch(() => [])).map((o) => o.app);
          const shared = (name: string) => apps.filter((app) => app.name === name).length > 1;
          return {
            resources: apps.map((app) => ({
              uri: appUri(shared(app.name) ? String(app.pid) : app.name, perApp),
              name: `${app.name}${shared(app.name) ? ` (pid ${app.pid})` : ''} ${def.name.replace(/^app-/, '')}`,
              mimeType: def.mimeType,
            })),
          };
        }
      : undefined;
    server.registerResource(def.name, new ResourceTemplate(def.uri, { list }), meta, read);
  }
  // The templates listed are those served (the SDK would list every one registered).
  const templates = table
    .filter((def) => served(def) && def.uri.includes('{'))
    .map((def) => ({
      name: def.name,
      uriTemplate: def.uri,
      title: def.title,
      description: def.description,
      mimeType: def.mimeType,
    }));
  server.server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: templates,
  }));

  const matched = (uri: string) => {
    for (const def of table) {
      const variables = def.uri.includes('{')
        ? new UriTemplate(def.uri).match(uri)
        : uri === def.uri
          ? {}
          : null;
      if (variables) return { def, variables };
    }
    throw failure(`no macpilot resource has the URI ${uri}`);
  };
  return {
    completers: Object.fromEntries(table.filter((d) => d.complete).map((d) => [d.uri, d.complete!])),
    reader: {
      read: (uri) => {
        const { def, variables } = matched(uri);
        return asRead(() => content(def, new URL(uri), variables));
      },
      // One not served is not watched either: subscribing to it is refused as reading it is.
      watched: (uri) => {
        const { def, variables } = matched(uri);
        const refusal = leftOut(def);
        if (refusal) throw refusal;
        return def.watched?.(variables);
      },
      refused: (uri, error) => {
        const { def, variables } = matched(uri);
        logRefused(def.uri, appNamed(variables), error, 'resources/subscribe');
      },
    },
  };
}

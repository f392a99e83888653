/** The apps toolset: what is running, start, bring forward, quit, restart with its tree. */
import { structured } from '../engine/render/json.js';
import { z } from 'zod';
import { appParam } from './params.js';
import { defineTool, serviceOf, toolsetTools, withService, READ_ONLY, WRITE } from './types.js';

/** How long a tool waits for an app it starts to show its tree. */
const appWaitMs = z.number().int().min(100).max(60_000).optional();

export const appsTools = toolsetTools('apps', [
  defineTool({
    name: 'list_apps',
    title: 'List running apps',
    description: 'Running apps that expose an accessibility tree: name, pid, bundle id, and which is active.',
    input: z.object({}),
    output: structured.apps,
    annotations: READ_ONLY,
    handle: (_args, { engine, signal }) => engine.apps.list({ signal }),
  }),
  defineTool({
    name: 'launch_app',
    title: 'Launch an app',
    description:
      'Start an installed app by name (or bundle id / desktop id) and wait until its UI is accessible. An app ' +
      'that is already running is left as it is.',
    input: z.object({
      name: z.string().min(1).max(256).describe('e.g. "Mousepad", "org.xfce.mousepad", "Calculator".'),
      timeout_ms: appWaitMs.describe('How long to wait; default 15000.'),
    }),
    output: structured.action,
    annotations: { ...WRITE, openWorldHint: true },
    handle: (args, { engine, signal }) => engine.apps.launch(args.name, args.timeout_ms, { signal }),
  }),
  defineTool({
    name: 'activate_app',
    title: 'Bring an app to the front',
    description: 'Make an app the active one, raising its window.',
    input: z.object({ name: appParam }),
    output: structured.action,
    annotations: { ...WRITE, idempotentHint: true },
    handle: (args, { engine, signal }) => engine.apps.activate(args.name, { signal }),
  }),
  defineTool({
    name: 'quit_app',
    title: 'Quit an app',
    description:
      'Ask an app to quit, as closing its windows would (it may ask to save). With force, terminate it: ' +
      'unsaved work is lost.',
    input: z.object({
      // Named always: quitting is never aimed at whatever happens to be in front.
      name: appParam.describe(
        'The app to quit: its name (as list_apps shows it), bundle id / desktop id, or pid.',
      ),
      force: z.boolean().optional().describe('Terminate without asking. Unsaved work is lost.'),
    }),
    output: structured.action,
    annotations: { ...WRITE, destructiveHint: true },
    handle: (args, { engine, signal }) => engine.apps.quit(args.name, args.force ?? false, { signal }),
  }),
  ...withService('relaunch', [
    defineTool({
      name: 'relaunch_app',
      title: 'Restart an app so that it has a tree',
      description:
        'Quit an app that list_apps shows with windows but no accessibility tree (a browser or Electron app ' +
        'started before accessibility was on) and start it again as it was started, so that it builds its tree. ' +
        'A Chromium-family browser reopens the tabs it had; other apps reopen what their command line names. ' +
        'Answers once the new process shows a window with its tree. Asks the person first, as quit_app does.',
      input: z.object({
        name: z
          .string()
          .min(1)
          .max(256)
          .describe('The app as list_apps names it under "windows but no accessibility tree", or its pid.'),
        timeout_ms: appWaitMs.describe('How long to wait for its tree after it starts again; default 15000.'),
      }),
      output: structured.action,
      annotations: { ...WRITE, destructiveHint: true, openWorldHint: true },
      namesAppWithoutTree: true,
      handle: (args, context) =>
        context.engine.apps.relaunch(
          args.name,
          (pid) => serviceOf(context, 'relaunch').prepare(pid),
          args.timeout_ms,
          { signal: context.signal },
        ),
    }),
  ]),
]);

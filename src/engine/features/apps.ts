/** The apps feature: list the running apps, and launch, activate, quit or relaunch one. */
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { isRefusal, MacpilotError } from '../../errors.js';
import type { Kernel } from '../kernel/kernel.js';
import { HelperError, type CallOptions } from '../../helper-client/errors.js';
import { HelperErrorCode, type AppInfo } from '../../helper-client/protocol.js';
import type { ActionResult, AppsResult } from '../kernel/results.js';
import { pickTreeless } from '../kernel/resolve.js';
import { appText, words, type Words } from '../kernel/words.js';

const LAUNCH_TIMEOUT_MS = 15_000;
const QUIT_TIMEOUT_MS = 5_000;
const RELAUNCH_POLL_MS = 100;
/** How many installed apps a launch that found none names. */
const INSTALLED_SHOWN = 30;
/** What a Linux helper's "no installed app matches" carries: the desktop entries it looked in. */
const InstalledApps = z.array(z.object({ name: z.string(), id: z.string(), binary: z.string() }));

const which = (app: { name: string; pid: number }): Words => words`${appText(app.name)} (pid ${app.pid})`;
const appRef = (app: { name: string; pid: number }) => ({ name: app.name, pid: app.pid });

export class Apps {
  constructor(private readonly kernel: Kernel) {}

  async list(call?: CallOptions): Promise<AppsResult> {
    return this.kernel.guard('list the running apps', async () => ({
      kind: 'apps',
      ...(await this.kernel.resolver.visibleApps(call)),
    }));
  }

  /** An app by name (case-insensitive), bundle id or pid digits; absent: the active app. */
  async resolve(app?: string, call?: CallOptions): Promise<AppInfo> {
    return this.kernel.guard('find the app', () => this.kernel.resolver.app(app, call));
  }

  /** Start an app by name (or bundle / desktop id) and wait until it is accessible. */
  async launch(name: string, timeoutMs = LAUNCH_TIMEOUT_MS, call?: CallOptions): Promise<ActionResult> {
    return this.kernel.guard(`launch ${JSON.stringify(name)}`, async () => {
      this.kernel.gate({ name });
      // The helper waits timeoutMs for the app; the request itself may take a little longer.
      const request = { ...call, timeoutMs: timeoutMs + 5_000 };
      const { app, alreadyRunning } = await this.kernel.port
        .call('apps.launch', { name, timeoutMs }, request)
        .catch((error: unknown) => {
          throw this.withInstalled(error);
        });
      // The app the name led to is checked too ("Calculator" may start a gnome-calculator the lists deny): one
      // started for this call is quit again, and the call refused in the words it would have been refused in.
      await this.kernel.resolver.appOf(app.pid, call).catch(async (error: unknown) => {
        if (!isRefusal(error)) return;
        if (!alreadyRunning) {
          const params = { pid: app.pid, force: false, timeoutMs: QUIT_TIMEOUT_MS };
          await this.kernel.port.call('apps.quit', params, call).catch(() => undefined);
        }
        throw error;
      });
      const done = alreadyRunning
        ? words`${which(app)} was already running.`
        : words`Launched ${which(app)}.`;
      return { kind: 'action', done, app: appRef(app) };
    });
  }

  /** A helper's "no installed app matches" with the installed apps agents may see named in its hint. */
  private withInstalled(error: unknown): unknown {
    if (!(error instanceof HelperError) || error.code !== HelperErrorCode.AppNotFound) return error;
    const installed = InstalledApps.safeParse(error.data['installed']);
    if (!installed.success) return error;
    const { resolver } = this.kernel;
    const names = [
      ...new Set(
        installed.data
          .filter(
            (app) =>
              resolver.mayList({ name: app.name }) &&
              resolver.mayList({ name: app.binary, bundleId: app.id }),
          )
          .map((app) => app.name),
      ),
    ];
    if (names.length === 0) return error;
    const shown = names.slice(0, INSTALLED_SHOWN).join(', ');
    const more = names.length > INSTALLED_SHOWN ? ` and ${names.length - INSTALLED_SHOWN} more` : '';
    const hint = `${error.data.hint ?? 'use an installed app'}; installed: ${shown}${more}`;
    return new HelperError(error.method, error.code, error.message, { hint });
  }

  /**
   * Quits an app that has windows but no accessibility tree and starts it again as it was started, so that it
   * builds its tree (a browser or Electron app started before accessibility was on). `prepare` reads how the
   * process was started, before it quits (the platform's relaunch service). Answers once the new process shows a
   * window in its tree.
   */
  async relaunch(
    name: string,
    prepare: (pid: number) => Promise<{ command: string; start(): Promise<number> }>,
    timeoutMs = LAUNCH_TIMEOUT_MS,
    call?: CallOptions,
  ): Promise<ActionResult> {
    return this.kernel.guard(`relaunch ${JSON.stringify(name)}`, async () => {
      const { resolver } = this.kernel;
      const treeless = await resolver.treelessApps(call);
      const seen = pickTreeless(treeless, name).filter((app) => resolver.mayList(app));
      const app = seen[0];
      if (!app || seen.length > 1) {
        // One with a tree already needs no restart; a name no app without a tree has is refused as unknown.
        const withTree =
          seen.length === 0 ? await resolver.app(name, call).catch(() => undefined) : undefined;
        if (withTree) {
          throw new MacpilotError({
            what: `${JSON.stringify(withTree.name)} (pid ${withTree.pid}) already exposes its accessibility tree: nothing was done`,
            why: 'relaunch_app restarts only apps with windows but no tree',
            next: 'read it with snapshot_ui',
            kind: 'has_tree',
            concerns: ['name'],
          });
        }
        const listed = treeless.filter((a) => resolver.mayList(a));
        throw new MacpilotError({
          what:
            seen.length > 1
              ? `${seen.length} apps without a tree match "${name}"`
              : `No app without an accessibility tree matches "${name}"`,
          why: `the apps with windows but no tree: ${listed.map((a) => `${a.name} (pid ${a.pid})`).join(', ') || 'none'}`,
          next:
            seen.length > 1 ? 'name the app by its pid' : 'list_apps lists the apps with windows but no tree',
          kind: seen.length > 1 ? 'app_ambiguous' : 'app_not_found',
          concerns: ['name'],
        });
      }
      this.kernel.gate({ name: app.name, pid: app.pid });
      const restart = await prepare(app.pid);
      const { exited } = await this.kernel.port.call(
        'apps.quit',
        { pid: app.pid, force: false, timeoutMs: QUIT_TIMEOUT_MS },
        call,
      );
      if (!exited) {
        throw new MacpilotError({
          what: `${JSON.stringify(app.name)} (pid ${app.pid}) did not quit within ${QUIT_TIMEOUT_MS / 1000} s, so it was not started again`,
          why: 'it may be asking whether to save or to close its tabs',
          next: 'ask the person to answer it, or to quit the app; then launch_app starts it with its tree',
          kind: 'app_did_not_quit',
        });
      }
      const pid = await restart.start();
      const started = await this.untilAccessible(pid, timeoutMs, call);
      const done = words`Relaunched ${appText(app.name)}: pid ${app.pid} quit, and ${which(started)} started again (${appText(restart.command)}) and exposes its accessibility tree.`;
      return { kind: 'action', done, app: appRef(started) };
    });
  }

  /** The app of process `pid` once it shows a window with a tree; an error after `timeoutMs`. */
  private async untilAccessible(pid: number, timeoutMs: number, call?: CallOptions): Promise<AppInfo> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const [apps, { windows }] = await Promise.all([
        this.kernel.resolver.apps(call),
        this.kernel.port.call('windows.list', { includeMinimized: true, pid }, call),
      ]);
      const app = apps.find((a) => a.pid === pid);
      if (app && windows.length > 0) return app;
      await sleep(RELAUNCH_POLL_MS, undefined, { signal: call?.signal });
    }
    throw new MacpilotError({
      what: `The app started again (pid ${pid}) but showed no window with an accessibility tree within ${timeoutMs / 1000} s`,
      why: 'it may still be starting, or it has no accessibility tree (not every app has one)',
      next: 'call list_apps in a moment',
      kind: 'timeout',
    });
  }

  async activate(name: string, call?: CallOptions): Promise<ActionResult> {
    return this.kernel.guard(`activate ${JSON.stringify(name)}`, async () => {
      const app = await this.kernel.resolver.app(name, call);
      const { activated } = await this.kernel.port.call('apps.activate', { pid: app.pid }, call);
      const done = activated
        ? words`${which(app)} is now active.`
        : words`Asked ${which(app)} to come to the front, but it is not active.`;
      return { kind: 'action', done, app: appRef(app) };
    });
  }

  async quit(name: string, force: boolean, call?: CallOptions): Promise<ActionResult> {
    return this.kernel.guard(`quit ${JSON.stringify(name)}`, async () => {
      const app = await this.kernel.resolver.app(name, call);
      const params = { pid: app.pid, force, timeoutMs: QUIT_TIMEOUT_MS };
      const { exited } = await this.kernel.port.call('apps.quit', params, call);
      if (!exited) {
        // Not done: the app runs on, and the answer says so as a failure, not as a quit.
        throw new MacpilotError({
          what: `${JSON.stringify(app.name)} (pid ${app.pid}) did not quit within ${QUIT_TIMEOUT_MS / 1000} s`,
          why: force
            ? 'it ignored the request to terminate'
            : 'it may be asking to save (snapshot_ui shows its dialogs)',
          next: force
            ? 'ask the person to end it'
            : 'answer its dialog, or quit_app with force to terminate it, losing unsaved work',
          kind: 'app_did_not_quit',
        });
      }
      return { kind: 'action', done: words`${which(app)} quit.`, app: appRef(app) };
    });
  }
}

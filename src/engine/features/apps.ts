/** The apps feature: list the running apps, and launch, activate or quit one. */
import { z } from 'zod';
import { isRefusal, MacpilotError } from '../../errors.js';
import type { Kernel } from '../kernel/kernel.js';
import { HelperError, type CallOptions } from '../../helper-client/errors.js';
import { HelperErrorCode, type AppInfo } from '../../helper-client/protocol.js';
import type { ActionResult, AppsResult } from '../kernel/results.js';
import { appText, words, type Words } from '../kernel/words.js';

const LAUNCH_TIMEOUT_MS = 15_000;
const QUIT_TIMEOUT_MS = 5_000;
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

/** apps.*: the registry's applications, launching installed desktop entries, activating and quitting. */
import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { type AppInfo, HelperErrorCode, type Params, type Result } from '../../../helper-client/protocol.js';
import { getChildren, getProps, getRoleName, getState, REGISTRY } from './atspi/atspi.js';
import { entryForProcess, listEntries, resolveEntry } from './desktop-entries.js';
import { HelperFailure } from '../errors.js';
import { pidOf } from '../dbus/bus.js';
import { activePid, closeWindowsOf, placesOf, raiseWindowOf } from './desk.js';
import { handleOf, parseHandle, type Ref } from './atspi/handles.js';
import { binaryOf, isAlive, processState, signal, waitForExit } from './process.js';
import type { Session } from './session.js';
import { accessibleEnvironment } from '../accessible-environment.js';
import { has, State } from './atspi/states.js';

export interface AppRoot {
  ref: Ref;
  pid: number;
  name: string;
}

/** An app on the registry that did not answer: its name is its program's, and why it may be silent. */
interface SilentApp extends AppRoot {
  notAnswering: NonNullable<AppInfo['notAnswering']>;
}

const POLL_MS = 100;
const ACTIVATE_WAIT_MS = 1500;
const KILL_WAIT_MS = 2000;

/** How long listing waits for one app's name before it uses the name the app last gave. */
const BUSY_APP_MS = 1000;

/** The running apps' names by pid (none when the registry cannot be read): what windows are labelled with. */
export async function appNamesByPid(session: Session): Promise<Map<number, string>> {
  // Busy apps too: a window of an app that does not answer is still named as its app is.
  const roots = await registryApps(session).catch(() => []);
  return new Map(roots.map((r) => [r.pid, r.name]));
}

/** The registry's applications that still run and answer; one that is busy (a modal dialog) keeps its last known name. */
export async function appRoots(session: Session): Promise<AppRoot[]> {
  return (await registryApps(session)).filter((app) => !('notAnswering' in app));
}

/**
 * The registry's applications that still run, those that did not answer in time included (a process stopped
 * with SIGSTOP, or hung), named by their program: an app that is there but silent is not "not running".
 */
async function registryApps(session: Session): Promise<(AppRoot | SilentApp)[]> {
  const bus = await session.a11y();
  const refs = await getChildren(bus, REGISTRY);
  const apps = await Promise.all(
    refs.map(async (ref): Promise<AppRoot | SilentApp | undefined> => {
      const facts = session.app(ref.bus);
      try {
        const name = await getProps(bus, ref, BUSY_APP_MS).then(
          (props) => props.name,
          (error: unknown) => {
            const known = session.appNames.get(ref.bus);
            if (known === undefined || !(error instanceof HelperFailure)) throw error;
            return known.name;
          },
        );
        const { pid } = await facts;
        session.appNames.set(ref.bus, { name, pid });
        return { ref, pid, name };
      } catch (error) {
        // It quit while we asked, or never answered at all. The bus daemon knows its pid; the app's own facts
        // would wait for the app.
        facts.catch(() => {});
        if (!(error instanceof HelperFailure) || error.code !== HelperErrorCode.Timeout) return undefined;
        const pid = await pidOf(bus, ref.bus).catch(() => undefined);
        const program = pid === undefined || !isAlive(pid) ? '' : binaryOf(pid);
        if (pid === undefined || !program) return undefined;
        const notAnswering = processState(pid) === 'T' ? 'stopped' : 'busy';
        return { ref, pid, name: program, notAnswering };
      }
    }),
  );
  return apps.filter((a) => a !== undefined);
}

async function hasActiveFrame(session: Session, app: Ref): Promise<boolean> {
  const bus = await session.a11y();
  const frames = await getChildren(bus, app).catch(() => []);
  const states = await Promise.all(frames.map((f) => getState(bus, f).catch(() => undefined)));
  return states.some((s) => s !== undefined && has(s, State.ACTIVE));
}

/**
 * Whether the app shows a window: one in its tree that is on screen (SHOWING, which GTK3 and GTK4 both set on a
 * mapped top-level). A window in the tree but not yet mapped drops what is pressed in it: a launch answered
 * then, on a loaded machine, lost gnome-calculator's first press.
 */
async function hasWindow(session: Session, app: Ref): Promise<boolean> {
  const bus = await session.a11y();
  const frames = await getChildren(bus, app).catch(() => []);
  const shown = await Promise.all(
    frames.map(async (f) => {
      const [role, state] = await Promise.all([
        getRoleName(bus, f).catch(() => ''),
        getState(bus, f).catch(() => undefined),
      ]);
      return (
        (role === 'frame' || role === 'window' || role === 'dialog') &&
        state !== undefined &&
        has(state, State.SHOWING)
      );
    }),
  );
  return shown.some(Boolean);
}

export async function listApps(session: Session): Promise<AppInfo[]> {
  const [roots, frontPid] = await Promise.all([registryApps(session), activePid(session)]);
  const entries = listEntries(session.env);
  return Promise.all(
    roots.map(async (app) => {
      const entry = entryForProcess(entries, binaryOf(app.pid), app.name);
      const silent = 'notAnswering' in app;
      const active =
        frontPid !== undefined ? app.pid === frontPid : !silent && (await hasActiveFrame(session, app.ref));
      const info: AppInfo = { pid: app.pid, name: app.name, id: handleOf(app.ref), active };
      if (entry) info.bundleId = entry.id;
      if (silent) info.notAnswering = app.notAnswering;
      return info;
    }),
  );
}

const notFound = (what: string, hint: string) => new HelperFailure(HelperErrorCode.AppNotFound, what, hint);

export async function launch(
  session: Session,
  params: Params<'apps.launch'>,
): Promise<Result<'apps.launch'>> {
  const entries = listEntries(session.env);
  const entry = resolveEntry(entries, params.name);
  if (!entry) {
    const installed = entries
      .map(({ name, id, binary }) => ({ name, id, binary }))
      .sort((a, b) => a.name.localeCompare(b.name));
    throw new HelperFailure(
      HelperErrorCode.AppNotFound,
      `no installed app matches "${params.name}"`,
      'use an installed app (one with a desktop file): its name, its desktop file id, or the program that file starts',
      { installed },
    );
  }
  const matches = (app: AppInfo) =>
    app.bundleId === entry.id || app.name.toLowerCase() === entry.binary.toLowerCase();
  const running = (await listApps(session)).find(matches);
  if (running) return { app: running, alreadyRunning: true };

  const env = accessibleEnvironment(session.env);
  const [command, ...args] = entry.argv;
  const child = spawn(command ?? entry.binary, args, { detached: true, stdio: 'ignore', env });
  const failed = new Promise<never>((_, reject) =>
    child.once('error', (error) =>
      reject(
        new HelperFailure(
          HelperErrorCode.Failed,
          `could not start ${entry.name}: ${error.message}`,
          `the desktop entry ${entry.id} runs ${entry.binary}, which failed to start; check that it is installed`,
        ),
      ),
    ),
  );
  failed.catch(() => {});
  child.unref();

  const deadline = Date.now() + params.timeoutMs;
  while (Date.now() < deadline) {
    await Promise.race([sleep(POLL_MS), failed]);
    // Single-instance apps hand the launch to a process that is already running: match by entry too.
    const app = (await listApps(session)).find((a) => a.pid === child.pid || matches(a));
    if (app && (await hasWindow(session, parseHandle(app.id)))) return { app, alreadyRunning: false };
  }
  throw new HelperFailure(
    HelperErrorCode.Timeout,
    `${entry.name} started (pid ${child.pid}) but showed no accessible window within ${params.timeoutMs} ms`,
    'wait and call list_apps, or launch again with a longer timeout; apps hidden from accessibility (NO_AT_BRIDGE, GTK_A11Y=none) never appear',
  );
}

/** The app must be one we can see (an accessible app or a window's owner): never signal arbitrary pids. */
async function requireApp(session: Session, pid: number): Promise<void> {
  const known = (await appRoots(session).catch(() => [])).some((a) => a.pid === pid);
  const windowed = known || (await placesOf(session, pid).catch(() => [])).length > 0;
  if (!windowed || !isAlive(pid)) {
    throw notFound(`no running app has pid ${pid}`, 'call list_apps for the pids of running apps');
  }
}

export async function activate(session: Session, pid: number): Promise<Result<'apps.activate'>> {
  await requireApp(session, pid);
  if (session.desk !== 'x11') return { activated: await raiseWindowOf(session, pid, '') };
  const x11 = await session.x11();
  const windows = await x11.windowsOf(pid);
  const target = windows[windows.length - 1];
  if (!target) return { activated: false };
  await x11.activate(target.id);
  const deadline = Date.now() + ACTIVATE_WAIT_MS;
  while (Date.now() < deadline) {
    if ((await x11.activeWindow()) === target.id) return { activated: true };
    await sleep(25);
  }
  return { activated: false };
}

export async function quit(session: Session, params: Params<'apps.quit'>): Promise<Result<'apps.quit'>> {
  const { pid, force, timeoutMs } = params;
  await requireApp(session, pid);
  if (force) {
    signal(pid, 'SIGTERM');
    if (await waitForExit(pid, timeoutMs)) return { exited: true };
    signal(pid, 'SIGKILL');
    return { exited: await waitForExit(pid, KILL_WAIT_MS) };
  }
  await closeWindowsOf(session, pid);
  return { exited: await waitForExit(pid, timeoutMs) };
}

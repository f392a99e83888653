/**
 * `macpilot console`: the person's view of every macpilot server of theirs, served on loopback for a browser,
 * until Ctrl-C. `serve --http` mounts the same site beside /mcp (see mountConsole).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadConfig } from '../config.js';
import { UsageError } from '../cli/usage-error.js';
import { processRunning, registerConsoleBrowser } from '../control.js';
import { MacpilotError } from '../errors.js';
import { findProgram, isProgram } from '../services/process.js';
import type { Engine } from '../engine/index.js';
import { createRuntime } from '../runtime.js';
import { Hub } from './hub.js';
import { LiveScreen } from './live-screen.js';
import { ConsoleSite } from './server.js';

/** The long edge of the live screen's pictures, in pixels. */
const SCREEN_EDGE = 1280;

/** The console's parts over one engine (the screen's pictures): the site to serve, and how to end it. */
export function mountConsole(
  engine: Engine,
  host: string,
  standingKey?: string,
): { site: ConsoleSite; hub: Hub; close(): void } {
  const hub = new Hub();
  const screen = new LiveScreen(
    async () => {
      const shot = await engine.screen.take({ format: 'jpeg', quality: 70, maxWidth: SCREEN_EDGE });
      return shot.image && { jpeg: Buffer.from(shot.image.data, 'base64'), area: shot.facts.area };
    },
    () => hub.busy(),
  );
  const site = new ConsoleSite({ hub, screen, host, standingKey });
  return {
    site,
    hub,
    close: () => {
      site.close();
      hub.close();
    },
  };
}

export async function runConsole(flags: { port?: string; open: boolean }): Promise<number> {
  const port = portOf(flags.port);
  const host = '127.0.0.1';
  const config = loadConfig();
  const runtime = createRuntime(config);
  const { site, hub, close } = mountConsole(runtime.engine, host);
  // A question is said on the desktop too: the console's window may be behind others, and raising it would take
  // the keyboard from the person mid-sentence (their keys could answer it).
  const stopNotifying = hub.onQuestion((event) => {
    runtime.services.notifications
      ?.send({
        title: 'macpilot: a question for you',
        message: `An agent asks to ${event.action}. Answer in macpilot's console.`,
      })
      .catch(() => {});
  });
  const http = createServer((req, res) => {
    site.handle(req, res).then(
      (handled) => {
        if (!handled) {
          res.writeHead(404, { 'content-type': 'text/plain' });
          res.end('the console is at /console/\n');
        }
      },
      () => {
        if (!res.headersSent) res.writeHead(500);
        res.end();
      },
    );
  });
  const shutDown = async () => {
    stopNotifying();
    close();
    http.closeAllConnections();
    http.close();
    await Promise.all([runtime.helper.close().catch(() => {}), runtime.engine.close().catch(() => {})]);
  };
  try {
    await new Promise<void>((resolve, reject) => {
      http.once('error', (error: NodeJS.ErrnoException) =>
        reject(
          new MacpilotError({
            what: `The console cannot listen on ${host}:${port}`,
            why: error.code === 'EADDRINUSE' ? 'another program uses that port' : error.message,
            next: 'give another port with --port (0: any free port)',
            kind: 'listen_failed',
          }),
        ),
      );
      http.listen(port, host, () => resolve());
    });
  } catch (error) {
    // Nothing of a console that never listened stays behind (its socket in the control folder).
    await shutDown();
    throw error;
  }
  const address = http.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  const link = `http://${host}:${bound}${site.oneTimeLink()}`;
  let windowClosed = () => {};
  const ended = new Promise<'signal' | 'window'>((resolve) => {
    process.once('SIGINT', () => resolve('signal'));
    process.once('SIGTERM', () => resolve('signal'));
    windowClosed = () => resolve('window');
  });
  const window = flags.open ? openConsoleWindow(link, () => windowClosed()) : undefined;
  // The link opens the page once; the console's own window has used it already.
  process.stdout.write(window ? `${OWN_WINDOW}\n` : `${linkLines(link)}\n${OPEN_IT_APART}\n`);
  const by = await ended;
  if (by === 'window') process.stdout.write("macpilot: the console's window was closed: the console ends.\n");
  await window?.close();
  await shutDown();
  return by === 'window' ? 0 : 130;
}

const linkLines = (link: string) =>
  `macpilot: the console is at ${link}\n` +
  '(the link works once: it leaves a cookie in the browser that opens it). Ctrl-C ends the console; the agents go on.';

function portOf(text: string | undefined): number {
  if (text === undefined) return 0;
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535) {
    throw new UsageError(`--port is a whole number from 0 to 65535 (0: any free port), not "${text}"`);
  }
  return port;
}

const OWN_WINDOW =
  'macpilot: the console opened in a browser window of its own, which agents can neither see nor operate. ' +
  'Closing that window, or Ctrl-C here, ends the console; the agents go on.';
const OPEN_IT_APART =
  'Open it in a browser that agents do not operate: in a browser they may use, its address bar could run a script ' +
  "in the console's page (a javascript: address), which the console cannot tell from you. A browser listed in " +
  'MACPILOT_DENY_APPS is hidden from them; with Chromium or Chrome installed, `macpilot console` opens a window of ' +
  'its own that is.';

/** Chromium-family browsers the console starts as an app window with a profile of its own. */
const BROWSERS =
  process.platform === 'darwin'
    ? [
        '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
        '/Applications/Chromium.app/Contents/MacOS/Chromium',
      ]
    : ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

/**
 * The console in a Chromium-family browser process of its own (an app window, a new profile): its pid is noted in
 * the control folder, and every server hides it from agents as it hides a denied app (walks, actions, points and
 * keys on its window). Without such a browser: the desktop's default one, and the printed advice.
 */
function openConsoleWindow(link: string, onClosed: () => void): { close(): Promise<void> } | undefined {
  const browser = BROWSERS.map((name) =>
    name.startsWith('/') ? (isProgram(name) ? name : undefined) : findProgram(name),
  ).find((found) => found !== undefined);
  if (browser === undefined) {
    const opener = process.platform === 'darwin' ? 'open' : 'xdg-open';
    const child = spawn(opener, [link], { stdio: 'ignore', detached: true });
    child.on('error', () => {});
    child.unref();
    return undefined;
  }
  const profile = mkdtempSync(join(tmpdir(), 'macpilot-console-browser-'));
  // The one-time link goes through a page in the profile (a folder only this user opens): on the command line,
  // every user's `ps` would show it until the browser used it.
  const opener = join(profile, 'open.html');
  writeFileSync(
    opener,
    `<!doctype html><meta http-equiv="refresh" content="0;url=${link.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"><title>macpilot console: opening</title>\n`,
    { mode: 0o600 },
  );
  const child = spawn(
    browser,
    [
      `--app=${pathToFileURL(opener).href}`,
      `--user-data-dir=${profile}`,
      '--no-first-run',
      '--no-default-browser-check',
      '--disable-sync',
      // Its crash reports would go to the person's own Chromium folder, outside this profile.
      '--disable-breakpad',
      // Chromium refuses to run as root without it.
      ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
    ],
    { stdio: 'ignore', detached: true },
  );
  child.on('error', () => {});
  child.unref();
  const forget = child.pid === undefined ? () => {} : registerConsoleBrowser(child.pid);
  let closing = false;
  // The person closed the window (the browser ended on its own): the console ends with it.
  child.once('exit', () => {
    forget();
    if (!closing) onClosed();
  });
  return {
    close: async () => {
      closing = true;
      forget();
      if (child.pid !== undefined) {
        try {
          process.kill(-child.pid, 'SIGTERM');
        } catch {
          // ended already
        }
        // The profile goes once the browser is gone: it writes there until it ends.
        const until = Date.now() + 5000;
        while (Date.now() < until && processRunning(child.pid))
          await new Promise((resolve) => setTimeout(resolve, 100));
      }
      removeProfile(profile);
    },
  };
}

/**
 * The browser's profile removed, with the folder under TMPDIR that holds its singleton socket (the profile's
 * SingletonSocket links to it), which a browser ended by a signal leaves behind. Not the folder itself in the
 * profile: its socket's path would then be too long for a socket under a long TMPDIR.
 */
function removeProfile(profile: string): void {
  try {
    const socketFolder = dirname(readlinkSync(join(profile, 'SingletonSocket')));
    if (basename(socketFolder).startsWith('org.chromium.Chromium.'))
      rmSync(socketFolder, { recursive: true, force: true });
  } catch {
    // no socket: nothing of it outside the profile
  }
  rmSync(profile, { recursive: true, force: true });
}

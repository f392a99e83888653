/**
 * The Linux helper: JSON-RPC 2.0 on stdin/stdout (Content-Length framing), AT-SPI over D-Bus and a little X11
 * behind it. Only protocol goes to stdout; diagnostics go to stderr and never carry text, values or secrets.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import {
  type CancellationToken,
  createMessageConnection,
  ResponseError,
  StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-jsonrpc/node';
import {
  EXIT_CONNECTION_LOST,
  HelperErrorCode,
  type MethodName,
  methodNames,
  methods,
} from '../../../helper-client/protocol.js';
import { ClientErrorCode } from '../../../helper-client/errors.js';
import { handlers } from './dispatch.js';
import { DBusCallError, HelperFailure, TypingStopped } from '../errors.js';
import { Session } from './session.js';
import { releaseHeld } from './x11/input.js';
import { handOffClipboard, KEEPER_SETTING, keepClipboard } from './x11/clipboard-keeper.js';

const log = (message: string) => process.stderr.write(`[macpilot-helper] ${message}\n`);

function toResponseError(method: string, error: unknown): ResponseError<{ hint: string }> {
  if (error instanceof HelperFailure) {
    return new ResponseError(error.code, error.message, { ...error.data, hint: error.hint });
  }
  if (error instanceof DBusCallError && error.type === 'org.freedesktop.DBus.Error.NoReply') {
    return new ResponseError(HelperErrorCode.Timeout, `${method}: the app did not answer in time`, {
      hint: 'the app may be busy or hung; try again, or quit it',
    });
  }
  const detail = error instanceof DBusCallError ? error.type : error instanceof Error ? error.name : 'error';
  log(`${method} failed: ${detail}`);
  return new ResponseError(HelperErrorCode.Failed, `${method} failed (${detail})`, {
    hint: 'try again; if it keeps failing, take a new snapshot or restart the app',
  });
}

/** How long an exiting helper waits for the X server to take the releases of what it held. */
const RELEASE_MS = 1000;

function serve(): void {
  const connection = createMessageConnection(
    new StreamMessageReader(process.stdin),
    new StreamMessageWriter(process.stdout),
  );
  const session = new Session(
    process.env,
    (name, params) => {
      // Once the server went away (shutdown follows) the connection throws at once, or its promise fails.
      try {
        connection.sendNotification(name, params).catch(() => {});
      } catch {
        // The server is gone: nobody to tell.
      }
    },
    (what) => {
      log(`${what}: exiting, so that the server starts a fresh helper`);
      // The accessibility bus may be what went: the clipboard's text still goes on in a keeper.
      void handOffClipboard(session)
        .catch(() => {})
        .finally(() => process.exit(EXIT_CONNECTION_LOST));
    },
  );

  for (const name of methodNames) {
    connection.onRequest(name, async (raw: unknown, token: CancellationToken) => {
      const parsed = methods[name].params.safeParse(raw ?? {});
      if (!parsed.success) {
        const issues = parsed.error.issues
          .map((i) => `${i.path.join('.') || 'params'}: ${i.message}`)
          .join('; ');
        return new ResponseError(HelperErrorCode.InvalidParams, `invalid params for ${name}: ${issues}`, {
          hint: `send params that match the ${name} schema in protocol.ts`,
        });
      }
      // $/cancelRequest (the server's client cancelled the call, or gave up on it) aborts the handler's work.
      const stop = new AbortController();
      const listening = token.onCancellationRequested(() => stop.abort());
      try {
        const handler = handlers[name] as (s: Session, p: unknown, signal: AbortSignal) => Promise<unknown>;
        return await handler(session, parsed.data, stop.signal);
      } catch (error) {
        if (stop.signal.aborted) {
          const progress = error instanceof TypingStopped ? error.data : undefined;
          return new ResponseError(ClientErrorCode.Cancelled, `${name} was cancelled`, progress);
        }
        return toResponseError(name as MethodName, error);
      } finally {
        listening.dispose();
      }
    });
  }

  let exiting = false;
  const shutdown = async () => {
    if (exiting) return;
    exiting = true;
    // The clipboard's text goes on in a keeper; nothing an agent held down stays pressed after the helper (or
    // the server above it) is gone.
    const handing = handOffClipboard(session).catch(() => {});
    await Promise.race([releaseHeld(session).catch(() => {}), sleep(RELEASE_MS)]);
    await handing;
    session.close();
    process.exit(0);
  };
  const exit = () => void shutdown();
  process.stdin.on('end', exit);
  process.stdin.on('close', exit);
  connection.onClose(exit);
  process.on('SIGTERM', exit);
  connection.listen();
}

if (process.env[KEEPER_SETTING] === '1') {
  // Its stderr goes nowhere: a keeper that fails leaves the clipboard empty, which the helper tells.
  keepClipboard().catch(() => process.exit(1));
} else {
  serve();
}

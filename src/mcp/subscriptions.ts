/**
 * resources/subscribe and unsubscribe for one session (McpServer has no handler for them). A subscription
 * listens to what its resource changes with (the engine's change feed: an app's UI events, any app's for the
 * app list, the clipboard's changes), never polls, and after a quiet time per kind re-reads the resource and
 * sends notifications/resources/updated only when the content differs from what it was. The session's end
 * releases them all. The app list's changes also send notifications/resources/list_changed, since
 * resources/list has one entry per app.
 */
import { createHash } from 'node:crypto';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SubscribeRequestSchema, UnsubscribeRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Engine } from '../engine/index.js';
import type { Logger } from '../log.js';
import { explain } from '../engine/kernel/failures.js';
import { isRefusal, MacpilotError } from '../errors.js';
import { HelperError } from '../helper-client/errors.js';
import { withAccess } from '../policy/apps.js';
import type { ResourceReader, Watched } from './resources.js';

interface Subscription {
  stop(): void;
}

const refused = (message: string) => Object.assign(new Error(message), { code: -32602 });

/** The content's fingerprint; a read that fails has its error as content, so an app that quits is a change. */
async function fingerprint(reader: ResourceReader, uri: string): Promise<string> {
  const content = await reader.read(uri).then(
    (result) => JSON.stringify(result.contents),
    (error: unknown) => `unreadable: ${error instanceof Error ? error.message : String(error)}`,
  );
  return createHash('sha256').update(content).digest('hex');
}

export function registerSubscriptions(
  server: McpServer,
  engine: Engine,
  reader: ResourceReader,
  log: Logger,
): void {
  const subscriptions = new Map<string, Subscription>();

  const subscribe = async (uri: string, watched: Watched): Promise<Subscription> => {
    let last: string | undefined;
    let timer: NodeJS.Timeout | undefined;
    let stopped = false;
    const recheck = async () => {
      timer = undefined;
      const now = await fingerprint(reader, uri);
      if (stopped || now === last) return;
      const wasAppList = watched.kind === 'apps';
      last = now;
      await server.server
        .sendResourceUpdated({ uri })
        .catch((e: unknown) => log.debug(`not sent: ${String(e)}`));
      if (wasAppList) server.sendResourceListChanged();
    };
    const soon = (ms: number) => {
      if (stopped || timer) return;
      timer = setTimeout(() => void recheck(), ms);
    };
    let stopListening: () => void;
    if (watched.kind === 'clipboard') {
      const { stop, live } = await engine.feed.onClipboard(() => soon(0));
      if (!live) log.warn(`${uri}: this helper does not report clipboard changes; no updates will be sent`);
      stopListening = stop;
    } else if (watched.kind === 'apps') {
      // Apps come and go without events of their own; any app's events (the desktop's too) are the cue to look.
      stopListening = (await engine.feed.onChange(() => soon(0))).stop;
    } else {
      const { pid } = await withAccess('read', () => engine.apps.resolve(watched.app));
      stopListening = (await engine.feed.onChange((event) => event.pid === pid && soon(watched.debounceMs)))
        .stop;
    }
    // Read only once listening: a change made while the first read runs is then heard, not lost.
    last = await fingerprint(reader, uri);
    return {
      stop: () => {
        stopped = true;
        clearTimeout(timer);
        stopListening();
      },
    };
  };

  // A subscription a setting refused is answered as a read is (its sentences), and is in the audit log.
  server.server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    try {
      return await subscribeTo(request.params.uri);
    } catch (error) {
      const explained = error instanceof HelperError ? explain(error) : error;
      if (!(explained instanceof MacpilotError)) throw error;
      if (isRefusal(explained)) reader.refused(request.params.uri, explained);
      throw refused(explained.render());
    }
  });

  const subscribeTo = async (uri: string) => {
    if (subscriptions.has(uri)) return {};
    const watched = reader.watched(uri);
    if (!watched)
      throw refused(
        `${uri} cannot be subscribed to: it changes with nothing macpilot can watch; read it again instead`,
      );
    // Registered before it is ready, so that a second subscribe or an unsubscribe meanwhile finds it.
    const starting = subscribe(uri, watched);
    const subscription = {
      stop: () =>
        void starting.then(
          (s) => s.stop(),
          () => {},
        ),
    };
    subscriptions.set(uri, subscription);
    try {
      await starting;
    } catch (error) {
      if (subscriptions.get(uri) === subscription) subscriptions.delete(uri);
      throw error;
    }
    return {};
  };

  server.server.setRequestHandler(UnsubscribeRequestSchema, ({ params: { uri } }) => {
    subscriptions.get(uri)?.stop();
    subscriptions.delete(uri);
    return {};
  });

  const previous = server.server.onclose;
  server.server.onclose = () => {
    for (const subscription of subscriptions.values()) subscription.stop();
    subscriptions.clear();
    previous?.();
  };
}

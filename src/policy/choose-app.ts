/**
 * When an app name matches several running apps, the human picks (form elicitation with the candidates): the
 * engine's AppChooser. The MCP server runs each tool call inside `withAsker`, so the engine's resolver reaches
 * the client of the call in progress. A pick holds for the session while that app runs: the human is asked once,
 * not at every call that names the app.
 * No call in progress (a resource read) or a client without elicitation: no one is asked, and the resolver's
 * error lists the candidates with their pids.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { AppInfo } from '../helper/protocol.js';
import { type AppCandidate, describeCandidate } from '../engine/resolve.js';
import { MacpilotError } from '../errors.js';
import { askHuman } from './ask-human.js';

/** The pids a session's human picked, by the name they were asked about (lower case). */
export type AppPicks = Map<string, number>;

interface Asker {
  server: Server;
  picks: AppPicks;
  signal: AbortSignal;
}

const callAsker = new AsyncLocalStorage<Asker>();

/** Run a tool call whose ambiguous app names are put to the human of `server`'s client (its session's `picks`). */
export function withAsker<T>(
  server: Server,
  picks: AppPicks,
  signal: AbortSignal,
  work: () => Promise<T>,
): Promise<T> {
  return callAsker.run({ server, picks, signal }, work);
}

/** The human's pick among the apps `query` matches; undefined when no one can be asked. */
export async function chooseApp(
  query: string,
  candidates: readonly AppCandidate[],
): Promise<AppInfo | undefined> {
  const asker = callAsker.getStore();
  if (!asker) return undefined;
  const key = query.toLowerCase();
  const earlier = candidates.find((c) => c.app.pid === asker.picks.get(key));
  if (earlier) return earlier.app;
  const answer = await askHuman(
    asker.server,
    {
      message: `Several running apps are called ${JSON.stringify(query)}. Which one did you mean?`,
      requestedSchema: {
        type: 'object',
        properties: {
          app: {
            type: 'string',
            title: 'App',
            oneOf: candidates.map((c) => ({ const: String(c.app.pid), title: describeCandidate(c) })),
          },
        },
        required: ['app'],
      },
    },
    asker.signal,
  );
  if (!answer) return undefined;
  const pid = answer.action === 'accept' ? Number(answer.content?.app) : Number.NaN;
  const chosen = candidates.find((c) => c.app.pid === pid);
  if (!chosen) {
    throw new MacpilotError({
      what: `Several apps match ${JSON.stringify(query)}, and the user did not pick one`,
      why: `${candidates.map(describeCandidate).join(', ')} all match; ${answer.action === 'cancel' ? 'they dismissed the question' : 'they declined'}`,
      next: 'name the app by its pid, or ask the user which one they mean',
    });
  }
  asker.picks.set(key, pid);
  return chosen.app;
}

/**
 * When an app name matches several running apps, the human picks (form elicitation with the candidates): the
 * engine's AppChooser. The MCP server runs each tool call inside `withAsker`, so the engine's resolver reaches
 * the client of the call in progress; a pick holds for the rest of that call (a tool may resolve a name twice).
 * No call in progress (a resource read) or a client without elicitation: no one is asked, and the resolver's
 * error lists the candidates with their pids.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { AppInfo } from '../helper/protocol.js';
import { type AppCandidate, describeCandidate } from '../engine/resolve.js';
import { MacpilotError } from '../errors.js';
import { askHuman } from './ask-human.js';

interface Asker {
  server: Server;
  signal: AbortSignal;
  /** Pids picked during this call, by the name asked about (lower case). */
  picked: Map<string, number>;
}

const callAsker = new AsyncLocalStorage<Asker>();

/** Run a tool call whose ambiguous app names are put to the human of `server`'s client. */
export function withAsker<T>(server: Server, signal: AbortSignal, work: () => Promise<T>): Promise<T> {
  return callAsker.run({ server, signal, picked: new Map() }, work);
}

/** The human's pick among the apps `query` matches; undefined when no one can be asked. */
export async function chooseApp(
  query: string,
  candidates: readonly AppCandidate[],
): Promise<AppInfo | undefined> {
  const asker = callAsker.getStore();
  if (!asker) return undefined;
  const key = query.toLowerCase();
  const earlier = candidates.find((c) => c.app.pid === asker.picked.get(key));
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
  asker.picked.set(key, pid);
  return chosen.app;
}

/**
 * When an app name matches several running apps, the human picks among the candidates: the engine's AppChooser.
 * Each tool call runs with its asker in the call scope (src/tools/call.ts, src/policy/call-scope.ts), so the engine's resolver reaches the human of the
 * call in progress (the MCP client's user through elicitation, or the person at the terminal). A pick holds for
 * the session while that app runs: the human is asked once, not at every call that names the app.
 * No call in progress (a resource read) or no one to ask: the resolver's error lists the candidates with their
 * pids.
 */
import type { AppInfo } from '../helper-client/protocol.js';
import { type AppCandidate, AppAmbiguous, bothOrAll, describeCandidate } from '../engine/kernel/resolve.js';
import { callScope } from './call-scope.js';

/** The human's pick among the apps `query` matches; undefined when no one can be asked. */
export async function chooseApp(
  query: string,
  candidates: readonly AppCandidate[],
): Promise<AppInfo | undefined> {
  const asker = callScope()?.asker;
  if (!asker || asker.human.unreachable('choose') !== undefined) return undefined;
  const key = query.toLowerCase();
  const earlier = candidates.find((c) => c.app.pid === asker.picks.get(key));
  if (earlier) return earlier.app;
  const answer = await asker.human.choose(
    {
      // A human reads this (elicitation or the terminal), not a model: the titles are told apart as the apps' own words.
      question: `Several running apps are called ${JSON.stringify(query)}. Which one did you mean? (The window titles shown are the apps' own.)`,
      title: 'App',
      options: candidates.map((c) => ({ value: String(c.app.pid), label: describeCandidate(c) })),
    },
    asker.signal,
  );
  const pid = answer.action === 'accept' ? Number(answer.value) : Number.NaN;
  const chosen = candidates.find((c) => c.app.pid === pid);
  if (!chosen) {
    throw new AppAmbiguous({
      what: `Several apps match ${JSON.stringify(query)}, and the user did not pick one`,
      why: `${candidates.map(describeCandidate).join(', ')} ${bothOrAll(candidates)} match; ${answer.action === 'cancel' ? 'they dismissed the question' : 'they declined'}`,
      next: 'name the app by its pid, or ask the user which one they mean',
      kind: 'app_ambiguous',
      person: {
        what: `Several apps match ${JSON.stringify(query)}, and none was picked`,
        why: `${candidates.map(describeCandidate).join(', ')} ${bothOrAll(candidates)} match`,
        next: `give its pid where you gave its name, e.g. ${candidates[0]?.app.pid} (in a path: app(${candidates[0]?.app.pid})/…; \`macpilot apps\` shows the pids)`,
      },
    });
  }
  asker.picks.set(key, pid);
  return chosen.app;
}

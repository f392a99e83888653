/** What the contract tests share: a HelperClient on the shared desktop, tree search, error and D-Bus checks. */
import { execFileSync } from 'node:child_process';
import { afterAll, expect } from 'vitest';
import { HelperClient } from '../../src/helper-client/client.js';
import { HelperError } from '../../src/helper-client/errors.js';
import type { ElementNode } from '../../src/helper-client/protocol.js';
import { createLogger } from '../../src/log.js';
import { helperCommand } from '../../src/platforms/helper-command.js';
import { Processes, type Started } from '../support/processes.js';
import { recordExchanges } from '../support/protocol-recording.js';
import { eventually } from '../support/text.js';

/**
 * A HelperClient on this environment; it starts its helper on the first call. With MACPILOT_RECORD_PROTOCOL set
 * (scripts/record-protocol.ts), what it exchanges is appended to that file.
 */
export function startHelper(env: Record<string, string>): HelperClient {
  const helper = new HelperClient({
    helper: { ...helperCommand(), env },
    log: createLogger('warn'),
    requestTimeoutMs: 30_000,
  });
  const record = process.env.MACPILOT_RECORD_PROTOCOL;
  return record ? recordExchanges(helper, record) : helper;
}

/**
 * One helper for the tests of the file that calls it, and the app processes they start; afterAll closes the
 * helper and stops the processes.
 */
export function useHelper(env: Record<string, string>) {
  const helper = startHelper(env);
  const processes = new Processes(env);
  afterAll(async () => {
    await helper.close();
    await processes.stopAll();
  });
  /** Starts an app and waits for its accessible root, which it returns with the process. */
  const start = async (command: string, args: string[] = []): Promise<Started & { root: string }> => {
    const started = processes.start(command, args);
    return { ...started, root: await appRoot(helper, started.pid) };
  };
  return { helper, processes, start };
}

export function* nodes(root: ElementNode): Generator<ElementNode> {
  yield root;
  for (const child of root.children ?? []) yield* nodes(child);
}

export function find(root: ElementNode, test: (n: ElementNode) => boolean): ElementNode | undefined {
  for (const node of nodes(root)) if (test(node)) return node;
  return undefined;
}

/** Expects the promise to fail with a helper error of this code; returns it for further checks. */
export async function failsWith(promise: Promise<unknown>, code: number): Promise<HelperError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HelperError);
  const helperError = error as HelperError;
  expect(helperError.code, helperError.message).toBe(code);
  return helperError;
}

/** The accessible root of the app with this pid, once it shows a window. */
export async function appRoot(helper: HelperClient, pid: number): Promise<string> {
  return eventually(`an accessible app with pid ${pid}`, async () => {
    const { apps } = await helper.call('apps.list', {});
    const app = apps.find((a) => a.pid === pid);
    if (!app) return undefined;
    const tree = await snapshot(helper, app.id, { depth: 1 });
    return (tree.root.children?.length ?? 0) > 0 ? app.id : undefined;
  });
}

export async function snapshot(
  helper: HelperClient,
  root: string,
  options: { depth?: number; maxNodes?: number; includeHidden?: boolean; maxValueLength?: number } = {},
) {
  return helper.call('ax.snapshot', {
    root,
    depth: options.depth ?? 64,
    maxNodes: options.maxNodes ?? 5000,
    includeHidden: options.includeHidden ?? false,
    maxValueLength: options.maxValueLength ?? 1000,
  });
}

/** The centre of an element's screen bounds, as ax.element gives them. */
export async function centre(helper: HelperClient, id: string): Promise<{ x: number; y: number }> {
  const { element } = await helper.call('ax.element', { id, maxValueLength: 0 });
  const b = element.bounds;
  if (!b) throw new Error(`no bounds for ${element.nativeRole} "${element.name}"`);
  return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
}

/** What ax.elementAt finds at the centre of an element, and its ancestors: ids, innermost first. */
export async function hitsAtCentre(helper: HelperClient, id: string): Promise<string[]> {
  const { element } = await helper.call('ax.elementAt', await centre(helper, id));
  if (!element) return [];
  const { ancestors } = await helper.call('ax.ancestors', { id: element.id });
  return [element.id, ...ancestors.map((a) => a.id)];
}

/** Reads an element's text straight from the app over D-Bus (gdbus), independently of the helper. */
export function textFromApp(env: Record<string, string>, handle: string): string {
  const address = execFileSync(
    'gdbus',
    ['call', '--session', '-d', 'org.a11y.Bus', '-o', '/org/a11y/bus', '-m', 'org.a11y.Bus.GetAddress'],
    { env, encoding: 'utf8' },
  ).replace(/^\('(.*)',\)\s*$/s, '$1');
  const slash = handle.indexOf('/');
  const out = execFileSync(
    'gdbus',
    [
      'call',
      '-a',
      address,
      '-d',
      handle.slice(0, slash),
      '-o',
      handle.slice(slash),
      '-m',
      'org.a11y.atspi.Text.GetText',
      '0',
      '1000000',
    ],
    { env, encoding: 'utf8' },
  );
  // gdbus prints a GVariant tuple: ('text',)
  const match = /^\((['"])(.*)\1,\)\s*$/s.exec(out);
  if (!match?.[2]) throw new Error(`unexpected gdbus output: ${out}`);
  return match[2];
}

/** Times a snapshot a few times and prints the best ms per element (warm helper, as in a session). */
export async function measureSnapshot(helper: HelperClient, label: string, root: string) {
  let best = Number.POSITIVE_INFINITY;
  let count = 0;
  for (let i = 0; i < 8; i++) {
    const started = performance.now();
    const result = await snapshot(helper, root, { maxValueLength: 200 });
    const ms = performance.now() - started;
    count = result.nodeCount;
    best = Math.min(best, ms / count);
  }
  console.log(`[perf] ${label}: ${count} elements, best ${best.toFixed(3)} ms per element`);
  return { count, perElement: best };
}

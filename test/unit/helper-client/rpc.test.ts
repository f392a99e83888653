/** Requests over one helper's connection: an answer is let go once its request is over, however long the helper lives. */
import { setTimeout as sleep } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { MessageConnection } from 'vscode-jsonrpc/node';
import { expect, test } from 'vitest';
import { HelperRpc } from '../../../src/helper-client/rpc.js';

setFlagsFromString('--expose_gc');
const gc = runInNewContext('gc') as () => void;

test('answers are not kept for the life of the helper', async () => {
  const answers: WeakRef<object>[] = [];
  const connection = {
    sendRequest: async () => {
      const answer = { apps: [], padding: 'x'.repeat(1000) };
      answers.push(new WeakRef(answer));
      return answer;
    },
  } as unknown as MessageConnection;
  // The helper stays alive for the whole test: its exit promise never settles.
  const alive = new Promise<never>(() => {});
  const rpc = new HelperRpc(connection, alive, 1000);
  for (let i = 0; i < 20; i++) await rpc.request('apps.list', {});
  await sleep(0);
  gc();
  expect(answers.filter((a) => a.deref() !== undefined)).toHaveLength(0);
});

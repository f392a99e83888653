/** Typing a client cancels: type_text with a pause between keys, its request aborted by the client midway. */
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';
import type { Macpilot } from './mcp.js';

export const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Types `text` into `ref`, 200 ms a key, cancels after `cancelAfterMs`; answers how long after the start it did. */
export async function typeThenCancel(
  macpilot: Macpilot,
  ref: string,
  text: string,
  cancelAfterMs: number,
): Promise<number> {
  const stop = new AbortController();
  const started = performance.now();
  const typing = macpilot.client.callTool(
    { name: 'type_text', arguments: { ref, text, delay_ms: 200 } },
    CallToolResultSchema,
    { signal: stop.signal },
  );
  await pause(cancelAfterMs);
  stop.abort();
  await expect(typing).rejects.toThrow();
  return performance.now() - started;
}

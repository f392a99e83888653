/**
 * Records what a HelperClient exchanges with its helper, one JSON line per request (params with the result or the
 * error code) or notification, appended to a file: scripts/record-protocol.ts turns the contract tests' traffic
 * into the replay fixture the Swift types are checked against.
 */
import { appendFileSync } from 'node:fs';
import type { HelperClient } from '../../src/helper-client/client.js';
import { HelperError } from '../../src/helper-client/errors.js';
import { type NotificationName, notifications, PROTOCOL_VERSION } from '../../src/helper-client/protocol.js';

export type Exchange =
  | { method: string; params: unknown; result: unknown }
  | { method: string; params: unknown; error: number }
  | { notification: string; params: unknown };

export function recordExchanges(helper: HelperClient, file: string): HelperClient {
  const write = (exchange: Exchange) => appendFileSync(file, `${JSON.stringify(exchange)}\n`);
  const call = helper.call.bind(helper);
  let helloRecorded = false;
  helper.onReady((hello) => {
    if (helloRecorded) return;
    helloRecorded = true;
    write({
      method: 'system.hello',
      params: { protocolVersion: PROTOCOL_VERSION, client: 'macpilot' },
      result: hello,
    });
  });
  for (const name of Object.keys(notifications) as NotificationName[]) {
    helper.onNotification(name, (params) => write({ notification: name, params }));
  }
  helper.call = (async (method, params, options) => {
    try {
      const result = await call(method, params, options);
      write({ method, params, result });
      return result;
    } catch (error) {
      if (error instanceof HelperError && error.method === method)
        write({ method, params, error: error.code });
      throw error;
    }
  }) as HelperClient['call'];
  return helper;
}

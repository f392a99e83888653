/**
 * Log messages to the client: at or above the level it set with logging/setLevel (info until it sets one, so
 * the debug lines below reach only a client that asks for them). Each tool call is logged at debug level with
 * its duration and how much of it the helper took (the helper calls made on its behalf, counted through the
 * port the engine is given).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  type LoggingLevel,
  LoggingLevelSchema,
  SetLevelRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { HelperPort } from '../engine/kernel/port.js';
import type { Logger } from '../log.js';
import type { ClientLog } from '../policy/pipeline.js';

interface HelperTime {
  ms: number;
  calls: number;
}

const helperTime = new AsyncLocalStorage<HelperTime>();
const severity = (level: LoggingLevel) => LoggingLevelSchema.options.indexOf(level);

/** The port, with each call's time added to the tool call it belongs to. */
export function timedPort(port: HelperPort): HelperPort {
  return {
    call: async (method, params, options) => {
      const started = performance.now();
      try {
        return await port.call(method, params, options);
      } finally {
        const time = helperTime.getStore();
        if (time) {
          time.ms += performance.now() - started;
          time.calls++;
        }
      }
    },
    ...(port.onNotification ? { onNotification: port.onNotification.bind(port) } : {}),
    ...(port.onReady ? { onReady: port.onReady.bind(port) } : {}),
  };
}

/** One client's log: it answers logging/setLevel for its server (one per session) and filters by that level. */
export class ServerLog implements ClientLog {
  private level: LoggingLevel = 'info';

  constructor(
    private readonly server: Server,
    private readonly log: Logger,
  ) {
    server.setRequestHandler(SetLevelRequestSchema, ({ params }) => {
      this.level = params.level;
      return {};
    });
  }

  send(level: LoggingLevel, logger: string, data: unknown): void {
    if (!this.wants(level)) return;
    this.server
      .sendLoggingMessage({ level, logger, data })
      .catch((error: unknown) => this.log.debug(`${logger} log message not sent: ${String(error)}`));
  }

  private wants(level: LoggingLevel): boolean {
    return severity(level) >= severity(this.level);
  }

  /** Runs one tool call and logs `{tool, duration_ms, helper_ms, helper_calls}` at debug level. */
  async timed<T>(tool: string, run: () => Promise<T>): Promise<T> {
    // Nothing is measured for a client that does not want the line: the common case costs one comparison.
    if (!this.wants('debug')) return run();
    const time: HelperTime = { ms: 0, calls: 0 };
    const started = performance.now();
    try {
      return await helperTime.run(time, run);
    } finally {
      this.send('debug', 'calls', {
        tool,
        duration_ms: Math.round(performance.now() - started),
        helper_ms: Math.round(time.ms),
        helper_calls: time.calls,
      });
    }
  }
}

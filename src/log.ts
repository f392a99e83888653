/**
 * The server's log: lines on stderr (stdout belongs to the MCP stdio transport). Never pass typed text, clipboard
 * contents or secure values here.
 */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export function createLogger(
  level: LogLevel,
  write: (line: string) => void = (line) => process.stderr.write(line),
): Logger {
  const threshold = LOG_LEVELS.indexOf(level);
  const at = (lvl: Exclude<LogLevel, 'silent'>) => (message: string) => {
    if (LOG_LEVELS.indexOf(lvl) >= threshold) write(`[macpilot] ${lvl}: ${message}\n`);
  };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

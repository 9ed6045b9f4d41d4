// Structured JSON logs, one object a line, with the request id on every line about a request.
import { randomUUID } from "node:crypto";

export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export interface Logger {
  /** Whether a line at this level would be written (callers skip building fields otherwise). */
  enabled(level: Exclude<LogLevel, "silent">): boolean;
  log(level: Exclude<LogLevel, "silent">, message: string, fields?: Record<string, unknown>): void;
}

export function createLogger(
  level: LogLevel,
  write: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
): Logger {
  const threshold = ORDER[level];
  return {
    enabled: (entryLevel) => ORDER[entryLevel] >= threshold,
    log(entryLevel, message, fields = {}) {
      if (ORDER[entryLevel] >= threshold) {
        write(JSON.stringify({ time: new Date().toISOString(), level: entryLevel, msg: message, ...fields }));
      }
    },
  };
}

/** `req_` and 24 random hex digits (randomUUID draws from a cached entropy pool: cheap per request). */
export function newRequestId(): string {
  return `req_${randomUUID().replaceAll("-", "").slice(0, 24)}`;
}

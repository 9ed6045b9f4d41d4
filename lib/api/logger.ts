// Structured JSON logs, one object a line, with the request id on every line about a request.
import { randomBytes } from "node:crypto";

export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export interface Logger {
  log(level: Exclude<LogLevel, "silent">, message: string, fields?: Record<string, unknown>): void;
}

export function createLogger(
  level: LogLevel,
  write: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
): Logger {
  const threshold = ORDER[level];
  return {
    log(entryLevel, message, fields = {}) {
      if (ORDER[entryLevel] >= threshold) {
        write(JSON.stringify({ time: new Date().toISOString(), level: entryLevel, msg: message, ...fields }));
      }
    },
  };
}

export function newRequestId(): string {
  return `req_${randomBytes(12).toString("base64url")}`;
}

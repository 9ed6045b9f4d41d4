// Structured JSON logs, one object a line, with the request id on every line about a request.
import { randomBytes } from "node:crypto";

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

const ID_BYTES = 12;
const IDS_PER_DRAW = 256;
let entropy = Buffer.alloc(0);
let used = 0;

/** `req_` and 24 random hex digits, from entropy drawn for 256 ids at a time (one call per id costs more). */
export function newRequestId(): string {
  if (used + ID_BYTES > entropy.length) {
    entropy = randomBytes(ID_BYTES * IDS_PER_DRAW);
    used = 0;
  }
  const id = entropy.toString("hex", used, used + ID_BYTES);
  used += ID_BYTES;
  return `req_${id}`;
}

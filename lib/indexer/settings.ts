// The indexer's settings: whether this instance runs one (INDEXER=off leaves it to other instances) and
// its run interval (INDEXER_INTERVAL_SECONDS, default 15), from the one schema (lib/env-schema.ts).
import { parseEnv, type Env, type EnvValues } from "../env-schema";

export interface IndexerSettings {
  enabled: boolean;
  intervalMs: number;
}

/** Throws ConfigError naming the first bad variable. */
export function parseIndexerSettings(env: Env): IndexerSettings {
  return indexerSettingsFrom(parseEnv(env));
}

export function indexerSettingsFrom(values: EnvValues): IndexerSettings {
  return { enabled: values.INDEXER === "on", intervalMs: values.INDEXER_INTERVAL_SECONDS * 1000 };
}

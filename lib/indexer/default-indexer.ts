// The indexer of the process-wide default context (Next.js), started once at boot and kept on
// globalThis so a dev server's module reloads do not start another.
import { defaultApiContext } from "../api/default-context";
import type { Indexer } from "./indexer";
import { createIndexer, parseIndexerSettings } from "./start";

const KEY = Symbol.for("vault-gateway.indexer");

interface Holder {
  [KEY]?: Indexer | null;
}

export function startDefaultIndexer(env: Readonly<Record<string, string | undefined>>): Indexer | null {
  const holder = globalThis as Holder;
  if (holder[KEY] === undefined) {
    const settings = parseIndexerSettings(env);
    holder[KEY] = settings.enabled
      ? createIndexer(defaultApiContext(), { intervalMs: settings.intervalMs })
      : null;
    holder[KEY]?.start();
  }
  return holder[KEY] ?? null;
}

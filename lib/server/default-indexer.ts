// The indexer and the webhook worker of the process-wide default context (Next.js), started once at boot and kept on
// globalThis so a dev server's module reloads do not start another.
import { defaultApiContext } from "../api/default-context";
import type { Indexer } from "../indexer/indexer";
import type { IndexerSettings } from "../indexer/settings";
import { createIndexer } from "./indexer";

const KEY = Symbol.for("vault-gateway.indexer");

interface Holder {
  [KEY]?: Indexer | null;
}

export function startDefaultIndexer(settings: IndexerSettings): Indexer | null {
  const holder = globalThis as Holder;
  if (holder[KEY] === undefined) {
    const context = defaultApiContext();
    holder[KEY] = settings.enabled
      ? createIndexer(context, { intervalMs: settings.intervalMs, wsUrl: settings.wsUrl })
      : null;
    holder[KEY]?.start();
    // The webhook worker starts with the indexer; its state is in the database, so a restart resumes.
    const webhooks = defaultApiContext().webhooks;
    if (webhooks.settings.worker) {
      webhooks.worker.start();
    }
  }
  return holder[KEY] ?? null;
}

// The webhook parts over one store: the subscriptions' rows, the target checker and one delivery worker,
// made from the webhook settings. An API context holds one set (context.webhooks).
import { WebhookStore } from "../store/webhooks";
import { SecretBox } from "./secret-box";
import type { WebhookSettings } from "./settings";
import { TargetChecker } from "./target";
import { WebhookWorker, type WebhookWorkerOptions } from "./worker";

export interface Webhooks {
  settings: WebhookSettings;
  store: WebhookStore;
  checker: TargetChecker;
  worker: WebhookWorker;
}

/** Worker tuning beyond the settings (tests and benchmarks). */
export type WebhookTuning = Omit<WebhookWorkerOptions, "store" | "checker">;

export function createWebhooks(
  db: ConstructorParameters<typeof WebhookStore>[0],
  settings: WebhookSettings,
  onError: (error: unknown) => void,
  tuning: WebhookTuning = {},
): Webhooks {
  const store = new WebhookStore(db, SecretBox.from(settings.secretKey));
  const checker = new TargetChecker(settings.target);
  return {
    settings,
    store,
    checker,
    worker: new WebhookWorker({
      store,
      checker,
      onError,
      concurrency: settings.concurrency,
      timeoutMs: settings.timeoutMs,
      retentionMs: settings.retentionMs,
      ...tuning,
    }),
  };
}

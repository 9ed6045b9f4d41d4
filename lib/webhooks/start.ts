// The webhook parts of an API context: the store, the target checker and one delivery worker, made once
// per context from its settings (configureWebhooks at boot, else the process's configuration).
import type { ApiContext } from "../api/context";
import { WebhookStore } from "../store/webhooks";
import { processConfig } from "../config";
import { webhookSettingsFrom, type WebhookSettings } from "./settings";
import { TargetChecker } from "./target";
import { WebhookWorker, type WebhookWorkerOptions } from "./worker";

export interface Webhooks {
  settings: WebhookSettings;
  store: WebhookStore;
  checker: TargetChecker;
  worker: WebhookWorker;
}

const contexts = new WeakMap<ApiContext, Webhooks>();

/** Sets a context's webhook settings (and worker tuning, for tests and benchmarks) before first use. */
export function configureWebhooks(
  context: ApiContext,
  settings: WebhookSettings,
  tuning: Omit<WebhookWorkerOptions, "store" | "checker"> = {},
): Webhooks {
  const store = new WebhookStore(context.store);
  const checker = new TargetChecker(settings.target);
  const webhooks: Webhooks = {
    settings,
    store,
    checker,
    worker: new WebhookWorker({
      store,
      checker,
      onError: (error) =>
        context.log.log("warn", "webhook worker pass failed", {
          error: error instanceof Error ? error.message : String(error),
        }),
      ...tuning,
    }),
  };
  contexts.set(context, webhooks);
  return webhooks;
}

export function webhooksOf(context: ApiContext): Webhooks {
  return (
    contexts.get(context) ??
    configureWebhooks(context, webhookSettingsFrom(processConfig().env, context.config.rpcUrl))
  );
}

// A delivery worker in a process of its own, for the restart test: it reaches the test's database (the
// PGlite directory's owner, the test process, or PostgreSQL) and delivers until it is killed.
import { Store } from "../../lib/store/store";
import { WebhookStore } from "../../lib/store/webhooks";
import { SecretBox } from "../../lib/webhooks/secret-box";
import { TargetChecker } from "../../lib/webhooks/target";
import { WebhookWorker } from "../../lib/webhooks/worker";

const store = new Store({
  databaseUrl: process.env.DATABASE_URL ?? null,
  pgliteDir: process.env.DATABASE_URL === undefined ? (process.env.WORKER_PGLITE_DIR ?? null) : null,
  timeoutMs: 5_000,
  schema: process.env.WORKER_SCHEMA,
  embeddedRole: "shared",
});
const worker = new WebhookWorker({
  // The test's key (WORKER_SECRET_KEY, base64), so this process opens the secrets the test sealed.
  store: new WebhookStore(store, new SecretBox(Buffer.from(process.env.WORKER_SECRET_KEY ?? "", "base64"))),
  checker: new TargetChecker({ allowHttp: true, allowedNetworks: ["127.0.0.0/8"] }),
  leaseMs: Number(process.env.WORKER_LEASE_MS ?? "1000"),
  pollMs: 50,
  // The test's one endpoint has every delivery in flight at once when the worker dies.
  endpointConcurrency: 100,
  keyConcurrency: 100,
  backoffBaseMs: 50,
  backoffMaxMs: 200,
  onError: (error) => console.error("worker pass failed", error),
});
await store.ready();
worker.start();
process.send?.("ready");

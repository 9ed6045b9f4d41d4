// At least once across a crash: a worker in a child process is SIGKILLed while every delivery of a
// batch is in flight; a new worker picks them up when their lease runs out and the receiver gets every
// event, the repeated ones under the same webhook-id, none lost.
import { fork, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, expect, it } from "vitest";

import { partnerEventId, type PartnerEvent } from "../../lib/vault/model/partner-event";
import { dropPostgresSchema } from "../../lib/store/db";
import { recordPartnerEvents } from "../../lib/store/partner-events";
import { Store } from "../../lib/store/store";
import { WebhookStore } from "../../lib/store/webhooks";
import { SecretBox } from "../../lib/webhooks/secret-box";
import { newWebhookSecret } from "../../lib/webhooks/signing";
import { waitFor } from "../../localnet/testing";
import { DATABASE_URL, uniqueSuffix } from "./harness";
import { startReceiver, type Receiver } from "./webhook-receiver";

const EVENTS = 20;
const VAULT = "5wmiQyQXVpAVrfsVoQAqiHnkNZTW6n6998Rq56hs5DXS";

let directory: string;
let schema: string;
let store: Store;
let receiver: Receiver;
const children: ChildProcess[] = [];
/** The key this test and its worker process seal and open the endpoint's secret with. */
const SECRET_KEY = randomBytes(32);

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), "webhook-worker-"));
  schema = `webhook_worker_${uniqueSuffix()}`;
  store = new Store({
    databaseUrl: DATABASE_URL,
    pgliteDir: DATABASE_URL === null ? directory : null,
    timeoutMs: 5_000,
    schema: DATABASE_URL === null ? undefined : schema,
  });
  await store.ready();
  receiver = await startReceiver();
}, 120_000);

afterAll(async () => {
  for (const child of children) {
    child.kill("SIGKILL");
  }
  await receiver?.close();
  await store?.close();
  if (DATABASE_URL !== null) {
    await dropPostgresSchema(DATABASE_URL, schema);
  }
  await rm(directory, { recursive: true, force: true });
}, 30_000);

async function startWorker(): Promise<ChildProcess> {
  // The worker is this very process (tsx as a loader, not a wrapper that would outlive a SIGKILL).
  const child = fork("tests/api/webhook-worker-child.ts", {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    env: {
      ...process.env,
      WORKER_PGLITE_DIR: directory,
      WORKER_SCHEMA: DATABASE_URL === null ? "" : schema,
      WORKER_LEASE_MS: "1000",
      WORKER_SECRET_KEY: SECRET_KEY.toString("base64"),
    },
  });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    child.once("message", () => resolve());
    child.once("exit", (code) => reject(new Error(`worker exited with ${String(code)}`)));
  });
  return child;
}

it("loses nothing when the worker is SIGKILLed mid-delivery; repeats keep their webhook-id", async () => {
  const { record } = await store.keys.create({
    name: "restart",
    scope: "write",
    vaults: null,
    wallet: null,
    rpm: 100,
    environment: "test",
  });
  const secret = newWebhookSecret();
  await new WebhookStore(store, new SecretBox(SECRET_KEY)).createEndpoint({
    id: `wh_${uniqueSuffix()}`,
    keyId: record.id,
    url: `${receiver.url}/crash`,
    events: ["vault.nav_updated"],
    description: null,
    secret,
  });
  receiver.secrets.set("/crash", [secret]);
  const events: PartnerEvent[] = Array.from({ length: EVENTS }, (_, index) => ({
    id: partnerEventId("vault.nav_updated", "restart", index),
    type: "vault.nav_updated",
    timestamp: new Date().toISOString(),
    vault: VAULT,
    wallet: null,
    signature: `sig${index}`,
    slot: index,
    data: { navSequence: String(index) },
  }));
  const database = await store.ready();
  expect(await database.transaction((tx) => recordPartnerEvents(tx, events))).toBe(EVENTS);

  // The first worker gets no answer: every delivery it claimed is in flight when it dies.
  receiver.respond.set("/crash", () => "hang");
  const first = await startWorker();
  await waitFor(() => (receiver.verifiedOn("/crash").length >= EVENTS ? true : undefined));
  first.kill("SIGKILL");
  await new Promise((resolve) => first.once("exit", resolve));
  const inFlight = new Set(receiver.verifiedOn("/crash").map((entry) => entry.webhookId));
  expect(inFlight).toEqual(new Set(events.map((event) => event.id)));

  receiver.respond.set("/crash", () => 200);
  const second = await startWorker();
  const delivered = await waitFor(() => {
    const ids = new Set(
      receiver
        .verifiedOn("/crash")
        .filter((entry) => entry.status === 200)
        .map((entry) => entry.webhookId),
    );
    return ids.size === EVENTS ? ids : undefined;
  });
  expect(delivered).toEqual(inFlight);
  // The receiver records a delivery before answering it; the worker marks it after the answer.
  const rows = await waitFor(async () => {
    const current = await store.query<{ status: string; attempts: number }>(
      "SELECT status, attempts FROM webhook_deliveries",
    );
    return current.every((row) => row.status === "succeeded") ? current : undefined;
  });
  second.kill("SIGKILL");
  await new Promise((resolve) => second.once("exit", resolve));
  expect(rows).toHaveLength(EVENTS);
  // One attempt each by the killed worker, one by its successor.
  expect(rows.map((row) => Number(row.attempts))).toEqual(Array.from({ length: EVENTS }, () => 2));
}, 60_000);

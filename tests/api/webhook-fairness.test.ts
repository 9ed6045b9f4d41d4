// Fair delivery across partners: one key with many endpoints that never answer does not hold up
// another key's delivery. A real worker, store and receiver; the bound is in deliveries worked (the
// order attempts start in), never in time. Under the previous worker (one queue in event order, a
// batch awaited whole) the other key's delivery came after every one of the slow key's.
import { randomBytes } from "node:crypto";

import { afterAll, beforeAll, expect, it } from "vitest";

import { dropPostgresSchema } from "../../lib/store/db";
import { recordPartnerEvents } from "../../lib/store/partner-events";
import { Store } from "../../lib/store/store";
import { WebhookStore, type ClaimedDelivery } from "../../lib/store/webhooks";
import { SecretBox } from "../../lib/webhooks/secret-box";
import { newWebhookSecret } from "../../lib/webhooks/signing";
import { TargetChecker } from "../../lib/webhooks/target";
import { WebhookWorker } from "../../lib/webhooks/worker";
import { waitFor } from "../../localnet/testing";
import { partnerEventId } from "../../lib/vault/model/partner-event";
import { vaultEvent } from "../fixtures/partner-event";
import { DATABASE_URL, uniqueSuffix } from "./harness";
import { startReceiver, type Receiver } from "./webhook-receiver";

const SLOW_ENDPOINTS = 40;
const SLOW_EVENTS = 5;
const CONCURRENCY = 4;

const schema = `webhook_fairness_${uniqueSuffix()}`;
const store = new Store({ databaseUrl: DATABASE_URL, pgliteDir: null, timeoutMs: 10_000, schema });
const box = new SecretBox(randomBytes(32));
const webhooks = new WebhookStore(store, box);
let receiver: Receiver;
let worker: WebhookWorker | null = null;
/** The worker's stop, begun once its test is done: it claims no more (the later tests claim by hand). */
let stopping: Promise<void> | null = null;

beforeAll(async () => {
  receiver = await startReceiver();
});

afterAll(async () => {
  // The receiver first: closing it ends the hanging attempts, which the worker's stop waits for.
  await receiver?.close();
  await (stopping ?? worker?.stop());
  await store.close();
  if (DATABASE_URL !== null) {
    await dropPostgresSchema(DATABASE_URL, schema);
  }
});

async function key(name: string): Promise<string> {
  const { record } = await store.keys.create({ name, scope: "write", vaults: null, wallet: null, rpm: 100 });
  return record.id;
}

const event = (type: "vault.nav_updated" | "vault.paused", index: number) =>
  vaultEvent(type, "fairness", index);

it("delivers another key's event among the first attempts while one key's many endpoints hang", async () => {
  const slowKey = await key("many slow endpoints");
  const honestKey = await key("honest partner");
  for (let index = 0; index < SLOW_ENDPOINTS; index += 1) {
    // Verified (a delivery the receiver cannot verify is answered 401 at once), then never answered.
    const slowSecret = newWebhookSecret();
    receiver.secrets.set(`/slow/${index}`, [slowSecret]);
    receiver.respond.set(`/slow/${index}`, () => "hang");
    await webhooks.createEndpoint({
      id: `wh_slow_${index}`,
      keyId: slowKey,
      url: `${receiver.url}/slow/${index}`,
      events: ["vault.nav_updated"],
      description: null,
      secret: slowSecret,
    });
  }
  const secret = newWebhookSecret();
  receiver.secrets.set("/honest", [secret]);
  await webhooks.createEndpoint({
    id: "wh_honest",
    keyId: honestKey,
    url: `${receiver.url}/honest`,
    events: ["vault.paused"],
    description: null,
    secret,
  });
  const database = await store.ready();
  // The slow key's deliveries are queued first (older events): 200 of them.
  await database.transaction((tx) =>
    recordPartnerEvents(tx, [
      ...Array.from({ length: SLOW_EVENTS }, (_, index) => event("vault.nav_updated", index)),
      event("vault.paused", 0),
    ]),
  );

  const started: ClaimedDelivery[] = [];
  worker = new WebhookWorker({
    store: webhooks,
    checker: new TargetChecker({ allowHttp: true, allowedNetworks: ["127.0.0.1/32"] }),
    concurrency: CONCURRENCY,
    timeoutMs: 60_000,
    pollMs: 50,
    backoffBaseMs: 60_000,
    onAttempt: (delivery) => started.push(delivery),
  });
  worker.start();
  await waitFor(() => (receiver.verifiedOn("/honest").length === 1 ? true : undefined));

  // Deliveries worked before the honest key's: at most one per other key with due deliveries (here
  // one), whatever the slow key has queued (200).
  const honestAt = started.findIndex((delivery) => delivery.keyId === honestKey);
  expect(honestAt).toBeGreaterThanOrEqual(0);
  expect(honestAt).toBeLessThanOrEqual(1);
  // And the slow key holds at most its share of the slots (a quarter: one of four), not all of them.
  expect(started.filter((delivery) => delivery.keyId === slowKey)).toHaveLength(1);
  expect(receiver.received.filter((entry) => entry.path.startsWith("/slow/"))).toHaveLength(1);
  // The worker claims nothing more from here: the tests below claim deliveries themselves, and a
  // worker polling beside them would take theirs first on a busy machine. Its hanging attempts end
  // when the receiver closes (afterAll).
  stopping = worker.stop();
}, 60_000);

it("keeps a slow key's later deliveries to one endpoint at a time, round its endpoints", async () => {
  // The hanging attempt holds the slow key's one slot; the claim order itself goes round the
  // endpoints: the first due delivery of each, oldest event first, before any endpoint's second.
  const claimed = await webhooks.claimDue(10, 1_000, { perEndpoint: 4, perKey: 10 });
  const endpoints = claimed.map((delivery) => delivery.endpointId);
  expect(endpoints.length).toBeGreaterThan(1);
  expect(new Set(endpoints).size).toBe(endpoints.length);
});

it("leaves an endpoint in back-off alone until its wait is over, and forgets its failures on a success", async () => {
  const keyId = await key("back-off");
  await webhooks.createEndpoint({
    id: "wh_dead",
    keyId,
    url: `${receiver.url}/dead`,
    events: ["vault.resumed"],
    description: null,
    secret: newWebhookSecret(),
  });
  const database = await store.ready();
  await database.transaction((tx) =>
    recordPartnerEvents(tx, [
      {
        ...event("vault.paused", 1),
        id: partnerEventId("vault.resumed", "fairness-dead", 0),
        type: "vault.resumed",
      },
      {
        ...event("vault.paused", 2),
        id: partnerEventId("vault.resumed", "fairness-dead", 1),
        type: "vault.resumed",
      },
    ]),
  );
  const ownDue = async () =>
    (await webhooks.claimDue(10, 60_000, { perEndpoint: 1, perKey: 10 })).filter(
      (delivery) => delivery.endpointId === "wh_dead",
    );
  // One at a time for this endpoint (perEndpoint 1): the first is claimed, the second waits.
  const [first, ...others] = await ownDue();
  expect(first?.endpointFailures).toBe(0);
  expect(others).toEqual([]);
  await webhooks.markFailed(first?.id ?? "", {
    statusCode: null,
    error: "connection refused",
    nextAttemptAt: new Date(Date.now() - 1_000),
    endpointRetryAt: new Date(Date.now() + 3_600_000),
  });
  // Both deliveries are due, but the endpoint waits out its back-off.
  expect(await ownDue()).toEqual([]);
  await store.query(
    "UPDATE webhook_endpoints SET retry_at = now() - interval '1 second' WHERE id = 'wh_dead'",
  );
  const retried = await ownDue();
  expect(retried.map((delivery) => delivery.endpointFailures)).toEqual([1]);
  await webhooks.markSucceeded([{ id: retried[0]?.id ?? "", statusCode: 200 }]);
  const [row] = await store.query<{ failures: number; retry_at: Date | null }>(
    "SELECT failures, retry_at FROM webhook_endpoints WHERE id = 'wh_dead'",
  );
  expect(row).toEqual({ failures: 0, retry_at: null });
});

it("refuses an endpoint past the key's limit, and prunes finished deliveries past the retention", async () => {
  const keyId = await key("limited");
  const create = (index: number) =>
    webhooks.createEndpoint(
      {
        id: `wh_limited_${index}`,
        keyId,
        url: "https://hooks.example/x",
        events: ["vault.paused"],
        description: null,
        secret: newWebhookSecret(),
      },
      2,
    );
  expect(await create(0)).not.toBeNull();
  expect(await create(1)).not.toBeNull();
  expect(await create(2)).toBeNull();

  // Twenty creations racing for a key's last five places: five pass, never more (on PostgreSQL they
  // run on separate connections at once).
  const racing = await key("racing");
  const created = await Promise.all(
    Array.from({ length: 20 }, (_, index) =>
      webhooks.createEndpoint(
        {
          id: `wh_racing_${index}`,
          keyId: racing,
          url: "https://hooks.example/x",
          events: ["vault.paused"],
          description: null,
          secret: newWebhookSecret(),
        },
        5,
      ),
    ),
  );
  expect(created.filter((endpoint) => endpoint !== null)).toHaveLength(5);
  const [{ count }] = await store.query<{ count: string }>(
    "SELECT count(*) FROM webhook_endpoints WHERE key_id = $1",
    [racing],
  );
  expect(Number(count)).toBe(5);

  const before = await store.query<{ status: string }>("SELECT status FROM webhook_deliveries");
  await store.query(
    "UPDATE webhook_deliveries SET created_at = now() - interval '8 days' WHERE status IN ('succeeded', 'failed')",
  );
  const finished = before.filter((row) => row.status === "succeeded" || row.status === "failed").length;
  expect(finished).toBeGreaterThan(0);
  expect(await webhooks.pruneDeliveries(new Date(Date.now() - 7 * 86_400_000), 10_000)).toBe(finished);
  const after = await store.query<{ status: string }>("SELECT status FROM webhook_deliveries");
  expect(after).toHaveLength(before.length - finished);
  expect(after.every((row) => row.status !== "succeeded" && row.status !== "failed")).toBe(true);
});

// The webhook claim's choices, read straight from the store with no worker running: which due
// deliveries one claim takes when a key has more endpoints with deliveries due than it may have in
// flight (only each endpoint's first delivery is read) and when a key has fewer (its endpoints'
// following deliveries are read too), and that a key or an endpoint at its limit is passed over.
import { randomBytes } from "node:crypto";

import { afterAll, expect, it } from "vitest";

import { dropPostgresSchema } from "../../lib/store/db";
import { recordPartnerEvents } from "../../lib/store/partner-events";
import { Store } from "../../lib/store/store";
import { WebhookStore, type ClaimedDelivery } from "../../lib/store/webhooks";
import { SecretBox } from "../../lib/webhooks/secret-box";
import { newWebhookSecret } from "../../lib/webhooks/signing";
import type { PartnerEventType } from "../../lib/vault/model/partner-event";
import { vaultEvent } from "../fixtures/partner-event";
import { DATABASE_URL, uniqueSuffix } from "./harness";

const CROWDED_ENDPOINTS = 6;
const FAIRNESS = { perEndpoint: 3, perKey: 4 };

const schema = `webhook_claim_${uniqueSuffix()}`;
const store = new Store({ databaseUrl: DATABASE_URL, pgliteDir: null, timeoutMs: 10_000, schema });
const webhooks = new WebhookStore(store, new SecretBox(randomBytes(32)));

afterAll(async () => {
  await store.close();
  if (DATABASE_URL !== null) {
    await dropPostgresSchema(DATABASE_URL, schema);
  }
});

async function keyWithEndpoints(name: string, count: number, type: PartnerEventType): Promise<string> {
  const { record } = await store.keys.create({ name, scope: "write", vaults: null, wallet: null, rpm: 100 });
  for (let index = 0; index < count; index += 1) {
    await webhooks.createEndpoint({
      id: `wh_${name}_${index}`,
      keyId: record.id,
      url: `https://partner.example/${name}/${index}`,
      events: [type],
      description: null,
      secret: newWebhookSecret(),
    });
  }
  return record.id;
}

const event = (type: "vault.nav_updated" | "vault.paused", index: number) => vaultEvent(type, "claim", index);

const ofKey = (claimed: readonly ClaimedDelivery[], keyId: string) =>
  claimed.filter((delivery) => delivery.keyId === keyId);

it("takes a crowded key's first deliveries round its endpoints and a sparse key's oldest, within both limits", async () => {
  // Six endpoints with 3 deliveries due each (18) on one key; one endpoint with 5 due on another.
  const crowded = await keyWithEndpoints("crowded", CROWDED_ENDPOINTS, "vault.nav_updated");
  const sparse = await keyWithEndpoints("sparse", 1, "vault.paused");
  const database = await store.ready();
  await database.transaction((tx) =>
    recordPartnerEvents(tx, [
      ...[0, 1, 2].map((index) => event("vault.nav_updated", index)),
      ...[0, 1, 2, 3, 4].map((index) => event("vault.paused", index)),
    ]),
  );

  const first = await webhooks.claimDue(20, 60_000, FAIRNESS);
  // The crowded key: its limit of 4, one from each of 4 endpoints, all of the oldest event.
  const crowdedClaimed = ofKey(first, crowded);
  expect(crowdedClaimed).toHaveLength(FAIRNESS.perKey);
  expect(new Set(crowdedClaimed.map((delivery) => delivery.endpointId)).size).toBe(FAIRNESS.perKey);
  expect(new Set(crowdedClaimed.map((delivery) => delivery.eventId))).toEqual(
    new Set([event("vault.nav_updated", 0).id]),
  );
  // The sparse key: its one endpoint's limit of 3, oldest first.
  expect(ofKey(first, sparse).map((delivery) => delivery.eventId)).toEqual(
    [0, 1, 2].map((index) => event("vault.paused", index).id),
  );
  expect(first).toHaveLength(FAIRNESS.perKey + FAIRNESS.perEndpoint);

  // Both at their limits while those are in flight: nothing more.
  expect(await webhooks.claimDue(20, 60_000, FAIRNESS)).toEqual([]);

  // The sparse endpoint's three answered: its last two follow; the crowded key still has four out.
  await webhooks.markSucceeded(
    ofKey(first, sparse).map((delivery) => ({ id: delivery.id, statusCode: 200 })),
  );
  const second = await webhooks.claimDue(20, 60_000, FAIRNESS);
  expect(second.map((delivery) => delivery.eventId)).toEqual(
    [3, 4].map((index) => event("vault.paused", index).id),
  );

  // Two of the crowded key's answered: two more, from endpoints with nothing in flight first.
  const answered = crowdedClaimed.slice(0, 2);
  await webhooks.markSucceeded(answered.map((delivery) => ({ id: delivery.id, statusCode: 200 })));
  const third = await webhooks.claimDue(20, 60_000, FAIRNESS);
  expect(third).toHaveLength(2);
  const busy = new Set(crowdedClaimed.slice(2).map((delivery) => delivery.endpointId));
  expect(third.every((delivery) => delivery.keyId === crowded && !busy.has(delivery.endpointId))).toBe(true);
  expect(third.every((delivery) => delivery.eventId === event("vault.nav_updated", 0).id)).toBe(true);
});

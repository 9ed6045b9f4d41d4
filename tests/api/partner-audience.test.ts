// A partner event that names a partner (partner.fee_paid, issue 32) is that partner's alone: read from
// the store with no worker running, only the endpoints of that partner's keys get a delivery, and only
// its keys list it in GET /api/events' feed; events without a partner reach every key as before.
import { randomBytes } from "node:crypto";

import { afterAll, expect, it } from "vitest";

import { dropPostgresSchema } from "../../lib/store/db";
import { listPartnerEvents, recordPartnerEvents } from "../../lib/store/partner-events";
import { Store } from "../../lib/store/store";
import { WebhookStore } from "../../lib/store/webhooks";
import type { PartnerEvent, PartnerEventType } from "../../lib/vault/model/partner-event";
import { SecretBox } from "../../lib/webhooks/secret-box";
import { newWebhookSecret } from "../../lib/webhooks/signing";
import { vaultEvent } from "../fixtures/partner-event";
import { DATABASE_URL, uniqueSuffix } from "./harness";

const schema = `partner_audience_${uniqueSuffix()}`;
const store = new Store({ databaseUrl: DATABASE_URL, pgliteDir: null, timeoutMs: 10_000, schema });
const webhooks = new WebhookStore(store, new SecretBox(randomBytes(32)));

afterAll(async () => {
  await store.close();
  if (DATABASE_URL !== null) {
    await dropPostgresSchema(DATABASE_URL, schema);
  }
});

const PARTNER = "PartnerWa11et111111111111111111111111111111";
const OTHER_PARTNER = "0therPartner1111111111111111111111111111111";
const TYPES: PartnerEventType[] = ["partner.fee_paid", "vault.nav_updated"];

async function keyWithEndpoint(name: string, partner: string | null): Promise<string> {
  const { record } = await store.keys.create({
    name,
    scope: "read",
    rpm: 100,
    partner: partner === null ? null : { wallet: partner, feeBps: 25 },
  });
  await webhooks.createEndpoint({
    id: `wh_${name}`,
    keyId: record.id,
    url: `https://partner.example/${name}`,
    events: TYPES,
    description: null,
    secret: newWebhookSecret(),
  });
  return record.id;
}

it("delivers and lists partner.fee_paid only to the named partner's keys", async () => {
  await keyWithEndpoint("partner", PARTNER);
  await keyWithEndpoint("other", OTHER_PARTNER);
  await keyWithEndpoint("plain", null);
  const feePaid: PartnerEvent = {
    ...vaultEvent("partner.fee_paid", "audience", 0),
    data: { partner: PARTNER, feeBps: 25 },
  };
  const navUpdated = vaultEvent("vault.nav_updated", "audience", 1);
  const database = await store.ready();
  // The fee paid goes to one endpoint; the NAV strike to all three.
  expect(await database.transaction((tx) => recordPartnerEvents(tx, [feePaid, navUpdated]))).toBe(4);
  const deliveries = await store.query<{ endpoint_id: string; type: string }>(
    `SELECT delivery.endpoint_id, event.type FROM webhook_deliveries AS delivery
     JOIN partner_events AS event ON event.seq = delivery.event_seq ORDER BY event.seq, delivery.endpoint_id`,
  );
  expect(deliveries).toEqual([
    { endpoint_id: "wh_partner", type: "partner.fee_paid" },
    { endpoint_id: "wh_other", type: "vault.nav_updated" },
    { endpoint_id: "wh_partner", type: "vault.nav_updated" },
    { endpoint_id: "wh_plain", type: "vault.nav_updated" },
  ]);
  const listed = async (partner: string | null) =>
    (
      await listPartnerEvents(store, {
        after: 0n,
        limit: 10,
        audience: { vaults: null, wallet: null, partner },
        types: null,
      })
    ).map((entry) => entry.event.type);
  expect(await listed(PARTNER)).toEqual(["partner.fee_paid", "vault.nav_updated"]);
  expect(await listed(OTHER_PARTNER)).toEqual(["vault.nav_updated"]);
  expect(await listed(null)).toEqual(["vault.nav_updated"]);
});

// Partner events and webhooks end to end: the in-process localnet with a fast keeper, the indexer, the
// delivery worker, and a real receiver that verifies every delivery with the standardwebhooks
// library. A wallet's deposit → request → claimable → claim arrives as exactly those events, in order;
// a receiver failing three times gets the same webhook-id a fourth; a vault-restricted key never sees
// another vault; refused targets; secret rotation; an endpoint failing throughout is disabled.
import type { Keypair } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { bearerKeySource } from "../../lib/api/credentials";
import { createFirstPartySessionSource } from "../../lib/api/first-party-session";
import type { PartnerEvent } from "../../lib/vault/model/partner-event";
import type { Indexer } from "../../lib/indexer/indexer";
import { createIndexer } from "../../lib/server/indexer";
import { parseWebhookSettings } from "../../lib/webhooks/settings";
import { configureWebhooks } from "../../lib/api/context";
import type { Webhooks } from "../../lib/webhooks/parts";
import { parseSessionSettings } from "../../lib/web-config";
import { createSessionToken } from "../../lib/api/session-token";
import { waitFor } from "../../localnet/testing";
import { dataOf, startApiHarness, USDC, type ApiHarness } from "./harness";
import { startReceiver, type Receiver } from "./webhook-receiver";

const FLOW = ["deposit.confirmed", "withdrawal.requested", "withdrawal.claimable", "withdrawal.claimed"];
/**
 * Long enough that a busy machine still fits the flaky receiver's four attempts (100–400 ms apart) in
 * it; the endpoint that fails throughout waits it out, which only makes that test slower.
 */
const RETRY_WINDOW_MS = 15_000;
const ENDPOINT_LIMIT = 10;

let harness: ApiHarness;
let receiver: Receiver;
let webhooks: Webhooks;
let indexer: Indexer;
let writeKey: string;

beforeAll(async () => {
  harness = await startApiHarness({
    localnet: { keeper: { enabled: true, navIntervalSeconds: 1, apyBps: 1_000, stageIntervalSeconds: 1 } },
  });
  webhooks = configureWebhooks(
    harness.context,
    parseWebhookSettings({
      NODE_ENV: "test",
      WEBHOOK_ALLOWED_NETWORKS: "127.0.0.1/32",
      WEBHOOK_MAX_ENDPOINTS_PER_KEY: String(ENDPOINT_LIMIT),
    }),
    { pollMs: 100, backoffBaseMs: 100, backoffMaxMs: 400, retryWindowMs: RETRY_WINDOW_MS },
  );
  webhooks.worker.start();
  indexer = createIndexer(harness.context, { intervalMs: 200, schema: harness.schema });
  indexer.start();
  receiver = await startReceiver();
  writeKey = (await harness.createKey({ scope: "write" })).secret;
}, 60_000);

afterAll(async () => {
  await indexer?.stop();
  await webhooks?.worker.stop();
  await receiver?.close();
  await harness?.close();
});

async function subscribe(
  key: string,
  path: string,
  events: readonly string[] = FLOW,
): Promise<{ id: string; secret: string }> {
  const result = await harness.request("POST", "/api/webhooks", {
    key,
    body: { url: `${receiver.url}${path}`, events, description: `test ${path}` },
  });
  const data = dataOf(result);
  const created = { id: String(data.id), secret: String(data.secret) };
  receiver.secrets.set(path, [created.secret]);
  return created;
}

async function build(path: string, body: Record<string, unknown>, wallet: Keypair): Promise<string> {
  const built = dataOf(await harness.request("POST", path, { key: writeKey, body }));
  return harness.signAndSend(String(built.transaction), wallet);
}

function eventsOf(path: string, wallet: string): PartnerEvent[] {
  return receiver
    .verifiedOn(path)
    .filter((entry) => entry.status === 200)
    .map((entry) => entry.event)
    .filter((event): event is PartnerEvent => event !== null && event.wallet === wallet);
}

describe("partner events and webhooks", () => {
  it("delivers a wallet's deposit, request, claimable and claim, in order, each signed", async () => {
    await subscribe(writeKey, "/flow");
    const wallet = await harness.fundedWallet(1_000n * USDC);
    const owner = wallet.publicKey.toBase58();
    const vault = harness.vaultId;
    await build(`/api/vault/${vault}/deposit`, { wallet: owner, amount: (100n * USDC).toString() }, wallet);
    const deposited = await waitFor(() => eventsOf("/flow", owner)[0]);
    expect(deposited.type).toBe("deposit.confirmed");
    const shares = (deposited.data.shares as { amount: string }).amount;
    expect((deposited.data.assets as { amount: string }).amount).toBe((100n * USDC).toString());

    const requestSignature = await build(
      `/api/vault/${vault}/withdraw`,
      { wallet: owner, sharesAmount: shares, action: "initiate" },
      wallet,
    );
    await waitFor(
      () =>
        eventsOf("/flow", owner).some((event) => event.type === "withdrawal.claimable") ? true : undefined,
      30_000,
    );
    const claimSignature = await build(
      `/api/vault/${vault}/withdraw`,
      { wallet: owner, action: "claim" },
      wallet,
    );
    const events = await waitFor(() => {
      const received = eventsOf("/flow", owner);
      return received.length >= 4 ? received : undefined;
    });

    expect(events.map((event) => event.type)).toEqual(FLOW);
    expect(new Set(events.map((event) => event.id)).size).toBe(4);
    expect(events[1]?.signature).toBe(requestSignature);
    expect(events[2]?.data.requestSignature).toBe(requestSignature);
    expect(events[3]?.signature).toBe(claimSignature);
    expect(events.every((event) => event.vault === vault)).toBe(true);
    // The webhook-id header is the event's id.
    const headersById = receiver.verifiedOn("/flow").map((entry) => [entry.webhookId, entry.event?.id]);
    expect(headersById.every(([header, id]) => header === id)).toBe(true);

    // GET /api/events: the same events, oldest first, for a key restricted to this wallet.
    const walletKey = (await harness.createKey({ scope: "read", wallet: owner })).secret;
    const feed = dataOf(await harness.request("GET", "/api/events?limit=500", { key: walletKey }));
    const listed = (feed.events as PartnerEvent[]).map((event) => event.id);
    expect(listed).toEqual(events.map((event) => event.id));
    const after = dataOf(
      await harness.request("GET", `/api/events?after=${String(feed.nextCursor)}`, { key: walletKey }),
    );
    expect(after.events).toEqual([]);
    expect(after.nextCursor).toBe(feed.nextCursor);
  }, 90_000);

  it("delivers a request's cancel as withdrawal.cancelled, signed, with the shares that came back", async () => {
    await subscribe(writeKey, "/cancel", ["withdrawal.requested", "withdrawal.cancelled"]);
    const wallet = await harness.fundedWallet(1_000n * USDC);
    const owner = wallet.publicKey.toBase58();
    const vault = harness.vaultId;
    await build(`/api/vault/${vault}/deposit`, { wallet: owner, amount: (100n * USDC).toString() }, wallet);
    const shares = "30000000000";
    await build(
      `/api/vault/${vault}/withdraw`,
      { wallet: owner, sharesAmount: shares, action: "initiate" },
      wallet,
    );
    const cancelSignature = await build(
      `/api/vault/${vault}/withdraw`,
      { wallet: owner, action: "cancel" },
      wallet,
    );
    const events = await waitFor(() => {
      const received = eventsOf("/cancel", owner);
      return received.length >= 2 ? received : undefined;
    });
    expect(events.map((event) => event.type)).toEqual(["withdrawal.requested", "withdrawal.cancelled"]);
    expect(events[1]).toMatchObject({
      signature: cancelSignature,
      vault,
      wallet: owner,
      // 30 vUSDC less the 10 bps exit fee (0.03 vUSDC) burned.
      data: {
        requestId: events[0]?.data.requestId,
        shares: { amount: "29970000000", symbol: "vUSDC" },
        feeShares: { amount: "30000000", symbol: "vUSDC" },
      },
    });
  }, 90_000);

  it("retries a receiver answering 500 three times and delivers the same webhook-id on the fourth", async () => {
    const endpoint = await subscribe(writeKey, "/flaky");
    receiver.respond.set("/flaky", ({ attempt }) => (attempt <= 3 ? 500 : 200));
    const test = dataOf(
      await harness.request("POST", `/api/webhooks/${endpoint.id}/test`, { key: writeKey }),
    );
    const deliveries = await waitFor(() => {
      const received = receiver.verifiedOn("/flaky");
      return received.some((entry) => entry.status === 200) ? received : undefined;
    });
    expect(deliveries.map((entry) => entry.status)).toEqual([500, 500, 500, 200]);
    expect(new Set(deliveries.map((entry) => entry.webhookId))).toEqual(new Set([test.eventId]));

    const log = await waitFor(async () => {
      const listed = dataOf(
        await harness.request("GET", `/api/webhooks/${endpoint.id}/deliveries`, { key: writeKey }),
      ).deliveries as { id: string; status: string; attempts: number; lastStatusCode: number | null }[];
      return listed[0]?.status === "succeeded" ? listed : undefined;
    });
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ id: test.deliveryId, attempts: 4, lastStatusCode: 200 });

    // A manual retry sends it once more under the same id.
    dataOf(
      await harness.request("POST", `/api/webhooks/${endpoint.id}/deliveries/${test.deliveryId}/retry`, {
        key: writeKey,
      }),
    );
    await waitFor(() => (receiver.verifiedOn("/flaky").length === 5 ? true : undefined));
    expect(receiver.verifiedOn("/flaky").at(-1)?.webhookId).toBe(test.eventId);
  }, 90_000);

  it("never shows a vault-restricted key's endpoint another vault's events", async () => {
    const flexKey = (await harness.createKey({ scope: "write", vaults: [harness.flexVaultId] })).secret;
    await subscribe(flexKey, "/flex", FLOW);
    await subscribe(writeKey, "/all", ["deposit.confirmed"]);
    const wallet = await harness.fundedWallet(1_000n * USDC);
    const owner = wallet.publicKey.toBase58();
    await build(
      `/api/vault/${harness.vaultId}/deposit`,
      { wallet: owner, amount: (5n * USDC).toString() },
      wallet,
    );
    await build(
      `/api/vault/${harness.flexVaultId}/deposit`,
      { wallet: owner, amount: (7n * USDC).toString() },
      wallet,
    );
    // The unrestricted endpoint sees both deposits; by then the restricted one has had its chance.
    await waitFor(() => (eventsOf("/all", owner).length === 2 ? true : undefined));
    const flex = await waitFor(() => eventsOf("/flex", owner)[0]);
    expect(flex.vault).toBe(harness.flexVaultId);
    expect(receiver.verifiedOn("/flex").every((entry) => entry.event?.vault === harness.flexVaultId)).toBe(
      true,
    );
    const feed = dataOf(await harness.request("GET", "/api/events?limit=500", { key: flexKey }));
    expect((feed.events as PartnerEvent[]).every((event) => event.vault === harness.flexVaultId)).toBe(true);
    expect((feed.events as PartnerEvent[]).length).toBeGreaterThan(0);
  }, 60_000);

  it("refuses targets that are not public https (or loopback in development)", async () => {
    const cases: [string, RegExp][] = [
      ["ftp://example.com/hook", /http or https/],
      ["http://10.1.2.3/hook", /private|reserved|loopback/],
      ["http://169.254.169.254/latest/meta-data", /loopback, private, link-local/],
      ["http://[fd00::1]/hook", /loopback, private, link-local/],
      ["http://[::ffff:192.168.1.1]/hook", /loopback, private, link-local/],
      ["http://user:pw@127.0.0.1/hook", /credentials/],
      ["not a url", /valid absolute URL/],
    ];
    for (const [url, message] of cases) {
      const result = await harness.request("POST", "/api/webhooks", {
        key: writeKey,
        body: { url, events: ["deposit.confirmed"] },
      });
      expect(result.status, url).toBe(400);
      expect(result.body).toMatchObject({ success: false, code: "TARGET_REFUSED" });
      expect(String((result.body as { error: string }).error), url).toMatch(message);
    }
    const badEvents = await harness.request("POST", "/api/webhooks", {
      key: writeKey,
      body: { url: `${receiver.url}/x`, events: ["deposit.maybe"] },
    });
    expect(badEvents.status).toBe(400);
    expect((badEvents.body as { error: string }).error).toMatch(/^events\.0: must each be one of/);
  });

  it("rotates the secret: both sign for a day, the new one verifies alone", async () => {
    const endpoint = await subscribe(writeKey, "/rotate");
    const rotated = dataOf(
      await harness.request("POST", `/api/webhooks/${endpoint.id}/rotate-secret`, { key: writeKey }),
    );
    expect(String(rotated.secret)).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(endpoint.secret);
    receiver.secrets.set("/rotate", [String(rotated.secret)]);
    const test = dataOf(
      await harness.request("POST", `/api/webhooks/${endpoint.id}/test`, { key: writeKey }),
    );
    const delivered = await waitFor(() => receiver.verifiedOn("/rotate")[0]);
    expect(delivered.webhookId).toBe(test.eventId);
    expect(delivered.headers["webhook-signature"]?.split(" ")).toHaveLength(2);
    // The old secret still verifies it too (a receiver mid-switch).
    receiver.secrets.set("/rotate", [endpoint.secret]);
    await harness.request(
      "POST",
      `/api/webhooks/${endpoint.id}/deliveries/${String(test.deliveryId)}/retry`,
      {
        key: writeKey,
      },
    );
    await waitFor(() => (receiver.verifiedOn("/rotate").length === 2 ? true : undefined));
    // A made-up secret does not.
    receiver.secrets.set("/rotate", ["whsec_" + Buffer.alloc(32, 7).toString("base64")]);
    await harness.request(
      "POST",
      `/api/webhooks/${endpoint.id}/deliveries/${String(test.deliveryId)}/retry`,
      {
        key: writeKey,
      },
    );
    await waitFor(
      () => (receiver.received.filter((entry) => entry.path === "/rotate").length === 3 ? true : undefined),
      10_000,
    );
    expect(receiver.received.filter((entry) => entry.path === "/rotate").at(-1)?.verified).toBe(false);
  }, 40_000);

  it(
    "disables an endpoint that fails throughout the retry window, says why, and tells the key's other endpoints",
    async () => {
      const endpoint = await subscribe(writeKey, "/down");
      receiver.respond.set("/down", () => 503);
      await harness.request("POST", `/api/webhooks/${endpoint.id}/test`, { key: writeKey });
      const disabled = await waitFor(async () => {
        const view = dataOf(await harness.request("GET", `/api/webhooks/${endpoint.id}`, { key: writeKey }));
        return view.enabled === false ? view : undefined;
      }, RETRY_WINDOW_MS + 50_000);
      expect(String(disabled.disabledReason)).toMatch(/^Every delivery failed since .*; the last: HTTP 503$/);
      // The key's other endpoints hear of it: a webhook.disabled event naming the endpoint and why.
      const notice = await waitFor(() =>
        receiver.verifiedOn("/flow").find((entry) => entry.event?.type === ("webhook.disabled" as string)),
      );
      expect(notice.event?.data).toEqual({
        webhookId: endpoint.id,
        url: `${receiver.url}/down`,
        reason: disabled.disabledReason,
        disabledAt: disabled.disabledAt,
      });
      const deliveries = dataOf(
        await harness.request("GET", `/api/webhooks/${endpoint.id}/deliveries?status=failed`, {
          key: writeKey,
        }),
      ).deliveries as { attempts: number }[];
      expect(deliveries).toHaveLength(1);
      expect(deliveries[0]?.attempts).toBeGreaterThan(3);

      // Re-enabled by its owner, it is delivered to again.
      receiver.respond.set("/down", () => 200);
      const enabled = dataOf(
        await harness.request("PATCH", `/api/webhooks/${endpoint.id}`, {
          key: writeKey,
          body: { enabled: true },
        }),
      );
      expect(enabled).toMatchObject({ enabled: true, disabledReason: null });
    },
    RETRY_WINDOW_MS + 120_000,
  );

  it("refuses an endpoint past WEBHOOK_MAX_ENDPOINTS_PER_KEY with 422, and takes one again after a delete", async () => {
    const key = (await harness.createKey({ scope: "write" })).secret;
    const ids: string[] = [];
    for (let index = 0; index < ENDPOINT_LIMIT; index += 1) {
      ids.push((await subscribe(key, `/limit/${index}`)).id);
    }
    const over = await harness.request("POST", "/api/webhooks", {
      key,
      body: { url: `${receiver.url}/limit/over`, events: ["deposit.confirmed"] },
    });
    expect(over.status).toBe(422);
    expect(over.body).toMatchObject({
      success: false,
      code: "WEBHOOK_LIMIT_REACHED",
      error: `This API key has ${ENDPOINT_LIMIT} webhook endpoints, the most one key may have; delete one first`,
      context: { limit: ENDPOINT_LIMIT },
    });
    await harness.request("DELETE", `/api/webhooks/${ids[0] ?? ""}`, { key });
    expect((await subscribe(key, "/limit/again")).id).toMatch(/^wh_/);
  });

  it("keeps endpoints to their key: another key gets 404, and lists only its own", async () => {
    const mine = await subscribe(writeKey, "/mine");
    const other = (await harness.createKey({ scope: "write" })).secret;
    for (const [method, suffix] of [
      ["GET", ""],
      ["DELETE", ""],
      ["POST", "/rotate-secret"],
      ["POST", "/test"],
      ["GET", "/deliveries"],
    ] as const) {
      const result = await harness.request(method, `/api/webhooks/${mine.id}${suffix}`, { key: other });
      expect(result.status, `${method} ${suffix}`).toBe(404);
      expect(result.body).toMatchObject({ success: false, code: "WEBHOOK_NOT_FOUND" });
    }
    expect(dataOf(await harness.request("GET", "/api/webhooks", { key: other })).webhooks).toEqual([]);
    const listed = dataOf(await harness.request("GET", "/api/webhooks", { key: writeKey })).webhooks as {
      id: string;
      secret?: string;
    }[];
    expect(listed.some((entry) => entry.id === mine.id)).toBe(true);
    expect(listed.every((entry) => entry.secret === undefined)).toBe(true);
    const deleted = await harness.request("DELETE", `/api/webhooks/${mine.id}`, { key: writeKey });
    expect(dataOf(deleted)).toEqual({ id: mine.id, deleted: true });
    expect((await harness.request("GET", `/api/webhooks/${mine.id}`, { key: writeKey })).status).toBe(404);
  });

  it("refuses webhook management through the pages' first-party session (one key shared by every visitor)", async () => {
    const secret = "webhooks-first-party-test-secret-0123456789";
    harness.context.credentialSources = [
      bearerKeySource,
      createFirstPartySessionSource({
        settings: { ...parseSessionSettings({}), sessionSecret: secret, firstPartyRpm: 100 },
      }),
    ];
    const browser = { address: "127.0.0.1", userAgent: "webhooks-test-browser" };
    const headers = {
      "Sec-Fetch-Site": "same-origin",
      "User-Agent": browser.userAgent,
      Cookie: `vg_session=${createSessionToken(secret, Date.now(), browser)}`,
    };
    for (const [method, body] of [
      ["POST", { url: `${receiver.url}/pages`, events: ["deposit.confirmed"] }],
      ["GET", undefined],
    ] as const) {
      const result = await harness.request(method, "/api/webhooks", { headers, body });
      expect(result.status, method).toBe(403);
      expect(result.body).toMatchObject({
        success: false,
        code: "FORBIDDEN",
        error: "Webhooks are managed with a partner API key (Authorization: Bearer)",
      });
    }
  });
});

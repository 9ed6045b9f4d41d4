// Two app instances over one PostgreSQL and one Redis answer as one: a key's limit is counted once
// across both (the excess gets 429 with Retry-After), a page session issued by A is accepted by B
// with no SESSION_SECRET set (the key is shared through the database), one indexer leads and the
// other takes over when it stops, an event A's indexer records reaches a live stream open on B (by
// LISTEN/NOTIFY: B's feed is set not to poll meanwhile), history posted to both is one row, and a
// webhook is delivered once although both instances run a delivery worker. Needs DATABASE_URL and
// REDIS_URL; skipped with a note otherwise.
import { randomBytes } from "node:crypto";

import type { Keypair } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { sharedSessionSecret } from "../../lib/api/session-secret";
import { createSessionToken, type SessionBinding } from "../../lib/api/session-token";
import type { Indexer } from "../../lib/indexer/indexer";
import { createIndexer } from "../../lib/server/indexer";
import { issueSession } from "../../lib/web/session-issue";
import { waitFor } from "../../localnet/testing";
import {
  DATABASE_URL,
  REDIS_URL,
  dataOf,
  startApiHarness,
  uniqueSuffix,
  USDC,
  type ApiHarness,
} from "./harness";
import { startReceiver, type Receiver } from "./webhook-receiver";

const skip = DATABASE_URL === null || REDIS_URL === null;
if (skip) {
  console.warn(
    "multi-instance: DATABASE_URL and REDIS_URL are both needed (two instances share them); skipping",
  );
}

/** What the pages' sessions are configured with here: nothing set, so the database holds the key. */
const SESSION_SETTINGS = {
  sessionSecret: null,
  firstPartyApiKey: null,
  firstPartyRpm: 1_000,
  sessionTtlSeconds: 1_800,
  sessionRpm: 1_000,
  sessionIssueLimit: 1_000,
  sessionIssueWindowSeconds: 600,
};

let first: ApiHarness;
let second: ApiHarness;
let receiver: Receiver;
const indexers: Indexer[] = [];

beforeAll(async () => {
  if (skip) {
    return;
  }
  const rateLimitPrefix = `test:${uniqueSuffix()}`;
  const env = {
    TRUSTED_PROXY_COUNT: "1",
    KEY_CACHE_SECONDS: "60",
    WEBHOOKS: "on",
    WEBHOOK_SECRET_KEY: randomBytes(32).toString("base64"),
  };
  first = await startApiHarness({ rateLimitPrefix, env, localnet: { keeper: { enabled: false } } });
  second = await startApiHarness({
    sharedLocalnet: first.localnet,
    rateLimitPrefix,
    env,
    schema: first.schema,
    // B's feed does not poll within the test: A's events reach it by NOTIFY alone.
    eventPollMs: 600_000,
  });
  receiver = await startReceiver();
}, 120_000);

afterAll(async () => {
  for (const indexer of indexers) {
    await indexer.stop();
  }
  for (const harness of [second, first]) {
    await harness?.context.webhooks.worker.stop();
  }
  await receiver?.close();
  await second?.close();
  await first?.close();
}, 60_000);

function startIndexer(harness: ApiHarness): Indexer {
  const indexer = createIndexer(harness.context, { intervalMs: 200, schema: harness.schema });
  indexers.push(indexer);
  indexer.start();
  return indexer;
}

const BROWSER: SessionBinding = { address: "198.51.100.41", userAgent: "multi-instance-test" };

function pageHeaders(token: string): Record<string, string> {
  return {
    "Sec-Fetch-Site": "same-origin",
    "User-Agent": BROWSER.userAgent,
    "X-Forwarded-For": BROWSER.address,
    Cookie: `vg_session=${token}`,
  };
}

/** The data lines of a text/event-stream, parsed, as they arrive. */
interface LiveStream {
  status: number;
  events: { id: string; type: string; wallet: string | null }[];
  close(): void;
}

async function openStream(harness: ApiHarness, query: string, token: string): Promise<LiveStream> {
  const controller = new AbortController();
  const response = await fetch(`${harness.url}/api/events/stream?${query}`, {
    headers: pageHeaders(token),
    signal: controller.signal,
  });
  const stream: LiveStream = { status: response.status, events: [], close: () => controller.abort() };
  const reader = response.body?.getReader();
  if (response.status !== 200 || reader === undefined) {
    await reader?.cancel();
    return stream;
  }
  const decoder = new TextDecoder();
  let buffer = "";
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) {
          return;
        }
        buffer += decoder.decode(value, { stream: true });
        let end = buffer.indexOf("\n\n");
        while (end >= 0) {
          const lines = buffer.slice(0, end).split("\n");
          const id = lines
            .find((line) => line.startsWith("id:"))
            ?.slice(3)
            .trim();
          const data = lines
            .find((line) => line.startsWith("data:"))
            ?.slice(5)
            .trim();
          if (id !== undefined && data !== undefined) {
            const event = JSON.parse(data) as { type: string; wallet: string | null };
            stream.events.push({ id, type: event.type, wallet: event.wallet });
          }
          buffer = buffer.slice(end + 2);
          end = buffer.indexOf("\n\n");
        }
      }
    } catch {
      // Aborted by close().
    }
  })();
  return stream;
}

async function deposit(via: ApiHarness, key: string, wallet: Keypair, amount: bigint): Promise<string> {
  const built = dataOf(
    await via.request("POST", `/api/vault/${via.flexVaultId}/deposit`, {
      key,
      body: { wallet: wallet.publicKey.toBase58(), amount: amount.toString() },
    }),
  );
  return via.signAndSend(String(built.transaction), wallet);
}

describe.skipIf(skip)("two instances over one PostgreSQL and one Redis", () => {
  it("count one key's limit once: twice its rate from both gets exactly the limit, the rest 429 with Retry-After", async () => {
    const rpm = 12;
    const { secret } = await first.createKey({ scope: "read", rpm });
    const results = await Promise.all(
      Array.from({ length: 2 * rpm }, (_unused, index) =>
        (index % 2 === 0 ? first : second).request("GET", `/api/vault/${first.vaultId}/nav`, { key: secret }),
      ),
    );
    const served = results.filter((result) => result.status === 200);
    const limited = results.filter((result) => result.status === 429);
    expect(served).toHaveLength(rpm);
    expect(limited).toHaveLength(rpm);
    for (const result of limited) {
      expect(Number(result.headers.get("retry-after"))).toBeGreaterThan(0);
    }
  });

  it("lead the indexer from one instance, stream A's recorded events on B with A's session, deliver each webhook once, and fail over when the leader stops", async () => {
    // Both run a delivery worker over the one outbox.
    first.context.webhooks.worker.start();
    second.context.webhooks.worker.start();
    const leader = startIndexer(first);
    await waitFor(() => (leader.isLeader ? true : undefined));
    const follower = startIndexer(second);
    // The follower has tried (and been refused) several times by now.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(leader.isLeader).toBe(true);
    expect(follower.isLeader).toBe(false);

    // A page session issued by A (no SESSION_SECRET, no FIRST_PARTY_API_KEY: the stored key).
    const issued = await issueSession({
      limiter: first.context.limiter,
      settings: SESSION_SETTINGS,
      secret: await sharedSessionSecret(SESSION_SETTINGS, first.context.store),
      binding: BROWSER,
      existing: null,
      nowMs: Date.now(),
    });
    if (issued.outcome !== "issued") {
      throw new Error(`no session issued: ${issued.outcome}`);
    }
    // A token under another key is refused by B: acceptance below is the shared key's doing.
    const forged = await openStream(
      second,
      `vault=${second.flexVaultId}`,
      createSessionToken("another-instance-secret-0123456789abcdef", Date.now(), BROWSER),
    );
    expect(forged.status).toBe(401);

    const writeKey = (await first.createKey({ scope: "write" })).secret;
    const path = "/multi";
    const registered = dataOf(
      await first.request("POST", "/api/webhooks", {
        key: writeKey,
        body: { url: `${receiver.url}${path}`, events: ["deposit.confirmed"] },
      }),
    );
    receiver.secrets.set(path, [String(registered.secret)]);

    const wallet = await first.fundedWallet(100n * USDC);
    const owner = wallet.publicKey.toBase58();
    const stream = await openStream(second, `vault=${second.flexVaultId}&wallet=${owner}`, issued.token);
    try {
      expect(stream.status).toBe(200);
      const deposits = 3;
      const signatures: string[] = [];
      for (let index = 0; index < deposits; index += 1) {
        signatures.push(await deposit(first, writeKey, wallet, BigInt(index + 1) * USDC));
      }
      // The partner records each deposit through both instances at once: one history row each.
      const posts = await Promise.all(
        signatures.flatMap((signature) =>
          [first, second].map((via) =>
            via.request("POST", "/api/history", {
              key: writeKey,
              body: { wallet: owner, vault_id: via.flexVaultId, signature },
            }),
          ),
        ),
      );
      expect(posts.map((post) => post.status)).toEqual(posts.map(() => 200));
      const [history] = await first.context.store.query<{ rows: string; signatures: string }>(
        "SELECT count(*)::text AS rows, count(DISTINCT signature)::text AS signatures FROM history WHERE wallet = $1",
        [owner],
      );
      expect(Number(history?.signatures)).toBe(deposits);
      expect(Number(history?.rows)).toBe(deposits);
      const seen = await waitFor(() => {
        const mine = stream.events.filter((event) => event.type === "deposit.confirmed");
        return mine.length >= deposits ? mine : undefined;
      }, 30_000);
      expect(seen.every((event) => event.wallet === owner)).toBe(true);
      expect(new Set(seen.map((event) => event.id)).size).toBe(deposits);

      const delivered = await waitFor(() => {
        const verified = receiver.verifiedOn(path);
        return verified.length >= deposits ? verified : undefined;
      }, 30_000);
      // Both workers had time to take a second copy: none did.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(receiver.verifiedOn(path)).toHaveLength(delivered.length);
      const ids = receiver.verifiedOn(path).map((entry) => entry.webhookId);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toHaveLength(deposits);

      // History: one row per event, whichever instance recorded it (the leader alone indexes).
      const [events] = await first.context.store.query<{ count: string }>(
        "SELECT count(*)::text AS count FROM partner_events WHERE type = 'deposit.confirmed' AND wallet = $1",
        [owner],
      );
      expect(Number(events?.count)).toBe(deposits);
    } finally {
      stream.close();
    }

    // The leader stops: the follower takes the lock within a few of its runs.
    await leader.stop();
    await waitFor(() => (follower.isLeader ? true : undefined));
    expect(leader.isLeader).toBe(false);
  }, 180_000);
});

// GET /api/events/stream, the pages' server-sent events, over real HTTP: a wallet's deposit, request
// and the keeper's staging and strike arrive as frames (the claimable one included) while another
// wallet's events do not; Last-Event-ID resumes after what a page had; heartbeats; a client that
// leaves frees its stream; the limits per session and per address; refusals (no session, a partner key, bad input).
// The live feed also picks up rows another instance wrote, by polling the table.
import type { Keypair } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { bearerKeySource } from "../../lib/api/credentials";
import {
  configureEventStream,
  DEFAULT_EVENT_STREAM_LIMITS,
  openEventStreams,
} from "../../lib/api/events/event-stream";
import { createFirstPartySessionSource } from "../../lib/api/first-party-session";
import { PartnerEventFeed } from "../../lib/events/feed";
import { partnerEventId, type PartnerEvent } from "../../lib/vault/model/partner-event";
import type { Indexer } from "../../lib/indexer/indexer";
import { createIndexer } from "../../lib/server/indexer";
import { recordPartnerEvents, type StoredPartnerEvent } from "../../lib/store/partner-events";
import { clientNetworkOf } from "../../lib/ip-network";
import { createSessionToken, type SessionBinding } from "../../lib/api/session-token";
import { waitFor } from "../../localnet/testing";
import { dataOf, startApiHarness, USDC, type ApiHarness } from "./harness";

const SESSION_SECRET = "event-stream-test-secret-0123456789abcdef";

let harness: ApiHarness;
let indexer: Indexer;
let writeKey: string;

beforeAll(async () => {
  harness = await startApiHarness({
    // The test's client names its address (X-Forwarded-For behind one trusted proxy): the session is
    // bound to it.
    env: { TRUSTED_PROXY_COUNT: "1" },
    localnet: { keeper: { enabled: true, scheduled: false } },
  });
  harness.context.credentialSources = [
    bearerKeySource,
    createFirstPartySessionSource({
      settings: {
        sessionSecret: SESSION_SECRET,
        firstPartyApiKey: null,
        firstPartyRpm: 1_000,
        sessionTtlSeconds: 1_800,
        sessionRpm: 1_000,
        sessionIssueLimit: 1_000,
        sessionIssueWindowSeconds: 600,
      },
    }),
  ];
  indexer = createIndexer(harness.context, { intervalMs: 200, schema: harness.schema });
  indexer.start();
  writeKey = (await harness.createKey({ scope: "write" })).secret;
}, 60_000);

afterAll(async () => {
  await indexer?.stop();
  await harness?.close();
});

const BROWSER: SessionBinding = { address: "198.51.100.7", userAgent: "event-stream-test" };

function sessionHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return {
    "Sec-Fetch-Site": "same-origin",
    "User-Agent": BROWSER.userAgent,
    "X-Forwarded-For": BROWSER.address,
    Cookie: `vg_session=${createSessionToken(SESSION_SECRET, Date.now(), BROWSER)}`,
    ...extra,
  };
}

interface Frame {
  id: string | null;
  event: string | null;
  data: string | null;
  comment: string | null;
}

/** A text/event-stream reader over fetch: frames as they arrive, until `close`. */
interface EventStream {
  status: number;
  headers: Headers;
  frames: Frame[];
  events(): { id: string; event: PartnerEvent }[];
  close(): void;
  ended: Promise<void>;
}

async function openStream(
  query: string,
  headers: Record<string, string> = sessionHeaders(),
): Promise<EventStream> {
  const controller = new AbortController();
  const response = await fetch(`${harness.url}/api/events/stream?${query}`, {
    headers,
    signal: controller.signal,
  });
  const frames: Frame[] = [];
  const reader = response.body?.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  const ended = (async () => {
    if (reader === undefined) {
      return;
    }
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) {
          return;
        }
        buffer += decoder.decode(value, { stream: true });
        let end = buffer.indexOf("\n\n");
        while (end >= 0) {
          const frame: Frame = { id: null, event: null, data: null, comment: null };
          for (const line of buffer.slice(0, end).split("\n")) {
            if (line.startsWith(":")) {
              frame.comment = line.slice(1).trim();
            } else {
              const colon = line.indexOf(":");
              const field = line.slice(0, colon);
              const text = line.slice(colon + 1).trimStart();
              if (field === "id" || field === "event" || field === "data") {
                frame[field] = text;
              }
            }
          }
          frames.push(frame);
          buffer = buffer.slice(end + 2);
          end = buffer.indexOf("\n\n");
        }
      }
    } catch {
      // Aborted by close().
    }
  })();
  return {
    status: response.status,
    headers: response.headers,
    frames,
    events: () =>
      frames
        .filter((frame) => frame.data !== null && frame.id !== null)
        .map((frame) => ({ id: frame.id ?? "", event: JSON.parse(frame.data ?? "null") as PartnerEvent })),
    close: () => controller.abort(),
    ended,
  };
}

async function build(path: string, body: Record<string, unknown>, wallet: Keypair): Promise<string> {
  const built = dataOf(await harness.request("POST", path, { key: writeKey, body }));
  return harness.signAndSend(String(built.transaction), wallet);
}

function flexVault() {
  const flex = harness.localnet.addresses.vaults.find(
    (vault) => vault.vault.toBase58() === harness.flexVaultId,
  );
  if (flex === undefined) {
    throw new Error("no flex vault");
  }
  return flex;
}

describe("GET /api/events/stream", () => {
  it("streams a wallet's events and its vault's, as the indexer writes them, and resumes after Last-Event-ID", async () => {
    const vault = harness.flexVaultId;
    const wallet = await harness.fundedWallet(100n * USDC);
    const other = await harness.fundedWallet(100n * USDC);
    const owner = wallet.publicKey.toBase58();
    const stream = await openStream(`vault=${vault}&wallet=${owner}`);
    try {
      expect(stream.status).toBe(200);
      expect(stream.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
      expect(stream.headers.get("cache-control")).toBe("no-store");
      await waitFor(() => (stream.frames.some((frame) => frame.comment === "connected") ? true : undefined));

      for (const who of [wallet, other]) {
        const address = who.publicKey.toBase58();
        await build(`/api/vault/${vault}/deposit`, { wallet: address, amount: (10n * USDC).toString() }, who);
      }
      const requested = await build(
        `/api/vault/${vault}/withdraw`,
        { wallet: owner, sharesAmount: "1000000", action: "initiate" },
        wallet,
      );
      await waitFor(
        () => (stream.events().some(({ event }) => event.type === "withdrawal.requested") ? true : undefined),
        30_000,
      );
      const keeper = harness.localnet.keeper;
      if (keeper === null) {
        throw new Error("no keeper");
      }
      await keeper.stageWithdrawals(flexVault().vault);
      await keeper.strikeNav(flexVault().vault);
      const claimable = await waitFor(
        () => stream.events().find(({ event }) => event.type === "withdrawal.claimable"),
        30_000,
      );
      expect(claimable.event.wallet).toBe(owner);
      expect(claimable.event.data.requestSignature).toBe(requested);

      const received = stream.events();
      const mine = received.filter(({ event }) => event.wallet !== null);
      expect(mine.map(({ event }) => event.type)).toEqual([
        "deposit.confirmed",
        "withdrawal.requested",
        "withdrawal.claimable",
      ]);
      expect(received.every(({ event }) => event.vault === vault)).toBe(true);
      expect(received.every(({ event }) => event.wallet === null || event.wallet === owner)).toBe(true);
      expect(received.some(({ event }) => event.type === "vault.nav_updated")).toBe(true);
      const frameOf = stream.frames.find((frame) => frame.id === claimable.id);
      expect(frameOf?.event).toBe("withdrawal.claimable");
      const ids = received.map(({ id }) => BigInt(id));
      expect(ids).toEqual([...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));

      // A page that had the first event gets the rest again, in order, and nothing before it.
      const first = received[0];
      const resumed = await openStream(
        `vault=${vault}&wallet=${owner}`,
        sessionHeaders({ "Last-Event-ID": first?.id ?? "" }),
      );
      try {
        const again = await waitFor(() => {
          const events = resumed.events();
          return events.length >= received.length - 1 ? events : undefined;
        });
        expect(again.map(({ id }) => id)).toEqual(received.slice(1).map(({ id }) => id));
      } finally {
        resumed.close();
      }
    } finally {
      stream.close();
    }
  }, 120_000);

  it("sends heartbeats, and frees a stream when its client leaves or a HEAD asks", async () => {
    configureEventStream(harness.context, { heartbeatMs: 50 });
    try {
      await waitFor(() => (openEventStreams(harness.context) === 0 ? true : undefined));
      const stream = await openStream(`vault=${harness.vaultId}`);
      await waitFor(() => (stream.frames.some((frame) => frame.comment === "keep-alive") ? true : undefined));
      expect(openEventStreams(harness.context)).toBe(1);
      stream.close();
      await waitFor(() => (openEventStreams(harness.context) === 0 ? true : undefined));

      const head = await fetch(`${harness.url}/api/events/stream?vault=${harness.vaultId}`, {
        method: "HEAD",
        headers: sessionHeaders(),
      });
      expect(head.status).toBe(200);
      expect(openEventStreams(harness.context)).toBe(0);
    } finally {
      configureEventStream(harness.context, { heartbeatMs: DEFAULT_EVENT_STREAM_LIMITS.heartbeatMs });
    }
  });

  it("limits open streams per session: a browser's tabs share its session's", async () => {
    configureEventStream(harness.context, { perSession: 2 });
    const streams: EventStream[] = [];
    const tab = sessionHeaders();
    try {
      await waitFor(() => (openEventStreams(harness.context) === 0 ? true : undefined));
      streams.push(
        await openStream(`vault=${harness.vaultId}`, tab),
        await openStream(`vault=${harness.vaultId}`, tab),
      );
      expect(streams.map((stream) => stream.status)).toEqual([200, 200]);
      const refused = await harness.request("GET", `/api/events/stream?vault=${harness.vaultId}`, {
        headers: tab,
      });
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toBe("2");
      expect(refused.body).toMatchObject({
        success: false,
        code: "RATE_LIMITED",
        error: "Too many open event streams: at most 2 per session",
      });
      // Another visitor behind the same address has a session, and streams, of their own.
      streams.push(await openStream(`vault=${harness.vaultId}`, sessionHeaders()));
      expect(streams.at(-1)?.status).toBe(200);
    } finally {
      streams.forEach((stream) => stream.close());
      configureEventStream(harness.context, { perSession: DEFAULT_EVENT_STREAM_LIMITS.perSession });
    }
  });

  it("limits them per address too, sized for an office of thirty behind one address", async () => {
    // Thirty people, four tabs each.
    expect(DEFAULT_EVENT_STREAM_LIMITS).toMatchObject({ perSession: 4, perAddress: 120 });
    configureEventStream(harness.context, { perAddress: 3 });
    const streams: EventStream[] = [];
    try {
      await waitFor(() => (openEventStreams(harness.context) === 0 ? true : undefined));
      for (let visitor = 0; visitor < 3; visitor += 1) {
        streams.push(await openStream(`vault=${harness.vaultId}`, sessionHeaders()));
      }
      expect(streams.map((stream) => stream.status)).toEqual([200, 200, 200]);
      const refused = await harness.request("GET", `/api/events/stream?vault=${harness.vaultId}`, {
        headers: sessionHeaders(),
      });
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({
        code: "RATE_LIMITED",
        error: "Too many open event streams from this network address: at most 3",
      });
    } finally {
      streams.forEach((stream) => stream.close());
      configureEventStream(harness.context, { perAddress: DEFAULT_EVENT_STREAM_LIMITS.perAddress });
    }
  });

  it("counts an IPv6 /64 as one address: its addresses share the open streams", async () => {
    configureEventStream(harness.context, { perAddress: 2 });
    const streams: EventStream[] = [];
    // Each address of the /64 holds a session of its own (bound to the /64, as the pages issue it).
    const headersOf = (address: string): Record<string, string> => {
      const browser = { address: clientNetworkOf(address), userAgent: BROWSER.userAgent };
      return {
        ...sessionHeaders(),
        "X-Forwarded-For": address,
        Cookie: `vg_session=${createSessionToken(SESSION_SECRET, Date.now(), browser)}`,
      };
    };
    try {
      await waitFor(() => (openEventStreams(harness.context) === 0 ? true : undefined));
      streams.push(
        await openStream(`vault=${harness.vaultId}`, headersOf("2001:db8:5:6::1")),
        await openStream(`vault=${harness.vaultId}`, headersOf("2001:db8:5:6:aaaa::2")),
      );
      expect(streams.map((stream) => stream.status)).toEqual([200, 200]);
      const refused = await harness.request("GET", `/api/events/stream?vault=${harness.vaultId}`, {
        headers: headersOf("2001:db8:5:6:ffff:ffff:ffff:3"),
      });
      expect(refused.status).toBe(429);
      // Another /64 has its own.
      streams.push(await openStream(`vault=${harness.vaultId}`, headersOf("2001:db8:5:7::1")));
      expect(streams.at(-1)?.status).toBe(200);
    } finally {
      streams.forEach((stream) => stream.close());
      configureEventStream(harness.context, { perAddress: DEFAULT_EVENT_STREAM_LIMITS.perAddress });
    }
  });

  interface Refusal {
    name: string;
    path: string;
    /** partner: a bearer key; session: a valid page session; else these headers (with a session when resuming). */
    headers: "partner" | "session" | Record<string, string>;
    status: number;
    code: string;
    error?: string;
  }
  const refusals: Refusal[] = [
    {
      name: "no session",
      path: `/api/events/stream?vault=VAULT`,
      headers: {},
      status: 401,
      code: "UNAUTHORIZED",
      error: "Missing API key: send Authorization: Bearer <API_KEY>",
    },
    {
      name: "an expired session",
      path: `/api/events/stream?vault=VAULT`,
      headers: {
        "Sec-Fetch-Site": "same-origin",
        "User-Agent": BROWSER.userAgent,
        "X-Forwarded-For": BROWSER.address,
        Cookie: `vg_session=${createSessionToken(SESSION_SECRET, Date.now() - 400 * 86_400_000, BROWSER)}`,
      },
      status: 401,
      code: "UNAUTHORIZED",
      error: "Your session with this app has expired; reload the page",
    },
    {
      name: "a partner key",
      path: `/api/events/stream?vault=VAULT`,
      headers: "partner",
      status: 403,
      code: "FORBIDDEN",
      error: "The event stream serves the app's own pages; partners receive webhooks or read GET /api/events",
    },
    {
      name: "no vault",
      path: "/api/events/stream",
      headers: "session",
      status: 400,
      code: "INVALID_REQUEST",
      error: "vault: is required",
    },
    {
      name: "a bad wallet",
      path: "/api/events/stream?vault=VAULT&wallet=nope",
      headers: "session",
      status: 400,
      code: "INVALID_REQUEST",
      error: "wallet: must be a base58 public key",
    },
    {
      name: "an unknown parameter",
      path: "/api/events/stream?vault=VAULT&after=3",
      headers: "session",
      status: 400,
      code: "INVALID_REQUEST",
    },
    {
      name: "a Last-Event-ID this stream never sent",
      path: "/api/events/stream?vault=VAULT",
      headers: { "Last-Event-ID": "evt_123" },
      status: 400,
      code: "INVALID_REQUEST",
      error: "Last-Event-ID: must be an event id this stream sent",
    },
  ];
  it.each(refusals)("refuses $name", async ({ path, headers, status, code, error }) => {
    const sent =
      headers === "partner"
        ? { Authorization: `Bearer ${writeKey}` }
        : headers === "session"
          ? sessionHeaders()
          : "Last-Event-ID" in headers
            ? sessionHeaders(headers)
            : headers;
    const result = await harness.request("GET", path.replace("VAULT", harness.vaultId), { headers: sent });
    expect(result.status).toBe(status);
    expect(result.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(result.body).toMatchObject({
      success: false,
      code,
      ...(error === undefined ? {} : { error }),
    });
    expect(openEventStreams(harness.context)).toBe(0);
  });
});

describe("the live event feed", () => {
  it("picks up rows another instance wrote by polling, oldest first, and only its vault's and wallet's", async () => {
    const feed = new PartnerEventFeed(harness.context.store, { pollMs: 50 });
    const vault = "Feed111111111111111111111111111111111111111";
    const received: StoredPartnerEvent[] = [];
    const stop = feed.subscribe({ vault, wallet: "WalletA" }, null, (entry) => received.push(entry));
    // A page that names an id beyond the table (another deployment's) gets nothing up to it.
    const ahead: StoredPartnerEvent[] = [];
    const stopAhead = feed.subscribe({ vault, wallet: null }, 1n << 62n, (entry) => ahead.push(entry));
    try {
      await waitFor(() => (feed.listeners === 2 ? true : undefined));
      await feed.idle();
      const event = (index: number, wallet: string | null, on = vault): PartnerEvent => ({
        id: partnerEventId("vault.nav_updated", "feed-test", on, index),
        type: "vault.nav_updated",
        timestamp: new Date().toISOString(),
        vault: on,
        wallet,
        signature: null,
        slot: null,
        data: { index },
      });
      const database = await harness.context.store.ready();
      // Written as another instance's indexer would: nothing wakes this feed.
      await database.transaction((tx) =>
        recordPartnerEvents(tx, [
          event(1, null),
          event(2, "WalletB"),
          event(3, "WalletA"),
          event(4, null, "Other11111111111111111111111111111111111111"),
        ]),
      );
      await waitFor(() => (received.length >= 2 ? true : undefined));
      await feed.idle();
      expect(received.map((entry) => entry.event.data.index)).toEqual([1, 3]);
      expect(ahead).toEqual([]);
    } finally {
      stop();
      stopAhead();
      feed.close();
    }
  });
});

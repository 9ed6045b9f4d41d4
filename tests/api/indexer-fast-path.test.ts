// The indexer's fast path over the local chain's real PubSub endpoint: with an interval of an hour,
// a deposit's partner event is indexed because the program's logs woke the indexer, by a pass of new
// transactions (the scheduled pass ran once, at start).
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { Indexer } from "../../lib/indexer/indexer";
import { defaultIndexerWsUrl, parseIndexerSettings } from "../../lib/indexer/settings";
import { createIndexer } from "../../lib/server/indexer";
import { listPartnerEvents } from "../../lib/store/partner-events";
import { waitFor } from "../../localnet/testing";
import { dataOf, startApiHarness, USDC, type ApiHarness } from "./harness";

let harness: ApiHarness;
let indexer: Indexer;

beforeAll(async () => {
  harness = await startApiHarness();
  indexer = createIndexer(harness.context, {
    intervalMs: 3_600_000,
    schema: harness.schema,
    wsUrl: harness.localnet.wsUrl,
  });
  indexer.start();
}, 60_000);

afterAll(async () => {
  await indexer?.stop();
  await harness?.close();
});

describe("the indexer woken by the program's logs", () => {
  it("indexes a deposit at once, long before its next scheduled pass", async () => {
    await waitFor(() => (indexer.watching && indexer.runs === 1 ? true : undefined), 30_000);
    const key = (await harness.createKey({ scope: "write" })).secret;
    const wallet = await harness.fundedWallet(100n * USDC);
    const owner = wallet.publicKey.toBase58();
    const built = dataOf(
      await harness.request("POST", `/api/vault/${harness.vaultId}/deposit`, {
        key,
        body: { wallet: owner, amount: (10n * USDC).toString() },
      }),
    );
    const signature = await harness.signAndSend(String(built.transaction), wallet);
    const deposited = await waitFor(async () => {
      const events = await listPartnerEvents(harness.context.store, {
        after: 0n,
        limit: 100,
        audience: { vaults: null, wallet: owner, partner: null },
        types: ["deposit.confirmed"],
      });
      return events[0];
    });
    expect(deposited.event.signature).toBe(signature);
    // Only the first scheduled pass ran (before the deposit): a woken pass wrote the event, and is
    // counted once it has gone through every vault.
    expect(indexer.runs).toBe(1);
    await waitFor(() => (indexer.wokenRuns >= 1 ? true : undefined));
  });
});

describe("INDEXER_WS_URL", () => {
  it("names the endpoint, turns the fast path off, or defaults to the node's own", () => {
    const rpcUrl = "https://rpc.example.com:8899/?api-key=abc";
    const none = { LOCALNET_ADDRESSES_FILE: "/nonexistent/addresses.json" };
    expect(parseIndexerSettings({ ...none, INDEXER_WS_URL: "wss://ws.example.com/x" }, rpcUrl).wsUrl).toBe(
      "wss://ws.example.com/x",
    );
    expect(parseIndexerSettings({ ...none, INDEXER_WS_URL: "off" }, rpcUrl).wsUrl).toBeNull();
    expect(parseIndexerSettings(none, rpcUrl).wsUrl).toBe("wss://rpc.example.com:8900/?api-key=abc");
    expect(() => parseIndexerSettings({ ...none, INDEXER_WS_URL: "https://x.example.com" }, rpcUrl)).toThrow(
      "Invalid configuration: INDEXER_WS_URL must be a ws:// or wss:// URL, or off",
    );
    // The localnet's own PubSub port, from its addresses file, when RPC_URL is that chain.
    const env = { LOCALNET_ADDRESSES_FILE: harness.localnet.config.addressesFile };
    expect(defaultIndexerWsUrl(env, `${harness.localnet.rpcUrl}/?api-key=private`)).toBe(
      harness.localnet.wsUrl,
    );
  });
});

// When the chain or PostgreSQL is unreachable, requests get a 503 in the envelope by the server's own
// deadline (RPC_TIMEOUT_MS, DATABASE_TIMEOUT_MS: 2 s; never a hang), health says which part is down, and service comes back by itself when they do; what needs no
// chain (the recorded history of an indexed vault) is still served. The chain
// and the database sit behind TCP proxies the test cuts. The database part needs DATABASE_URL.
import { Keypair } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { createIndexer } from "../../lib/server/indexer";
import { startTestLocalnet, waitFor } from "../../localnet/testing";
import type { LocalnetHandle } from "../../localnet/localnet";
import { DATABASE_URL, startApiHarness, type ApiHarness, type HttpResult } from "./harness";
import { startTcpProxy, type TcpProxy } from "./tcp-proxy";

let localnet: LocalnetHandle;
let chainProxy: TcpProxy;
let databaseProxy: TcpProxy | null = null;
let harness: ApiHarness;
let key: string;

/** GET /api/health until it answers `status` (its checks are a second apart; a busy machine takes longer). */
async function healthOnce(status: number): Promise<HttpResult> {
  return waitFor(async () => {
    const health = await harness.request("GET", "/api/health");
    return health.status === status ? health : undefined;
  });
}

beforeAll(async () => {
  localnet = await startTestLocalnet();
  chainProxy = await startTcpProxy("127.0.0.1", Number(new URL(localnet.rpcUrl).port));
  const env: Record<string, string> = {
    RPC_URL: `http://127.0.0.1:${chainProxy.port}`,
    KEY_CACHE_SECONDS: "300",
  };
  if (DATABASE_URL !== null) {
    const target = new URL(DATABASE_URL);
    databaseProxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
    target.host = `127.0.0.1:${databaseProxy.port}`;
    env.DATABASE_URL = target.toString();
  }
  harness = await startApiHarness({ sharedLocalnet: localnet, env });
  key = (await harness.createKey({ scope: "write" })).secret;
});

afterAll(async () => {
  chainProxy?.setMode("forward");
  databaseProxy?.setMode("forward");
  await harness?.close();
  await chainProxy?.close();
  await databaseProxy?.close();
  await localnet?.stop();
});

/**
 * Longer than any answer by the server's 2 s deadlines on a busy machine, far shorter than a hang (a
 * blackholed connection without a deadline waits for the OS's TCP timeout, minutes).
 */
const HANG_MS = 30_000;

async function timed(work: () => Promise<HttpResult>): Promise<{ result: HttpResult; ms: number }> {
  const startedAt = performance.now();
  const result = await work();
  return { result, ms: performance.now() - startedAt };
}

const statusPath = (): string =>
  `/api/vault/${harness.vaultId}/withdraw?wallet=${Keypair.generate().publicKey.toBase58()}`;

describe("the chain unreachable", () => {
  it.each(["blackhole", "refuse"] as const)(
    "answers 503 by its deadline (not a hang) while it is a %s, and recovers",
    async (mode) => {
      expect((await harness.request("GET", statusPath(), { key })).status).toBe(200);
      chainProxy.setMode(mode);
      const { result, ms } = await timed(() => harness.request("GET", statusPath(), { key }));
      expect(result.status).toBe(503);
      expect(result.body).toMatchObject({
        success: false,
        code: "CHAIN_UNAVAILABLE",
        error: "The blockchain node is unreachable; try again shortly",
      });
      expect(ms).toBeLessThan(HANG_MS);
      // Health answers from a check up to a second old: the next check sees the fault.
      const health = await healthOnce(503);
      expect(health.status).toBe(503);
      expect(health.body).toMatchObject({
        success: false,
        data: { chain: { ok: false }, store: { ok: true } },
      });

      chainProxy.setMode("forward");
      expect((await harness.request("GET", statusPath(), { key })).status).toBe(200);
      expect((await healthOnce(200)).status).toBe(200);
    },
  );

  it("still serves a wallet's recorded history of an indexed vault: it needs only the store", async () => {
    const indexer = createIndexer(harness.context, { intervalMs: 60_000, schema: harness.schema });
    try {
      await indexer.runOnce();
    } finally {
      await indexer.stop();
    }
    const feed = `/api/history?wallet=${Keypair.generate().publicKey.toBase58()}&vault_id=${harness.vaultId}`;
    chainProxy.setMode("blackhole");
    try {
      // Past the account cache's stale window: the vault is not read from the chain again.
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      const callsBefore = harness.context.rpc.counts.request;
      const result = await harness.request("GET", feed, { key });
      expect(result.status).toBe(200);
      expect(result.body).toMatchObject({ success: true, data: { activity: [], nextCursor: null } });
      // Served without asking the chain at all (so without waiting for it), on any machine.
      expect(harness.context.rpc.counts.request).toBe(callsBefore);
      // An address the indexer does not know still needs the chain to be told from a vault.
      const unknown = `/api/history?wallet=${Keypair.generate().publicKey.toBase58()}&vault_id=${Keypair.generate().publicKey.toBase58()}`;
      expect((await harness.request("GET", unknown, { key })).status).toBe(503);
    } finally {
      chainProxy.setMode("forward");
    }
  });
});

describe.skipIf(DATABASE_URL === null)("PostgreSQL unreachable", () => {
  it.each(["blackhole", "refuse"] as const)(
    "answers 503 by its deadline (not a hang) while it is a %s, and recovers",
    async (mode) => {
      const proxy = databaseProxy;
      if (proxy === null) {
        return;
      }
      const feed = `/api/history?wallet=${Keypair.generate().publicKey.toBase58()}&vault_id=${harness.vaultId}`;
      expect((await harness.request("GET", feed, { key })).status).toBe(200);
      proxy.setMode(mode);
      const { result, ms } = await timed(() => harness.request("GET", feed, { key }));
      expect(result.status).toBe(503);
      expect(result.body).toMatchObject({ success: false, code: "STORE_UNAVAILABLE" });
      expect(ms).toBeLessThan(HANG_MS);

      proxy.setMode("forward");
      expect((await harness.request("GET", feed, { key })).status).toBe(200);
    },
  );
});

// The server side of `npm run bench:api`, in its own process so the load generator does not share
// its CPU: a localnet, the API on the lean node:http host (PGlite in memory, in-process limits, logs
// off) and a bare node:http server answering a constant JSON body. Reports over IPC.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

import { parseConfig } from "../lib/config";
import { createApiContext } from "../lib/api/context";
import { createLogger } from "../lib/api/logger";
import { startNodeHost } from "../lib/api/node-host";
import { createApiHandler } from "../lib/api/router";
import { ROUTE_TABLE } from "../lib/api/routes";
import { startTestLocalnet } from "../localnet/testing";

export interface BenchServerReady {
  type: "ready";
  bareUrl: string;
  apiUrl: string;
  rpcUrl: string;
  wsUrl: string;
  faucetUrl: string;
  vaultId: string;
  apiKey: string;
}

export interface BenchServerCounts {
  type: "counts";
  request: number;
  background: number;
}

async function main(): Promise<void> {
  const localnet = await startTestLocalnet({ slotMs: 400 });
  const config = parseConfig({
    RPC_URL: localnet.rpcUrl,
    LOCALNET_ADDRESSES_FILE: localnet.config.addressesFile,
    PGLITE_DIR: ":memory:",
    LOG_LEVEL: "silent",
  });
  // The keyless limit is raised so the limiter runs on every request without refusing one client.
  const context = createApiContext(config, {
    logger: createLogger("silent"),
    publicLimit: { limit: 1_000_000_000, windowSeconds: 5 },
  });
  await context.store.ready();
  const { secret } = await context.store.keys.create({ name: "bench", scope: "write", rpm: 100_000_000 });
  const api = await startNodeHost(createApiHandler(ROUTE_TABLE, context), { host: "127.0.0.1", port: 0 });

  const constant = JSON.stringify({ sharePrice: 1.0123 });
  const bare = createServer((_request, response) => {
    response.writeHead(200, { "Content-Type": "application/json" }).end(constant);
  });
  await new Promise<void>((resolve) => bare.listen(0, "127.0.0.1", () => resolve()));

  process.on("message", (message: { type?: string }) => {
    if (message.type === "counts") {
      process.send?.({ type: "counts", ...context.rpc.counts } satisfies BenchServerCounts);
    } else if (message.type === "stop") {
      bare.close();
      void api
        .close(1_000)
        .then(() => context.close())
        .then(() => localnet.stop())
        .finally(() => process.exit(0));
    }
  });
  const vault = localnet.addresses.vaults[0];
  process.send?.({
    type: "ready",
    bareUrl: `http://127.0.0.1:${(bare.address() as AddressInfo).port}`,
    apiUrl: api.url,
    rpcUrl: localnet.rpcUrl,
    wsUrl: localnet.wsUrl,
    faucetUrl: localnet.faucetUrl,
    vaultId: vault?.vault.toBase58() ?? "",
    apiKey: secret,
  } satisfies BenchServerReady);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

// npm run keeper -- --url <rpc> --keypair <manager.json> --nav-source <simulated:<apy>|file:<path>|http(s)://…>
//   (--protocol <address> | --vault <address>…) [--mint-authority <file>] [--nav-interval <s>] [--stage-interval <s>]
//   [--stage-max-shares <raw>] [--deliver-max <n>] [--check-url <rpc>] [--check-max-slot-lag <slots>] [--tick <s>]
//   [--metrics-port <port>] [--metrics-host <host>] [--name <name>]
// The manager's service (lib/keeper/keeper.ts). With DATABASE_URL, keepers of the same manager share a
// Postgres advisory lock: one leads, the others wait and take over when it goes. GET /metrics on
// --metrics-port (KEEPER_METRICS_PORT; METRICS_TOKEN guards it when set). It delivers up to --deliver-max
// claimable withdrawals per vault and pass (default 10; 0 leaves claims to their owners), and with
// --check-url (KEEPER_CHECK_RPC_URL) strikes only when a second RPC reads the same vault assets.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

import { parseEnv } from "../lib/config";
import { KEEPER_LOCK_CLASS, postgresLeaderLock, soleLeaderLock } from "../lib/indexer/leader-lock";
import { DEFAULT_KEEPER_SETTINGS, Keeper } from "../lib/keeper/keeper";
import { parseNavSource } from "../lib/keeper/nav-source";
import { METRICS_PATH } from "../lib/server/http-metrics";
import { answerMetrics, observeRpcCall } from "../lib/observability/metrics";
import { ChainClient } from "../lib/operator/chain-client";
import { parseCommandLine, UsageError } from "../lib/cli/args";
import { requireFlag, resolveCluster, runCommand } from "../lib/operator/cli";
import { OperatorError } from "../lib/operator/errors";
import { readKeypairFile } from "../lib/operator/keypair-file";
import { parseAddress } from "../lib/operator/vault-cli";
import { VAULT_PROGRAM_ID } from "../lib/vault/program/idl";

const KEEPER_USAGE = `Usage: npm run keeper -- --url <rpc> --keypair <manager.json> --nav-source <simulated:<apy>|file:<path>|http(s)://…>
  (--protocol <address> | --vault <address>…) [--mint-authority <file>] [--nav-interval <s>] [--stage-interval <s>]
  [--stage-max-shares <raw>] [--deliver-max <n>] [--check-url <rpc>] [--check-max-slot-lag <slots>] [--tick <s>]
  [--metrics-port <port>] [--metrics-host <host>] [--name <name>]`;

function positiveInteger(flag: string, text: string | undefined, fallback: number): number {
  if (text === undefined) {
    return fallback;
  }
  if (!/^\d+$/.test(text) || Number(text) < 1) {
    throw new UsageError(`${flag} must be a positive integer; got "${text}"`);
  }
  return Number(text);
}

function count(flag: string, text: string | undefined, fallback: number): number {
  if (text === undefined || text === "") {
    return fallback;
  }
  if (!/^\d+$/.test(text) || Number(text) > 1_000_000) {
    throw new UsageError(`${flag} must be a whole number; got "${text}"`);
  }
  return Number(text);
}

function portNumber(text: string): number {
  if (!/^\d+$/.test(text) || Number(text) > 65_535) {
    throw new UsageError(`--metrics-port must be a port number (0 picks a free one); got "${text}"`);
  }
  return Number(text);
}

function startMetricsServer(host: string, port: number, metricsToken: string | null): Promise<string> {
  const server = createServer((request, response) => {
    const pathname = (request.url ?? "/").split("?", 1)[0];
    if (pathname !== METRICS_PATH) {
      response.writeHead(404, { "Content-Type": "text/plain" }).end("not found\n");
      return;
    }
    void answerMetrics(request.headers.authorization ?? null, metricsToken).then((answer) => {
      response.writeHead(answer.status, answer.headers).end(answer.body);
    });
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.unref();
      resolve(`http://${host}:${(server.address() as AddressInfo).port}${METRICS_PATH}`);
    });
  });
}

async function main(): Promise<void> {
  const { values } = parseCommandLine(process.argv.slice(2), {
    url: { type: "string" },
    keypair: { type: "string" },
    "nav-source": { type: "string" },
    vault: { type: "string", multiple: true },
    protocol: { type: "string" },
    "mint-authority": { type: "string" },
    "nav-interval": { type: "string" },
    "stage-interval": { type: "string" },
    "stage-max-shares": { type: "string" },
    tick: { type: "string" },
    "deliver-max": { type: "string" },
    "check-url": { type: "string" },
    "check-max-slot-lag": { type: "string" },
    "metrics-port": { type: "string" },
    "metrics-host": { type: "string" },
    name: { type: "string" },
  });
  const cluster = resolveCluster(values.url, process.env);
  const manager = await readKeypairFile(requireFlag(values.keypair, "--keypair"), "manager keypair");
  const navSource = parseNavSource(requireFlag(values["nav-source"], "--nav-source"));
  const mintAuthority =
    values["mint-authority"] === undefined
      ? undefined
      : await readKeypairFile(values["mint-authority"], "mint authority keypair");
  if ((values.vault === undefined) === (values.protocol === undefined)) {
    throw new OperatorError(
      "name what to keep: --protocol <address> (every vault of it this manager manages) or --vault <address>…",
    );
  }
  const vaults =
    values.vault === undefined
      ? { protocol: parseAddress("--protocol", values.protocol) }
      : values.vault.map((text) => parseAddress("--vault", text));
  // The deployment's variables the keeper shares with the API (the one schema: a bad value fails here).
  const env = parseEnv(process.env);
  const stageMaxText = values["stage-max-shares"];
  if (stageMaxText !== undefined && !/^\d+$/.test(stageMaxText)) {
    throw new UsageError(`--stage-max-shares must be raw share units; got "${stageMaxText}"`);
  }
  const settings = {
    navIntervalSeconds: positiveInteger(
      "--nav-interval",
      values["nav-interval"],
      DEFAULT_KEEPER_SETTINGS.navIntervalSeconds,
    ),
    stageIntervalSeconds: positiveInteger(
      "--stage-interval",
      values["stage-interval"],
      DEFAULT_KEEPER_SETTINGS.stageIntervalSeconds,
    ),
    stageMaxShares:
      stageMaxText === undefined ? DEFAULT_KEEPER_SETTINGS.stageMaxShares : BigInt(stageMaxText),
    tickSeconds: positiveInteger("--tick", values.tick, DEFAULT_KEEPER_SETTINGS.tickSeconds),
    deliverMaxPerPass: count(
      "--deliver-max",
      values["deliver-max"],
      DEFAULT_KEEPER_SETTINGS.deliverMaxPerPass,
    ),
    checkMaxSlotLag: count(
      "--check-max-slot-lag",
      values["check-max-slot-lag"] ?? env.KEEPER_CHECK_MAX_SLOT_LAG?.toString(),
      DEFAULT_KEEPER_SETTINGS.checkMaxSlotLag,
    ),
  };
  const databaseUrl = env.DATABASE_URL;
  // One leader per program and manager: keepers of other managers do not wait on each other.
  const lock =
    databaseUrl === undefined
      ? soleLeaderLock()
      : postgresLeaderLock(
          databaseUrl,
          `keeper:${VAULT_PROGRAM_ID.toBase58()}:${manager.publicKey.toBase58()}`,
          5_000,
          KEEPER_LOCK_CLASS,
        );
  const metricsPortText = values["metrics-port"] ?? process.env.KEEPER_METRICS_PORT;
  const metricsUrl =
    metricsPortText === undefined || metricsPortText === ""
      ? null
      : await startMetricsServer(
          values["metrics-host"] ?? "127.0.0.1",
          portNumber(metricsPortText),
          env.METRICS_TOKEN ?? null,
        );
  const client = new ChainClient(cluster.rpcUrl, { observe: observeRpcCall });
  const checkUrl = values["check-url"] ?? env.KEEPER_CHECK_RPC_URL;
  if (checkUrl !== undefined && !/^https?:\/\//.test(checkUrl)) {
    throw new OperatorError(`--check-url must be an http(s) RPC URL; got "${checkUrl}"`);
  }
  const checkClient =
    checkUrl === undefined ? undefined : new ChainClient(checkUrl, { observe: observeRpcCall });
  const name = values.name ?? `${manager.publicKey.toBase58().slice(0, 8)}:${process.pid}`;
  const keeper = new Keeper({
    client,
    manager,
    navSource,
    lock,
    vaults,
    mintAuthority,
    checkClient,
    settings,
    name,
    log: (line) => console.log(`${new Date().toISOString()} ${line}`),
  });
  console.log(
    `keeper ${name}: manager ${manager.publicKey.toBase58()} on ${cluster.name} (${cluster.rpcUrl}); NAV from ${navSource.description} every ${settings.navIntervalSeconds} s, staging every ${settings.stageIntervalSeconds} s; ${databaseUrl === undefined ? "sole keeper (no DATABASE_URL)" : "leader by Postgres advisory lock"}${metricsUrl === null ? "" : `; metrics ${metricsUrl}`}`,
  );
  console.log(
    checkClient === undefined
      ? `keeper ${name}: the second-RPC check is off (no KEEPER_CHECK_RPC_URL or --check-url): strikes trust ${cluster.rpcUrl} alone`
      : `keeper ${name}: strikes only when ${checkUrl} reads the same vault assets (at most ${settings.checkMaxSlotLag} slots apart)`,
  );
  console.log(
    settings.deliverMaxPerPass === 0
      ? `keeper ${name}: delivering no claims (--deliver-max 0): owners claim`
      : `keeper ${name}: delivering up to ${settings.deliverMaxPerPass} claimable withdrawals per vault and pass`,
  );
  keeper.start();
  await new Promise<void>((resolve) => {
    const stop = (signal: string): void => {
      console.log(`keeper ${name}: ${signal}, stopping after the current cycle`);
      keeper.stop().then(resolve, resolve);
    };
    process.once("SIGINT", () => stop("SIGINT"));
    process.once("SIGTERM", () => stop("SIGTERM"));
  });
}

runCommand("keeper", KEEPER_USAGE, main);

// The browser tests' world, as `npm run dev` builds it but on free ports: a local chain with a fast
// keeper, the app (a production build served by scripts/web.ts, or its dev mode with E2E_SERVER=dev)
// pointed at it, and two pages on other origins: a partner allowed to frame the embed, and a
// stranger who is not. The app and the browser reach the chain's RPC and WebSocket through a proxy a
// test can pause (e2e/support/chain.ts pauseChain), as a stalled node would be: connections are taken
// and never answered. The server's RPC URL carries a fake provider key and the session secret is
// set, so the tests can check neither reaches a browser. The app's embedded store is a fresh directory,
// so that `npm run keys` reaches it through the running app, as an operator's does: a partner's key is
// made that way for the embed's `?partner=`.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createWriteStream, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

import { Keypair, PublicKey } from "@solana/web3.js";
import type { TestProject } from "vitest/node";

import { findAssociatedTokenAddress } from "../../lib/chain/spl-token";
import { startTcpProxy, type TcpProxy } from "../../tests/api/tcp-proxy";

import { fundFromFaucet } from "./chain";
import type { E2eEnvironment, E2ePartner } from "./environment";
import {
  REPO_ROOT,
  appEnv,
  buildApp,
  freePort,
  listen,
  startApp,
  startLocalnet,
  stop,
  type AppMode,
} from "./world";

const ARTIFACTS_DIR = join(REPO_ROOT, "e2e/artifacts");
const NAV_INTERVAL_SECONDS = 20;
const STAGE_INTERVAL_SECONDS = 3;
// 30 shares a step: a 100-share request is funded over four steps, so its progress visibly moves.
const STAGE_MAX_SHARES = 30_000_000_000n; // shares have 9 decimals
/** 150 slots of 100 ms: a blockhash expires 15 s after it was issued. */
const SLOT_MS = 100;

/** A partner's page: the iframe and the host snippet of docs/partner.md (resize, events), which also keeps the messages. */
function framingPage(title: string, frameUrl: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>
<body style="margin:0;font-family:sans-serif;background:#fafaf9">
<header style="padding:12px 16px;background:#1c1917;color:#fff">${title}</header>
<iframe id="vault" title="Vault" src="${frameUrl}" style="width:100%;height:1200px;border:0"></iframe>
<script>
  window.vaultMessages = [];
  window.addEventListener("message", (event) => {
    if (event.origin !== ${JSON.stringify(new URL(frameUrl).origin)} || event.data?.source !== "vault-gateway") return;
    window.vaultMessages.push(event.data);
    if (event.data.type === "resize") document.getElementById("vault").style.height = event.data.height + "px";
  });
</script>
</body></html>`;
}

/** A tiny site on another origin: `/` frames the embed, `/site` frames a site page (refused). */
function partnerSite(title: string, appUrl: string, vaultId: string): Server {
  return createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://partner").pathname;
    const frame =
      path === "/site"
        ? `${appUrl}/vault/${vaultId}`
        : `${appUrl}/embed/vault/${vaultId}?theme=dark&accent=%23ea580c`;
    response.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end(framingPage(title, frame));
  });
}

const PARTNER_FEE_BPS = 25;

/**
 * A partner with a 25 bps fee, as an operator makes one: a new wallet whose USDC account the faucet
 * opens (with 1 raw unit: a deposit paying a partner needs the account to exist), and a key made by
 * `npm run keys -- create … --partner-wallet --partner-fee-bps` in the running app's store.
 */
async function makePartner(
  appEnvironment: NodeJS.ProcessEnv,
  faucetUrl: string,
  rpcUrl: string,
): Promise<E2ePartner> {
  const wallet = Keypair.generate().publicKey.toBase58();
  await fundFromFaucet(faucetUrl, rpcUrl, wallet, 1n);
  const faucet = (await (await fetch(faucetUrl)).json()) as { mint: string };
  const tokenAccount = findAssociatedTokenAddress(new PublicKey(wallet), new PublicKey(faucet.mint));
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      "scripts/run-bundled.mjs",
      "scripts/keys.ts",
      "create",
      "--name",
      "e2e-partner",
      "--scope",
      "read",
      "--partner-wallet",
      wallet,
      "--partner-fee-bps",
      String(PARTNER_FEE_BPS),
    ],
    { cwd: REPO_ROOT, env: appEnvironment },
  );
  const keyId = /^(key_[1-9A-HJ-NP-Za-km-z]+) /m.exec(stdout)?.[1];
  if (keyId === undefined || !stdout.includes(`partner: ${wallet} (${PARTNER_FEE_BPS} bps on deposits)`)) {
    throw new Error(`npm run keys did not make the partner's key:\n${stdout}`);
  }
  return { keyId, wallet, tokenAccount: tokenAccount.toBase58(), feeBps: PARTNER_FEE_BPS };
}

function close(server: Server): Promise<void> {
  return new Promise((done) => server.close(() => done()));
}

/** POST /pause blackholes the chain's proxies (open connections cut, new ones never answered); POST /resume forwards again. */
function chainControl(proxies: readonly TcpProxy[]): Server {
  return createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://control").pathname;
    if (request.method !== "POST" || (path !== "/pause" && path !== "/resume")) {
      response.writeHead(404).end();
      return;
    }
    for (const proxy of proxies) {
      proxy.setMode(path === "/pause" ? "blackhole" : "forward");
    }
    response.writeHead(204).end();
  });
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const chainLog = createWriteStream(join(ARTIFACTS_DIR, "localnet.log"));
  const appLog = createWriteStream(join(ARTIFACTS_DIR, "app.log"));
  const localnet = await startLocalnet({
    slotMs: SLOT_MS,
    navIntervalSeconds: NAV_INTERVAL_SECONDS,
    stageIntervalSeconds: STAGE_INTERVAL_SECONDS,
    stageMaxShares: STAGE_MAX_SHARES,
    log: chainLog,
  });
  const [prime, flex] = localnet.vaults;
  if (prime === undefined || flex === undefined) {
    await stop(localnet.child);
    throw new Error("The localnet has no demo vaults (is programs/vault/vault.so built?)");
  }

  // The app on "localhost", the partner pages on "127.0.0.1": different sites, as in production.
  const appPort = await freePort();
  const appUrl = `http://localhost:${appPort}`;
  const partner = partnerSite("Partner site", appUrl, prime.id);
  const stranger = partnerSite("Stranger site", appUrl, prime.id);
  const partnerUrl = `http://127.0.0.1:${await listen(partner, "127.0.0.1")}`;
  const strangerUrl = `http://127.0.0.1:${await listen(stranger, "127.0.0.1")}`;

  const rpcProxy = await startTcpProxy("127.0.0.1", Number(new URL(localnet.rpcUrl).port));
  const wsProxy = await startTcpProxy("127.0.0.1", Number(new URL(localnet.wsUrl).port));
  const control = chainControl([rpcProxy, wsProxy]);
  const chainControlUrl = `http://127.0.0.1:${await listen(control, "127.0.0.1")}`;
  const rpcUrl = `http://127.0.0.1:${rpcProxy.port}`;
  const wsUrl = `ws://127.0.0.1:${wsProxy.port}`;
  const closeChainProxies = async () => {
    await Promise.all([rpcProxy.close(), wsProxy.close(), close(control)]);
  };

  const privateRpcUrl = `${rpcUrl}/?api-key=e2e-private-${randomBytes(8).toString("hex")}`;
  const sessionSecret = `e2e-session-${randomBytes(24).toString("hex")}`;
  const mode: AppMode = process.env.E2E_SERVER === "dev" ? "dev" : "start";
  const appValues: Record<string, string> = {
    RPC_URL: privateRpcUrl,
    PUBLIC_RPC_URL: rpcUrl,
    PUBLIC_WS_URL: wsUrl,
    INDEXER_WS_URL: wsUrl,
    // The browser's RPC is the proxy, not the chain's own URL: its faucet is named (it stays up when the
    // proxy pauses, as a faucet is no part of the chain the app reads).
    FAUCET_URL: localnet.faucetUrl,
    LOCALNET_ADDRESSES_FILE: localnet.addressesFile,
    // The embedded store and in-process limits, whatever CI exports for other suites. In memory for
    // another app a test starts beside this one (its own store); this app's is a directory (below).
    DATABASE_URL: "",
    REDIS_URL: "",
    PGLITE_DIR: ":memory:",
    NAV_INTERVAL_SECONDS: String(NAV_INTERVAL_SECONDS),
    STAGE_INTERVAL_SECONDS: String(STAGE_INTERVAL_SECONDS),
    // The local keeper's other settings, for the arrival estimate (it looks at the chain each second).
    STAGE_MAX_SHARES: String(STAGE_MAX_SHARES),
    KEEPER_TICK_SECONDS: "1",
    SLOT_MS: String(SLOT_MS),
    // Production's setting, explicit: on the local chain the default lets any site frame the embed,
    // and the embed tests check that a site not listed is refused.
    FRAME_ANCESTORS: `'self' ${partnerUrl}`,
    SESSION_SECRET: sessionSecret,
    FIRST_PARTY_RPM: "5000",
    // Every browser context is a new session from 127.0.0.1: room for the whole suite's.
    SESSION_RPM: "5000",
    SESSION_ISSUE_LIMIT: "10000",
    LOG_LEVEL: "warn",
  };
  // A short path: the store's Unix sockets live in it.
  const storeDir = mkdtempSync(join(tmpdir(), "e2e-store-"));
  const env = appEnv(mode, { ...appValues, PGLITE_DIR: storeDir });

  let app;
  let partnerKey: E2ePartner;
  try {
    if (mode === "start" && process.env.E2E_SKIP_BUILD !== "1") {
      console.log("e2e: building the app (next build); E2E_SKIP_BUILD=1 reuses the last build");
      buildApp(env);
    }
    app = await startApp(mode, appPort, env, appLog);
    partnerKey = await makePartner(env, localnet.faucetUrl, localnet.rpcUrl);
  } catch (error) {
    if (app !== undefined) await stop(app);
    await stop(localnet.child);
    await Promise.all([close(partner), close(stranger), closeChainProxies()]);
    rmSync(storeDir, { recursive: true, force: true });
    throw error;
  }

  const environment: E2eEnvironment = {
    appUrl,
    partnerUrl,
    strangerUrl,
    rpcUrl,
    chainControlUrl,
    faucetUrl: localnet.faucetUrl,
    primeVaultId: prime.id,
    flexVaultId: flex.id,
    partner: partnerKey,
    navIntervalSeconds: NAV_INTERVAL_SECONDS,
    slotMs: SLOT_MS,
    secrets: [privateRpcUrl, new URL(privateRpcUrl).search.slice(1), sessionSecret],
    distDir: join(REPO_ROOT, ".next"),
    appMode: mode,
    appValues,
  };
  project.provide("e2e", environment);

  return async () => {
    await stop(app);
    await Promise.all([close(partner), close(stranger), closeChainProxies()]);
    await stop(localnet.child);
    rmSync(storeDir, { recursive: true, force: true });
    chainLog.end();
    appLog.end();
  };
}

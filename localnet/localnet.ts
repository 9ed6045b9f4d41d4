// Starts a whole localnet in this process: the chain (fresh or restored from --state-dir), genesis,
// the JSON-RPC and PubSub servers, the faucet and the keeper. main.ts runs it; tests start their own on
// free ports.
import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

import { Chain } from "./chain";
import type { ChainOptions } from "./chain-types";
import type { LocalnetConfig } from "./config";
import { applyEmptyGenesis, emptyAddressesDocument, type EmptyGenesis } from "./empty-genesis";
import { Faucet } from "./faucet";
import {
  addressesDocument,
  applyGenesis,
  devRoles,
  freshGenesisHash,
  localnetAddresses,
  writeAddressesFile,
  type LocalnetAddresses,
} from "./genesis";
import type { Keeper } from "../lib/keeper/keeper";
import { localKeeper } from "./keeper";
import { createRpcHttpServer } from "./rpc/http";
import type { RpcContext } from "./rpc/methods";
import { attachPubsub, type PubsubServer } from "./rpc/pubsub";
import { loadSnapshot, saveSnapshot } from "./state";

/** What getVersion reports; the runtime behind it is LiteSVM's build of the agave SVM. */
const NODE_VERSION = { solanaCore: "3.0.0", featureSet: 3_640_012_085 };

export interface LocalnetHandle {
  config: LocalnetConfig;
  chain: Chain;
  addresses: LocalnetAddresses;
  /** The JSON document written to the addresses file. */
  addressesDocument: unknown;
  faucet: Faucet;
  keeper: Keeper | null;
  /** With --empty: the funded payer and where its keypair was written. */
  empty: EmptyGenesis | null;
  rpcUrl: string;
  wsUrl: string;
  faucetUrl: string;
  restored: boolean;
  save(): Promise<void>;
  stop(): Promise<void>;
}

async function readProgram(path: string): Promise<Uint8Array | null> {
  try {
    return new Uint8Array(await readFile(path));
  } catch (error) {
    if (error instanceof Error && "code" in error && error.code === "ENOENT") {
      return null;
    }
    throw error;
  }
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error): void => reject(error);
    server.once("error", onError);
    server.listen(port, host, () => {
      server.off("error", onError);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

/** The host clients should use: a wildcard bind address is reached through loopback. */
function urlHost(host: string): string {
  if (host === "0.0.0.0") {
    return "127.0.0.1";
  }
  if (host === "::") {
    return "[::1]";
  }
  return host.includes(":") ? `[${host}]` : host;
}

export async function startLocalnet(
  config: LocalnetConfig,
  log: (line: string) => void = (line) => console.log(line),
): Promise<LocalnetHandle> {
  const chainOptions: ChainOptions = {
    slotDurationMs: config.slotMs,
    finalizationDepth: config.finalizationDepth,
  };
  const snapshot = config.stateDir === null ? null : await loadSnapshot(config.stateDir);
  const roles = devRoles();
  const chain =
    snapshot === null
      ? Chain.create(chainOptions, {
          genesisHash: freshGenesisHash(),
          identity: roles.validator.publicKey.toBase58(),
        })
      : Chain.restore(chainOptions, snapshot);
  const program = config.empty ? null : await readProgram(config.programPath);
  if (program === null && !config.empty) {
    log(
      `localnet: no program binary at ${config.programPath}; starting without the vault program and demo vaults`,
    );
  }
  const empty = config.empty ? await applyEmptyGenesis(chain, config.payerKeypairFile) : null;
  const addresses = empty === null ? applyGenesis(chain, program) : localnetAddresses(false);
  const faucet = new Faucet(chain, roles, addresses, config.faucet);

  const context: RpcContext = {
    chain,
    version: NODE_VERSION,
    requestAirdrop: (recipient, lamports, recentBlockhash) =>
      faucet.requestAirdrop(recipient, lamports, recentBlockhash),
    clusterNode: { rpc: "", pubsub: "" },
  };
  // An empty chain has no USDC mint for the faucet to give; requestAirdrop still gives SOL.
  const rpcServer = createRpcHttpServer({
    context,
    routes: empty === null ? { "/faucet": faucet.route } : {},
  });
  const wsServer = createServer((_request, response) => {
    response
      .writeHead(426, { "Content-Type": "text/plain" })
      .end("Upgrade Required: connect with a WebSocket");
  });
  let pubsub: PubsubServer | null = null;
  try {
    const rpcPort = await listen(rpcServer, config.rpcPort, config.host);
    const wsPort = await listen(wsServer, config.wsPort, config.host);
    context.clusterNode = { rpc: `${config.host}:${rpcPort}`, pubsub: `${config.host}:${wsPort}` };
    pubsub = attachPubsub(wsServer, context);
  } catch (error) {
    chain.stop();
    await Promise.all([close(rpcServer), close(wsServer)]);
    throw error;
  }
  const rpcUrl = `http://${urlHost(config.host)}:${(rpcServer.address() as AddressInfo).port}`;
  const wsUrl = `ws://${urlHost(config.host)}:${(wsServer.address() as AddressInfo).port}`;
  const faucetUrl = `${rpcUrl}/faucet`;
  const document =
    empty === null
      ? addressesDocument(chain, addresses, { rpcUrl, wsUrl, faucetUrl })
      : emptyAddressesDocument(chain, empty, { rpcUrl, wsUrl });
  await writeAddressesFile(config.addressesFile, document);

  const keeper =
    config.keeper.enabled && addresses.programDeployed && empty === null
      ? localKeeper({ chain, rpcUrl, roles, vaults: addresses.vaults, config: config.keeper, log })
      : null;
  chain.start();
  if (config.keeper.scheduled) {
    keeper?.start();
  }

  const save = async (): Promise<void> => {
    if (config.stateDir !== null) {
      await saveSnapshot(config.stateDir, chain.snapshot());
    }
  };
  const saveTimer =
    config.stateDir === null
      ? null
      : setInterval(() => {
          save().catch((error: unknown) => log(`localnet: saving the chain failed: ${String(error)}`));
        }, config.saveIntervalSeconds * 1000);

  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) {
      return;
    }
    stopped = true;
    // The keeper finishes its cycle over the RPC first.
    await keeper?.stop();
    chain.stop();
    if (saveTimer !== null) {
      clearInterval(saveTimer);
    }
    await pubsub?.close();
    await Promise.all([close(rpcServer), close(wsServer)]);
    await save();
  };

  return {
    config,
    chain,
    addresses,
    addressesDocument: document,
    faucet,
    keeper,
    empty,
    rpcUrl,
    wsUrl,
    faucetUrl,
    restored: snapshot !== null,
    save,
    stop,
  };
}

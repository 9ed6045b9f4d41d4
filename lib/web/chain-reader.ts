// Reads the pages make straight from the chain with @solana/web3.js and lib/vault's decoders, where
// the chain is the better source than /api: the vault's live state (the read endpoints serve an
// indexer's rows, seconds behind; readVault mirrors GET /api/vault/{id}) and the wallet's own
// balances. A vault is decoded, named and viewed by lib/vault's functions, the same ones GET
// /api/vault/{id} serializes from (vault-state.ts, vault-view.ts). Loaded on demand, so web3.js and
// the program's decoders stay out of the pages' first JavaScript.
import { Buffer } from "buffer";
import { Connection, PublicKey, type AccountInfo } from "@solana/web3.js";

import { ChainUnavailableError } from "../chain/rpc";
import { RpcTransportError, chainFetch } from "../chain/rpc-transport";
import { tokenAccountAmount, findAssociatedTokenAddress } from "../chain/spl-token";
import { decodeReceiptState } from "../vault/program/accounts";
import { findReceipt } from "../vault/program/addresses";
import { VAULT_ACCOUNT_SIZE, VAULT_PROGRAM_ID } from "../vault/program/idl";
import { servedVaultOrNull } from "../vault/model/vault-state";
import { vaultView, type VaultView } from "../vault/model/vault-view";
import { symbolOf, type ClientConfig } from "./client-config";

// lib/vault/program and web3.js use the global Buffer; browsers have none.
const scope = globalThis as { Buffer?: typeof Buffer };
scope.Buffer ??= Buffer;

const connections = new Map<string, Connection>();

/** One Connection per endpoint for the page's lifetime. */
export function connectionFor(config: Pick<ClientConfig, "rpcUrl" | "wsUrl">): Connection {
  const key = `${config.rpcUrl} ${config.wsUrl}`;
  let connection = connections.get(key);
  if (connection === undefined) {
    connection = new Connection(config.rpcUrl, {
      commitment: "confirmed",
      wsEndpoint: config.wsUrl,
      disableRetryOnRateLimit: true,
      fetch: chainFetch,
    });
    connections.set(key, connection);
  }
  return connection;
}

/** How long a read from the browser waits for the RPC before it counts as unanswered. */
export const CHAIN_READ_TIMEOUT_MS = 10_000;

/**
 * A read that got no answer within `timeoutMs`, or a gateway's failure, becomes ChainUnavailableError
 * naming the read, so the page says so instead of waiting on a skeleton.
 */
export async function read<T>(
  what: string,
  load: () => Promise<T>,
  timeoutMs: number = CHAIN_READ_TIMEOUT_MS,
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new ChainUnavailableError(`${what}: no answer in ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([load(), timeout]);
  } catch (error) {
    if (error instanceof RpcTransportError) {
      throw new ChainUnavailableError(`${what}: ${error.message}`);
    }
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

export class VaultNotFoundError extends Error {
  constructor(readonly vaultId: string) {
    super(`No vault exists at ${vaultId}`);
    this.name = "VaultNotFoundError";
  }
}

type VaultReader = (address: PublicKey, account: AccountInfo<Buffer> | null) => VaultView | null;

/**
 * Views of the vaults of the deployment's protocol (PROTOCOL_ID): null for any other account, a vault
 * of another protocol included, and for every account when the deployment names no protocol.
 */
function vaultReader(config: Pick<ClientConfig, "assets" | "protocolId">): VaultReader {
  if (config.protocolId === null) {
    return () => null;
  }
  const deps = {
    protocol: new PublicKey(config.protocolId),
    symbolOf: (mint: PublicKey) => symbolOf(config, mint.toBase58()),
  };
  return (address, account) => {
    const vault = servedVaultOrNull(
      deps,
      address,
      account === null
        ? null
        : { owner: account.owner, lamports: BigInt(account.lamports), data: account.data },
    );
    return vault === null ? null : vaultView(vault, Date.now());
  };
}

/** Every vault of the deployment's protocol, largest first (stands in for GET /api/vaults). */
export async function readVaults(connection: Connection, config: ClientConfig): Promise<VaultView[]> {
  const accounts = await read("listing the vaults", () =>
    connection.getProgramAccounts(new PublicKey(config.programId), {
      filters: [{ dataSize: VAULT_ACCOUNT_SIZE }],
    }),
  );
  const vaultFrom = vaultReader(config);
  return accounts
    .map(({ pubkey, account }) => vaultFrom(pubkey, account))
    .filter((vault): vault is VaultView => vault !== null)
    .sort((left, right) =>
      left.totalAssets === right.totalAssets
        ? left.name.localeCompare(right.name)
        : left.totalAssets > right.totalAssets
          ? -1
          : 1,
    );
}

function publicKeyOrNull(value: string): PublicKey | null {
  try {
    return new PublicKey(value);
  } catch {
    return null;
  }
}

/** One vault (stands in for GET /api/vault/{id}); VaultNotFoundError for anything else. */
export async function readVault(
  connection: Connection,
  config: ClientConfig,
  id: string,
): Promise<VaultView> {
  const address = publicKeyOrNull(id);
  if (address === null) {
    throw new VaultNotFoundError(id);
  }
  const { value: account } = await read("reading the vault", () =>
    connection.getAccountInfoAndContext(address),
  );
  const vault = vaultReader(config)(address, account);
  if (vault === null) {
    throw new VaultNotFoundError(id);
  }
  return vault;
}

export interface PendingReceipt {
  shares: bigint;
  requestId: bigint;
  /** Unix seconds. */
  requestedAt: bigint;
  queueStart: bigint;
  queueEnd: bigint;
  navFloor: bigint;
  /** The withdrawal fee fixed when it was requested: what the claim charges. */
  feeBps: number;
}

export interface WalletPosition {
  lamports: bigint;
  assetBalance: bigint;
  shareBalance: bigint;
  receipt: PendingReceipt | null;
}

function tokenAmountOf(account: AccountInfo<Buffer> | null | undefined): bigint {
  return account === null || account === undefined
    ? 0n
    : (tokenAccountAmount(account.owner, account.data) ?? 0n);
}

function receiptOf(account: AccountInfo<Buffer> | null | undefined): PendingReceipt | null {
  if (account === null || account === undefined || !account.owner.equals(VAULT_PROGRAM_ID)) {
    return null;
  }
  const receipt = decodeReceiptState(account.data);
  return {
    shares: receipt.shares,
    requestId: receipt.requestId,
    requestedAt: receipt.requestedAt,
    queueStart: receipt.queueStart,
    queueEnd: receipt.queueEnd,
    navFloor: receipt.navFloor,
    feeBps: receipt.feeBps,
  };
}

/** The wallet's SOL, asset and share balances and pending receipt on one vault, in one call. */
export async function readWalletPosition(
  connection: Connection,
  vault: Pick<VaultView, "id" | "asset" | "shares">,
  wallet: string,
): Promise<WalletPosition> {
  const owner = new PublicKey(wallet);
  const vaultAddress = new PublicKey(vault.id);
  const [walletAccount, assetAccount, shareAccount, receiptAccount] = await read("reading the wallet", () =>
    connection.getMultipleAccountsInfo([
      owner,
      findAssociatedTokenAddress(owner, new PublicKey(vault.asset.mint)),
      findAssociatedTokenAddress(owner, new PublicKey(vault.shares.mint)),
      findReceipt(vaultAddress, owner),
    ]),
  );
  return {
    lamports: BigInt(walletAccount?.lamports ?? 0),
    assetBalance: tokenAmountOf(assetAccount),
    shareBalance: tokenAmountOf(shareAccount),
    receipt: receiptOf(receiptAccount),
  };
}

export interface WalletBalances {
  lamports: bigint;
  /** Raw balances by asset mint (base58). */
  assets: Record<string, bigint>;
}

/** The wallet's SOL and asset balances (what GET /api/portfolio does not carry), in one call. */
export async function readWalletBalances(
  connection: Connection,
  wallet: string,
  assetMints: readonly string[],
): Promise<WalletBalances> {
  const owner = new PublicKey(wallet);
  const accounts = await read("reading the wallet", () =>
    connection.getMultipleAccountsInfo([
      owner,
      ...assetMints.map((mint) => findAssociatedTokenAddress(owner, new PublicKey(mint))),
    ]),
  );
  const assets: Record<string, bigint> = {};
  assetMints.forEach((mint, index) => {
    assets[mint] = tokenAmountOf(accounts[1 + index]);
  });
  return { lamports: BigInt(accounts[0]?.lamports ?? 0), assets };
}

// Loading a vault for the API: its account decoded, the asset and share tokens named, and the
// rent and window arithmetic the preparation checks need.
import { PublicKey } from "@solana/web3.js";

import type { ChainAccount } from "../../chain/accounts";
import type { ReadMode, VaultChain } from "../../chain/vault-chain";
import { decodeVaultState, type VaultState } from "../program/accounts";
import { storedWindows, windowsAt, type CapWindow, type WithdrawalWindows } from "./cap-window";
import { DomainError } from "./domain-errors";
import { VAULT_PROGRAM_ID } from "../program/idl";
import type { TokenInfo } from "./token-amount";

/** What domain functions are given: chain access, the deployment's protocol, token names and a clock. */
export interface VaultDeps {
  chain: VaultChain;
  /** The protocol account whose vaults this deployment serves; any other vault is unknown here. */
  protocol: PublicKey;
  symbolOf(mint: PublicKey): string;
  /** Milliseconds since the epoch. */
  now(): number;
}

export interface LoadedVault {
  address: PublicKey;
  state: VaultState;
  asset: TokenInfo;
  shares: TokenInfo;
}

export function shareSymbol(assetSymbol: string): string {
  return `v${assetSymbol}`;
}

// The account cache hands back the same object until it refreshes, so its decoding is kept with it.
const decodedVaults = new WeakMap<ChainAccount, LoadedVault>();

function vaultNotFound(address: PublicKey, message: string): DomainError<"VAULT_NOT_FOUND"> {
  return new DomainError("VAULT_NOT_FOUND", message, { context: { vault: address.toBase58() } });
}

type VaultRead = { vault: LoadedVault } | { absent: "no-vault" | "not-a-vault" | "other-protocol" };

function readVaultAccount(
  deps: Pick<VaultDeps, "symbolOf" | "protocol">,
  address: PublicKey,
  account: ChainAccount | null,
): VaultRead {
  if (account === null || !account.owner.equals(VAULT_PROGRAM_ID)) {
    return { absent: "no-vault" };
  }
  let vault = decodedVaults.get(account);
  if (vault === undefined || !vault.address.equals(address)) {
    let state: VaultState;
    try {
      state = decodeVaultState(account.data);
    } catch {
      return { absent: "not-a-vault" };
    }
    const assetSymbol = deps.symbolOf(state.assetMint);
    vault = {
      address,
      state,
      asset: { mint: state.assetMint, symbol: assetSymbol, decimals: state.assetDecimals },
      shares: { mint: state.shareMint, symbol: shareSymbol(assetSymbol), decimals: state.shareDecimals },
    };
    decodedVaults.set(account, vault);
  }
  // Only the deployment's protocol's vaults exist for this app; any other is an unknown vault.
  return vault.state.protocol.equals(deps.protocol) ? { vault } : { absent: "other-protocol" };
}

/**
 * The vault in an account read from the chain; VAULT_NOT_FOUND for anything else at that address,
 * a vault of another protocol included.
 */
export function vaultFromAccount(
  deps: Pick<VaultDeps, "symbolOf" | "protocol">,
  address: PublicKey,
  account: ChainAccount | null,
): LoadedVault {
  const read = readVaultAccount(deps, address, account);
  if ("vault" in read) {
    return read.vault;
  }
  throw vaultNotFound(
    address,
    read.absent === "not-a-vault"
      ? `The account ${address.toBase58()} is not a vault`
      : `No vault exists at ${address.toBase58()}`,
  );
}

/** vaultFromAccount for a reader that shows "no vault" rather than refusing: null where it throws. */
export function servedVaultOrNull(
  deps: Pick<VaultDeps, "symbolOf" | "protocol">,
  address: PublicKey,
  account: ChainAccount | null,
): LoadedVault | null {
  const read = readVaultAccount(deps, address, account);
  return "vault" in read ? read.vault : null;
}

export async function loadVault(deps: VaultDeps, address: PublicKey, mode: ReadMode): Promise<LoadedVault> {
  const [account] = await deps.chain.getAccounts([address], mode);
  return vaultFromAccount(deps, address, account ?? null);
}

/** Lamports an account of `size` bytes needs to be rent-exempt (the default rent: 3480 lamports a byte-year, two years). */
export function rentExemptMinimum(size: number): bigint {
  return (128n + BigInt(size)) * 3480n * 2n;
}

/** The base fee per signature. */
export const LAMPORTS_PER_SIGNATURE = 5_000n;

/** The vault's hourly and daily windows as the program will see them at `nowSeconds`. */
export function withdrawalWindows(state: VaultState, nowSeconds: number): WithdrawalWindows<CapWindow> {
  return windowsAt(storedWindows(state), nowSeconds);
}

export function isOnCurveWallet(wallet: PublicKey): boolean {
  return PublicKey.isOnCurve(wallet.toBytes());
}

export interface VaultLayout {
  assetMint: PublicKey;
  shareMint: PublicKey;
  reserve: PublicKey;
}

// A vault's mints and reserve never change after initialisation, so knowing them lets a request read
// the vault together with the wallet's token accounts in a single call. Keyed by protocol too: a
// process serving one protocol never finds another's vault here.
const layouts = new Map<string, VaultLayout>();

function layoutKey(protocol: PublicKey, vault: PublicKey): string {
  return `${protocol.toBase58()}:${vault.toBase58()}`;
}

export function rememberVaultLayout(vault: LoadedVault): void {
  layouts.set(layoutKey(vault.state.protocol, vault.address), {
    assetMint: vault.state.assetMint,
    shareMint: vault.state.shareMint,
    reserve: vault.state.reserve,
  });
}

/** The vault's fixed addresses, reading the vault once if this process has not seen it yet. */
export async function vaultLayout(deps: VaultDeps, address: PublicKey): Promise<VaultLayout> {
  const known = layouts.get(layoutKey(deps.protocol, address));
  if (known !== undefined) {
    return known;
  }
  const vault = await loadVault(deps, address, "cached");
  rememberVaultLayout(vault);
  return { assetMint: vault.state.assetMint, shareMint: vault.state.shareMint, reserve: vault.state.reserve };
}

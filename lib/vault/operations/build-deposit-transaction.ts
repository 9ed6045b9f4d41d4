// Preparing a deposit: checks the vault, the wallet's asset balance and SOL, estimates the shares and
// builds the unsigned transaction (idempotent share-account creation, then deposit with a slippage
// floor). Given a partner's terms (the API key's), it builds deposit_with_partner_fee instead: the
// fee (rounded down) to the partner's asset account, which must exist, and shares for the rest,
// within the protocol's max_partner_fee_bps. Reads go through the account cache; a refusal is only
// made on freshly read data.
import type { PublicKey } from "@solana/web3.js";

import type { ChainAccount } from "../../chain/accounts";
import { base58Of } from "../../chain/base58";
import type { ReadMode } from "../../chain/vault-chain";
import {
  TOKEN_ACCOUNT_SIZE,
  buildCreateAssociatedTokenAccountIdempotentInstruction,
  tokenAccountAmount,
  findAssociatedTokenAddress,
  findAssociatedTokenAddressAndBump,
} from "../../chain/spl-token";
import { DomainError } from "../model/domain-errors";
import {
  deriveExpectedBalanceChanges,
  rentToOpen,
  type ExpectedBalanceChanges,
} from "./expected-balance-changes";
import { decodeProtocolState } from "../program/accounts";
import { buildDepositInstruction, buildDepositWithPartnerFeeInstruction } from "../program/instructions";
import {
  lessBasisPointsRoundDown,
  partnerFeeRoundDown,
  sharePrice,
  sharesForAssetsRoundDown,
} from "../model/share-math";
import {
  formatAbout,
  formatHuman,
  parseUiAmount,
  tokenAmount,
  type TokenAmount,
} from "../model/token-amount";
import { deposit } from "./deposit";
import { depositWithPartnerFee } from "./deposit-with-partner-fee";
import { buildUnsignedTransaction, computeUnitLimit, maximumFee } from "./transaction";
import { loadVault, type LoadedVault, type VaultDeps } from "../model/vault-state";

/** Raw units, or a human amount converted with the asset's decimals once the vault is read. */
export type DepositAmount = { raw: bigint } | { ui: number };

/** A partner's terms: the wallet its fee is paid to (its asset account) and the fee in bps. */
export interface PartnerTerms {
  wallet: PublicKey;
  feeBps: number;
}

export interface DepositRequest {
  vault: PublicKey;
  wallet: PublicKey;
  amount: DepositAmount;
  /** The partner whose fee the deposit pays; absent or null: a plain deposit. */
  partner?: PartnerTerms | null;
}

export interface DepositSettings {
  /** Tolerated drop of the share price between preparation and execution, in basis points. */
  slippageBps: number;
}

/** What a deposit with a partner fee pays the partner, shown before signing. */
export interface PartnerFeeDetails {
  /** The partner's wallet; the fee goes to its associated token account for the asset (partnerAsset). */
  partner: string;
  partnerAsset: string;
  feeBps: number;
  fee: TokenAmount;
  feeHuman: string;
  /** What is deposited after the fee: the shares are for this. */
  netAmount: TokenAmount;
  netAmountHuman: string;
}

export interface DepositDetails {
  vaultId: string;
  vaultName: string;
  depositAmount: TokenAmount;
  depositAmountHuman: string;
  assetDecimals: number;
  estimatedSharesReceived: TokenAmount;
  currentSharePrice: number;
  /** Only on a deposit built with a partner's terms. */
  partnerFee?: PartnerFeeDetails;
}

export interface PreparedDeposit {
  transaction: string;
  message: string;
  details: DepositDetails;
  lastValidBlockHeight: number;
  expiresAt: string;
  /** The wallet's changes, derived at build time from what it moves, opens and pays. */
  expectedBalanceChanges: ExpectedBalanceChanges;
}

/** The wallet's associated token accounts for the vault's asset and shares (derived once a build). */
interface WalletTokenAddresses {
  asset: PublicKey;
  shares: PublicKey;
}

interface WalletAccounts {
  wallet: ChainAccount | null;
  assetAccount: ChainAccount | null;
  shareAccount: ChainAccount | null;
}

/**
 * The wallet's SOL, asset and share accounts in one getMultipleAccounts call, through the account
 * cache when `mode` is "cached" (entries up to a few seconds old, lib/chain/vault-chain.ts). Safe for
 * the build: the transaction opens the share account idempotently whatever the cache says, so a stale
 * entry never makes it fail; a refusal is made only on a fresh read; and what a stale entry can move is
 * the expected rent of a share account opened or closed within those seconds, which the signer's own
 * simulation before signing shows.
 */
async function readWalletAccounts(
  deps: VaultDeps,
  wallet: PublicKey,
  tokens: WalletTokenAddresses,
  mode: ReadMode,
): Promise<WalletAccounts> {
  const [walletAccount, assetAccount, shareAccount] = await deps.chain.getAccounts(
    [wallet, tokens.asset, tokens.shares],
    mode,
  );
  return {
    wallet: walletAccount ?? null,
    assetAccount: assetAccount ?? null,
    shareAccount: shareAccount ?? null,
  };
}

interface PartnerAccounts {
  terms: PartnerTerms;
  partnerAsset: PublicKey;
  /** The canonical bump of partnerAsset's address, which the instruction passes to the program. */
  partnerAssetBump: number;
  /** Whether the partner's asset account exists (the program pays the fee into it). */
  partnerAssetExists: boolean;
  /** The protocol's max_partner_fee_bps; null when its account could not be read. */
  maxFeeBps: number | null;
}

async function readPartnerAccounts(
  deps: VaultDeps,
  vault: LoadedVault,
  terms: PartnerTerms,
  mode: ReadMode,
): Promise<PartnerAccounts> {
  const { address: partnerAsset, bump: partnerAssetBump } = findAssociatedTokenAddressAndBump(
    terms.wallet,
    vault.asset.mint,
  );
  const [assetAccount, protocolAccount] = await deps.chain.getAccounts(
    [partnerAsset, vault.state.protocol],
    mode,
  );
  return {
    terms,
    partnerAsset,
    partnerAssetBump,
    partnerAssetExists:
      assetAccount !== null &&
      assetAccount !== undefined &&
      tokenAccountAmount(assetAccount.owner, assetAccount.data) !== null,
    maxFeeBps:
      protocolAccount === null || protocolAccount === undefined
        ? null
        : decodeProtocolState(protocolAccount.data).maxPartnerFeeBps,
  };
}

/** A partner fee the program would refuse (above the protocol's maximum), or a fee account missing. */
function partnerRefusal(partner: PartnerAccounts): DomainError | null {
  const { terms } = partner;
  const max = partner.maxFeeBps ?? 0;
  if (terms.feeBps > max) {
    return new DomainError(
      "PARTNER_FEE_ABOVE_MAXIMUM",
      `The partner fee of ${terms.feeBps} bps is above the protocol's maximum partner fee of ${max} bps`,
      { context: { feeBps: terms.feeBps, maxFeeBps: max } },
    );
  }
  if (!partner.partnerAssetExists) {
    return new DomainError(
      "PARTNER_ACCOUNT_MISSING",
      `The partner ${base58Of(terms.wallet)} has no token account for the vault's asset (${base58Of(partner.partnerAsset)}) to receive its fee`,
      { context: { partner: base58Of(terms.wallet), partnerAsset: base58Of(partner.partnerAsset) } },
    );
  }
  return null;
}

function assetBalance(accounts: WalletAccounts): bigint {
  const account = accounts.assetAccount;
  return account === null ? 0n : (tokenAccountAmount(account.owner, account.data) ?? 0n);
}

/**
 * Lamports the wallet needs: the fee at the transaction's compute-unit limit, plus rent when the share
 * account does not exist yet.
 */
function lamportsNeeded(accounts: WalletAccounts, units: number, priceMicroLamports: number): bigint {
  return maximumFee(units, priceMicroLamports) + rentToOpen(accounts.shareAccount, TOKEN_ACCOUNT_SIZE);
}

function rawAmount(vault: LoadedVault, amount: DepositAmount): bigint {
  if ("raw" in amount) {
    return amount.raw;
  }
  const parsed = parseUiAmount(amount.ui, vault.asset.decimals);
  if (!parsed.ok) {
    throw new DomainError("INVALID_AMOUNT", `uiAmount ${parsed.reason}`, { context: { field: "uiAmount" } });
  }
  return parsed.amount;
}

function refusal(
  vault: LoadedVault,
  amount: bigint,
  accounts: WalletAccounts,
  units: number,
  priceMicroLamports: number,
): DomainError | null {
  if (vault.state.paused) {
    return new DomainError(
      "VAULT_PAUSED",
      `The vault ${vault.state.name} is paused; deposits are not accepted`,
      { context: { vault: base58Of(vault.address), vaultName: vault.state.name } },
    );
  }
  const balance = assetBalance(accounts);
  if (balance < amount) {
    return new DomainError(
      "INSUFFICIENT_BALANCE",
      `The wallet holds ${formatHuman(balance, vault.asset)}, less than the ${formatHuman(amount, vault.asset)} to deposit`,
      {
        context: { balance: tokenAmount(vault.asset, balance), requested: tokenAmount(vault.asset, amount) },
        details: `balance ${balance} < amount ${amount} (raw units of ${vault.asset.mint.toBase58()})`,
      },
    );
  }
  const needed = lamportsNeeded(accounts, units, priceMicroLamports);
  const lamports = accounts.wallet?.lamports ?? 0n;
  if (lamports < needed) {
    return new DomainError(
      "INSUFFICIENT_SOL",
      `The wallet needs ${needed} lamports of SOL for the fee and account rent; it holds ${lamports}`,
      { context: { neededLamports: needed.toString(), heldLamports: lamports.toString() } },
    );
  }
  return null;
}

export async function buildDepositTransaction(
  deps: VaultDeps,
  settings: DepositSettings,
  request: DepositRequest,
): Promise<PreparedDeposit> {
  let vault = await loadVault(deps, request.vault, "cached");
  const [blockhash, price] = await Promise.all([
    deps.chain.recentBlockhash(),
    deps.chain.priorityFee([request.vault]),
  ]);
  const amount = rawAmount(vault, request.amount);
  const terms = request.partner ?? null;
  // A vault's mints never change: the wallet's token addresses hold for a fresh read of it too.
  const tokens: WalletTokenAddresses = {
    asset: findAssociatedTokenAddress(request.wallet, vault.asset.mint),
    shares: findAssociatedTokenAddress(request.wallet, vault.shares.mint),
  };
  let [accounts, partner] = await Promise.all([
    readWalletAccounts(deps, request.wallet, tokens, "cached"),
    terms === null ? null : readPartnerAccounts(deps, vault, terms, "cached"),
  ]);
  const shareAccount = tokens.shares;
  const createShareAccount = buildCreateAssociatedTokenAccountIdempotentInstruction(
    request.wallet,
    request.wallet,
    vault.shares.mint,
    shareAccount,
  );
  // The limit the built transaction will carry (its account creation's bump search included).
  const operation = terms === null ? deposit : depositWithPartnerFee;
  const units = computeUnitLimit(operation, [createShareAccount]);
  const refuse = () =>
    refusal(vault, amount, accounts, units, price) ?? (partner === null ? null : partnerRefusal(partner));
  if (refuse() !== null) {
    // Cached data may be a few seconds old: refuse only what the chain says now.
    [vault, accounts, partner] = await Promise.all([
      loadVault(deps, request.vault, "fresh"),
      readWalletAccounts(deps, request.wallet, tokens, "fresh"),
      terms === null ? null : readPartnerAccounts(deps, vault, terms, "fresh"),
    ]);
    const confirmed = refuse();
    if (confirmed !== null) {
      throw confirmed;
    }
  }
  const { state } = vault;
  const fee = terms === null ? 0n : partnerFeeRoundDown(amount, terms.feeBps);
  const net = amount - fee;
  const shares = sharesForAssetsRoundDown(net, state.totalAssets, state.totalShares);
  if (shares === 0n) {
    throw new DomainError(
      "AMOUNT_TOO_SMALL",
      `A deposit of ${formatHuman(amount, vault.asset)} would mint no shares at the current share price`,
      { context: { amount: tokenAmount(vault.asset, amount) } },
    );
  }
  const depositAccounts = {
    depositor: request.wallet,
    vault: vault.address,
    authority: state.authority,
    shareMint: state.shareMint,
    reserve: state.reserve,
    depositorAsset: tokens.asset,
    depositorShares: shareAccount,
  };
  const args = { amount, minSharesOut: lessBasisPointsRoundDown(shares, settings.slippageBps) };
  const built = buildUnsignedTransaction(
    request.wallet,
    operation,
    [
      createShareAccount,
      partner === null
        ? buildDepositInstruction(depositAccounts, args)
        : buildDepositWithPartnerFeeInstruction(
            {
              ...depositAccounts,
              protocol: state.protocol,
              partner: partner.terms.wallet,
              partnerAsset: partner.partnerAsset,
            },
            { ...args, partnerFeeBps: partner.terms.feeBps, partnerAssetBump: partner.partnerAssetBump },
          ),
    ],
    blockhash,
    price,
  );
  const human = formatHuman(amount, vault.asset);
  const about = `Deposit ${formatAbout(amount, vault.asset)} into ${state.name} for about ${formatAbout(shares, vault.shares)}`;
  return {
    transaction: built.transaction,
    message:
      partner === null
        ? about
        : `${about}; of it, a partner fee of ${formatHuman(fee, vault.asset)} (${partner.terms.feeBps} bps) goes to ${base58Of(partner.terms.wallet)}`,
    details: {
      vaultId: base58Of(vault.address),
      vaultName: state.name,
      depositAmount: tokenAmount(vault.asset, amount),
      depositAmountHuman: human,
      assetDecimals: vault.asset.decimals,
      estimatedSharesReceived: tokenAmount(vault.shares, shares),
      currentSharePrice: sharePrice(state.totalAssets, state.totalShares),
      ...(partner === null
        ? {}
        : {
            partnerFee: {
              partner: base58Of(partner.terms.wallet),
              partnerAsset: base58Of(partner.partnerAsset),
              feeBps: partner.terms.feeBps,
              fee: tokenAmount(vault.asset, fee),
              feeHuman: formatHuman(fee, vault.asset),
              netAmount: tokenAmount(vault.asset, net),
              netAmountHuman: formatHuman(net, vault.asset),
            },
          }),
    },
    lastValidBlockHeight: built.lastValidBlockHeight,
    expiresAt: built.expiresAt,
    expectedBalanceChanges: deriveExpectedBalanceChanges(operation, vault, built, {
      asset: -amount,
      shares,
      tokenAccount: accounts.shareAccount,
      opened: [],
      returned: 0n,
    }),
  };
}

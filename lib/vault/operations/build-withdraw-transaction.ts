// Preparing a withdrawal: the action (initiate or claim) is read from the chain unless the caller names
// it (a cancel is only ever named); an action the state does not allow is refused, and so is anything
// the program would reject (minimum, balance, SOL, cap capacity at this moment). Capacity is checked,
// never reserved.
import type { PublicKey } from "@solana/web3.js";

import { base58Of } from "../../chain/base58";
import {
  TOKEN_ACCOUNT_SIZE,
  buildCreateAssociatedTokenAccountIdempotentInstruction,
  findAssociatedTokenAddress,
} from "../../chain/spl-token";
import { firstOverflow } from "../model/cap-window";
import { DomainError } from "../model/domain-errors";
import {
  deriveExpectedBalanceChanges,
  rentToOpen,
  type ExpectedBalanceChanges,
} from "./expected-balance-changes";
import { findQueueHoles } from "../program/addresses";
import { QUEUE_HOLES_ACCOUNT_SIZE, WITHDRAWAL_RECEIPT_ACCOUNT_SIZE } from "../program/idl";
import {
  buildCancelWithdrawalInstruction,
  buildClaimWithdrawalInstruction,
  buildRequestWithdrawalInstruction,
} from "../program/instructions";
import {
  assetsForSharesRoundDown,
  sharePrice,
  withdrawalAmounts,
  withdrawalFeeRoundUp,
} from "../model/share-math";
import { formatAbout, formatHuman, tokenAmount, type TokenAmount } from "../model/token-amount";
import { buildUnsignedTransaction, computeUnitLimit, maximumFee } from "./transaction";
import { cancelWithdrawal } from "./cancel-withdrawal";
import { claimWithdrawal } from "./claim-withdrawal";
import { requestWithdrawal } from "./request-withdrawal";
import { withdrawalWindows, type LoadedVault, type VaultDeps } from "../model/vault-state";
import { readWithdrawalAccounts, type WithdrawalAccounts } from "./withdrawal-accounts";
import { navSilent } from "../model/manager-silence";
import { configInForce } from "../model/pending-config";
import {
  cancelLeavesHole,
  claimAmounts,
  claimBlockerText,
  claimBlockers,
  withdrawalLimits,
  withdrawalPolicy,
  type ScheduleSettings,
  type WithdrawalLimits,
  type WithdrawalPolicy,
} from "../model/withdrawal-rules";

export type WithdrawAction = "initiate" | "claim" | "cancel";

export interface WithdrawRequest {
  vault: PublicKey;
  wallet: PublicKey;
  sharesAmount?: bigint;
  action?: WithdrawAction;
}

export interface WithdrawalEstimate {
  shares: TokenAmount;
  gross: TokenAmount;
  fee: TokenAmount;
  net: TokenAmount;
  sharePrice: number;
}

export interface InitiateDetails {
  withdrawalPolicy: WithdrawalPolicy;
  withdrawalLimits: WithdrawalLimits;
  withdrawalEstimate: WithdrawalEstimate;
  withdrawalReservation: null;
}

export interface ClaimDetails {
  requestId: string;
  claimAmount: WithdrawalEstimate;
  withdrawalPolicy: WithdrawalPolicy;
  withdrawalLimits: WithdrawalLimits;
  withdrawalEstimate: null;
  withdrawalReservation: null;
}

export interface CancelDetails {
  requestId: string;
  /** The escrowed shares that come back to the wallet: all of them less the fee. */
  returnedShares: TokenAmount;
  /** The request's exit fee in shares (rounded up), burned by the program. */
  feeShares: TokenAmount;
  /** What those shares are worth at today's share price (they stay in the vault, earning). */
  returnedValue: TokenAmount;
  withdrawalPolicy: WithdrawalPolicy;
  withdrawalLimits: WithdrawalLimits;
  withdrawalEstimate: null;
  withdrawalReservation: null;
}

export type PreparedWithdrawal = {
  transaction: string;
  message: string;
  lastValidBlockHeight: number;
  expiresAt: string;
  /** The wallet's changes, derived at build time from what it moves, opens, closes and pays. */
  expectedBalanceChanges: ExpectedBalanceChanges;
} & (
  | { action: "initiate"; details: InitiateDetails }
  | { action: "claim"; details: ClaimDetails }
  | { action: "cancel"; details: CancelDetails }
);

/** Gross, fee and net of `shares` now, at `feeBps`: the vault's fee for a request, the receipt's for a claim. */
function estimateView(vault: LoadedVault, shares: bigint, feeBps: number): WithdrawalEstimate {
  const { state } = vault;
  const amounts = withdrawalAmounts(shares, state.totalAssets, state.totalShares, feeBps);
  return {
    shares: tokenAmount(vault.shares, shares),
    gross: tokenAmount(vault.asset, amounts.gross),
    fee: tokenAmount(vault.asset, amounts.fee),
    net: tokenAmount(vault.asset, amounts.net),
    sharePrice: sharePrice(state.totalAssets, state.totalShares),
  };
}

function requireSol(accounts: WithdrawalAccounts, units: number, price: number, rent: bigint): void {
  const needed = maximumFee(units, price) + rent;
  if (accounts.walletLamports < needed) {
    throw new DomainError(
      "INSUFFICIENT_SOL",
      `The wallet needs ${needed} lamports of SOL for the fee and account rent; it holds ${accounts.walletLamports}`,
      { context: { neededLamports: needed.toString(), heldLamports: accounts.walletLamports.toString() } },
    );
  }
}

function refuseIfPaused(vault: LoadedVault, nowMs: number): void {
  // After the manager's silence (no strike for the vault's silence period) the program takes requests
  // even from a paused vault, so holders can leave a vault its manager abandoned.
  if (vault.state.paused && !navSilent(vault.state, nowMs)) {
    throw new DomainError(
      "VAULT_PAUSED",
      `The vault ${vault.state.name} is paused; withdrawals are not accepted`,
      { context: { vault: base58Of(vault.address), vaultName: vault.state.name } },
    );
  }
}

/**
 * Refuses an initiate of `assets` the hourly or daily window cannot take right now (6020/6021 on
 * chain). The figures travel as the error's context; the message and details put them in words.
 */
function checkCapacity(vault: LoadedVault, assets: bigint, nowMs: number): void {
  const windows = withdrawalWindows(vault.state, nowMs / 1000);
  const overflow = firstOverflow(windows, assets);
  if (overflow !== null) {
    const { window: name, capacity: window } = overflow;
    const { remaining } = window;
    const resetsAt = new Date(window.resetsAt * 1000).toISOString();
    throw new DomainError(
      "CAPACITY_EXCEEDED",
      `The ${name} net-withdrawal cap leaves ${formatHuman(remaining, vault.asset)}; this withdrawal is worth ${formatHuman(assets, vault.asset)}. Reduce the amount or wait for capacity`,
      {
        context: {
          window: name,
          remaining: tokenAmount(vault.asset, remaining),
          requested: tokenAmount(vault.asset, assets),
          cap: tokenAmount(vault.asset, window.cap),
          used: tokenAmount(vault.asset, window.used),
          resetsAt,
        },
        details:
          `${name} cap ${window.cap}, used ${window.used}, remaining ${remaining} (raw units); ` +
          `resets at ${resetsAt}; ` +
          `hourly remaining ${windows.hourly.remaining ?? "unlimited"}, daily remaining ${windows.daily.remaining ?? "unlimited"}`,
      },
    );
  }
}

async function prepareInitiate(
  deps: VaultDeps,
  schedule: ScheduleSettings,
  accounts: WithdrawalAccounts,
  request: WithdrawRequest,
): Promise<PreparedWithdrawal> {
  const nowMs = deps.now();
  // The config this request meets on chain: a pending config past its time is applied before the
  // program reads the fee, minimum and caps, so this build shows and checks the same ones; a config
  // still in its notice does not apply to this request at all.
  const vault = { ...accounts.vault, state: configInForce(accounts.vault.state, nowMs) };
  const { state } = vault;
  const shares = request.sharesAmount;
  if (shares === undefined) {
    throw new DomainError("INVALID_AMOUNT", "sharesAmount: is required when initiating a withdrawal", {
      context: { field: "sharesAmount" },
    });
  }
  refuseIfPaused(vault, nowMs);
  // The program lets a holder ask for all of its shares whatever the minimum; so does the API.
  if (shares < state.minWithdrawalShares && shares !== accounts.walletShares) {
    throw new DomainError(
      "BELOW_MINIMUM",
      `The vault's minimum withdrawal is ${formatHuman(state.minWithdrawalShares, vault.shares)}; ${formatHuman(shares, vault.shares)} requested`,
      {
        context: {
          minimum: tokenAmount(vault.shares, state.minWithdrawalShares),
          requested: tokenAmount(vault.shares, shares),
        },
      },
    );
  }
  if (accounts.walletShares < shares) {
    throw new DomainError(
      "INSUFFICIENT_BALANCE",
      `The wallet holds ${formatHuman(accounts.walletShares, vault.shares)}, less than the ${formatHuman(shares, vault.shares)} to withdraw`,
      {
        context: {
          balance: tokenAmount(vault.shares, accounts.walletShares),
          requested: tokenAmount(vault.shares, shares),
        },
        details: `balance ${accounts.walletShares} < sharesAmount ${shares} (raw units of ${vault.shares.mint.toBase58()})`,
      },
    );
  }
  checkCapacity(vault, assetsForSharesRoundDown(shares, state.totalAssets, state.totalShares), nowMs);
  const [blockhash, price] = await Promise.all([
    deps.chain.recentBlockhash(),
    deps.chain.priorityFee([vault.address]),
  ]);
  const instructions = [
    buildRequestWithdrawalInstruction(
      {
        owner: request.wallet,
        vault: vault.address,
        receipt: accounts.receiptAddress,
        ownerShares: findAssociatedTokenAddress(request.wallet, vault.shares.mint),
        escrow: state.escrow,
      },
      // The fee this build shows is the highest the request accepts: a fee raised before it lands
      // refuses it on chain (6026) instead of charging the holder more than it was told.
      { shares, maxFeeBps: state.feeBps },
    ),
  ];
  // The receipt the request opens (its address may hold lamports sent there: the program tops it up).
  const opened = [{ size: WITHDRAWAL_RECEIPT_ACCOUNT_SIZE, account: accounts.receiptAccount }];
  requireSol(
    accounts,
    computeUnitLimit(requestWithdrawal, instructions),
    price,
    rentToOpen(accounts.receiptAccount, WITHDRAWAL_RECEIPT_ACCOUNT_SIZE),
  );
  const built = buildUnsignedTransaction(request.wallet, requestWithdrawal, instructions, blockhash, price);
  const estimate = estimateView(vault, shares, state.feeBps);
  const expectedBalanceChanges = deriveExpectedBalanceChanges(requestWithdrawal, vault, built, {
    asset: 0n,
    shares: -shares,
    opened,
    returned: 0n,
  });
  return {
    action: "initiate",
    transaction: built.transaction,
    message:
      `Request a withdrawal of ${formatAbout(shares, vault.shares)} from ${state.name}, worth about ` +
      `${formatAbout(BigInt(estimate.net.amount), vault.asset)} after the fee at today's share price; ` +
      `claimable once a new NAV is struck and the queue is funded`,
    details: {
      withdrawalPolicy: withdrawalPolicy(vault, schedule),
      withdrawalLimits: withdrawalLimits(vault, nowMs),
      withdrawalEstimate: estimate,
      withdrawalReservation: null,
    },
    lastValidBlockHeight: built.lastValidBlockHeight,
    expiresAt: built.expiresAt,
    expectedBalanceChanges,
  };
}

async function prepareClaim(
  deps: VaultDeps,
  schedule: ScheduleSettings,
  accounts: WithdrawalAccounts,
  request: WithdrawRequest,
): Promise<PreparedWithdrawal> {
  const { vault, receipt } = accounts;
  if (receipt === null) {
    throw new DomainError(
      "NO_PENDING_WITHDRAWAL",
      "This wallet has no pending withdrawal in this vault to claim",
    );
  }
  const blockers = claimBlockers(vault.state, receipt, accounts.reserveBalance);
  if (blockers.length > 0) {
    throw new DomainError(
      "WITHDRAWAL_NOT_CLAIMABLE",
      `The pending withdrawal of ${formatHuman(receipt.shares, vault.shares)} is not claimable yet: ${blockers.map((blocker) => claimBlockerText(blocker, vault.state, receipt)).join("; ")}`,
      {
        context: { pendingShares: tokenAmount(vault.shares, receipt.shares), blockers },
        details: "GET this endpoint for the withdrawal's progress and estimated arrival",
      },
    );
  }
  const [blockhash, price] = await Promise.all([
    deps.chain.recentBlockhash(),
    deps.chain.priorityFee([vault.address]),
  ]);
  const assetAccount = findAssociatedTokenAddress(request.wallet, vault.asset.mint);
  const { state } = vault;
  const instructions = [
    buildCreateAssociatedTokenAccountIdempotentInstruction(
      request.wallet,
      request.wallet,
      vault.asset.mint,
      assetAccount,
    ),
    buildClaimWithdrawalInstruction({
      owner: request.wallet,
      vault: vault.address,
      authority: state.authority,
      receipt: accounts.receiptAddress,
      shareMint: state.shareMint,
      escrow: state.escrow,
      reserve: state.reserve,
      ownerAsset: assetAccount,
    }),
  ];
  requireSol(
    accounts,
    computeUnitLimit(claimWithdrawal, instructions),
    price,
    rentToOpen(accounts.assetAccount, TOKEN_ACCOUNT_SIZE),
  );
  const built = buildUnsignedTransaction(request.wallet, claimWithdrawal, instructions, blockhash, price);
  const amounts = claimAmounts(state, receipt);
  // The net arrives; the escrowed shares are burned (they left the wallet at the request); the
  // receipt closes and all its lamports come back.
  const expectedBalanceChanges = deriveExpectedBalanceChanges(claimWithdrawal, vault, built, {
    asset: amounts.net,
    shares: 0n,
    tokenAccount: accounts.assetAccount,
    opened: [],
    returned: accounts.receiptAccount?.lamports ?? 0n,
  });
  return {
    action: "claim",
    transaction: built.transaction,
    message:
      `Claim about ${formatAbout(amounts.net, vault.asset)} (${formatAbout(amounts.gross, vault.asset)} less a ` +
      `${formatHuman(amounts.fee, vault.asset)} fee) for ${formatAbout(receipt.shares, vault.shares)} from ${state.name}`,
    details: {
      requestId: receipt.requestId.toString(),
      claimAmount: estimateView(vault, receipt.shares, receipt.feeBps),
      withdrawalPolicy: withdrawalPolicy(vault, schedule),
      withdrawalLimits: withdrawalLimits(vault, deps.now()),
      withdrawalEstimate: null,
      withdrawalReservation: null,
    },
    lastValidBlockHeight: built.lastValidBlockHeight,
    expiresAt: built.expiresAt,
    expectedBalanceChanges,
  };
}

/**
 * The cancel of the wallet's pending request, claimable or not: its escrowed shares come back to the
 * wallet's share account (re-opened idempotently, as a claim does the asset account), the cap usage it
 * took is returned and it leaves the queue. Nothing pending is a 409, as for a claim.
 */
async function prepareCancel(
  deps: VaultDeps,
  schedule: ScheduleSettings,
  accounts: WithdrawalAccounts,
  request: WithdrawRequest,
): Promise<PreparedWithdrawal> {
  const { vault, receipt } = accounts;
  if (receipt === null) {
    throw new DomainError(
      "NO_PENDING_WITHDRAWAL",
      "This wallet has no pending withdrawal in this vault to cancel",
    );
  }
  const queueHoles = findQueueHoles(vault.address);
  const [blockhash, price] = await Promise.all([
    deps.chain.recentBlockhash(),
    deps.chain.priorityFee([vault.address]),
  ]);
  const { state } = vault;
  const shareAccount = findAssociatedTokenAddress(request.wallet, vault.shares.mint);
  const instructions = [
    buildCreateAssociatedTokenAccountIdempotentInstruction(
      request.wallet,
      request.wallet,
      vault.shares.mint,
      shareAccount,
    ),
    buildCancelWithdrawalInstruction({
      owner: request.wallet,
      vault: vault.address,
      receipt: accounts.receiptAddress,
      ownerShares: shareAccount,
      escrow: state.escrow,
      authority: state.authority,
      shareMint: vault.shares.mint,
      queueHoles,
    }),
  ];
  // The first cancel that leaves a hole in the queue creates the vault's hole list and pays its rent
  // before the receipt's rent comes back: the wallet must hold it beforehand (it comes back once the
  // list is empty again, through close_queue_holes).
  const opened = cancelLeavesHole(state, receipt)
    ? [{ size: QUEUE_HOLES_ACCOUNT_SIZE, account: accounts.queueHolesAccount }]
    : [];
  const holeListRent = opened.reduce((sum, { size, account }) => sum + rentToOpen(account, size), 0n);
  requireSol(
    accounts,
    computeUnitLimit(cancelWithdrawal, instructions),
    price,
    holeListRent + rentToOpen(accounts.shareAccount, TOKEN_ACCOUNT_SIZE),
  );
  const built = buildUnsignedTransaction(request.wallet, cancelWithdrawal, instructions, blockhash, price);
  // The program burns the receipt's fee in shares (rounded up), so a cancel costs what an exit costs.
  const feeShares = withdrawalFeeRoundUp(receipt.shares, receipt.feeBps);
  const returned = receipt.shares - feeShares;
  const value = assetsForSharesRoundDown(returned, state.totalAssets, state.totalShares);
  const expectedBalanceChanges = deriveExpectedBalanceChanges(cancelWithdrawal, vault, built, {
    asset: 0n,
    shares: returned,
    tokenAccount: accounts.shareAccount,
    opened,
    returned: accounts.receiptAccount?.lamports ?? 0n,
  });
  return {
    action: "cancel",
    transaction: built.transaction,
    message:
      `Cancel the pending withdrawal of ${formatAbout(receipt.shares, vault.shares)} from ${state.name}: ` +
      (feeShares > 0n
        ? `the exit fee of ${formatAbout(feeShares, vault.shares)} (${receipt.feeBps / 100}%) is burned and the other ` +
          `${formatAbout(returned, vault.shares)}`
        : `the shares`) +
      ` (about ${formatAbout(value, vault.asset)} at today's share price) come back to the wallet ` +
      `and the request leaves the queue`,
    details: {
      requestId: receipt.requestId.toString(),
      returnedShares: tokenAmount(vault.shares, returned),
      feeShares: tokenAmount(vault.shares, feeShares),
      returnedValue: tokenAmount(vault.asset, value),
      withdrawalPolicy: withdrawalPolicy(vault, schedule),
      withdrawalLimits: withdrawalLimits(vault, deps.now()),
      withdrawalEstimate: null,
      withdrawalReservation: null,
    },
    lastValidBlockHeight: built.lastValidBlockHeight,
    expiresAt: built.expiresAt,
    expectedBalanceChanges,
  };
}

/** The action the chain's state calls for: claim when a withdrawal is pending, else initiate. */
export function detectWithdrawAction(
  accounts: Pick<WithdrawalAccounts, "receipt">,
): Exclude<WithdrawAction, "cancel"> {
  return accounts.receipt === null ? "initiate" : "claim";
}

export async function buildWithdrawTransaction(
  deps: VaultDeps,
  schedule: ScheduleSettings,
  request: WithdrawRequest,
): Promise<PreparedWithdrawal> {
  const accounts = await readWithdrawalAccounts(deps, request.vault, request.wallet);
  const action = request.action ?? detectWithdrawAction(accounts);
  if (action === "initiate" && accounts.receipt !== null) {
    throw new DomainError(
      "WITHDRAWAL_PENDING",
      `This wallet already has a pending withdrawal of ${formatHuman(accounts.receipt.shares, accounts.vault.shares)} in this vault; claim or cancel it before initiating another`,
      { context: { pendingShares: tokenAmount(accounts.vault.shares, accounts.receipt.shares) } },
    );
  }
  switch (action) {
    case "initiate":
      return prepareInitiate(deps, schedule, accounts, request);
    case "claim":
      return prepareClaim(deps, schedule, accounts, request);
    case "cancel":
      return prepareCancel(deps, schedule, accounts, request);
  }
}

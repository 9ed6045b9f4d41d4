// Preparing a withdrawal: the action (initiate or claim) is read from the chain unless the caller names
// it (a cancel is only ever named); an action the state does not allow is refused, and so is anything
// the program would reject (minimum, balance, SOL, cap capacity at this moment). Capacity is checked,
// never reserved.
import type { PublicKey, TransactionInstruction } from "@solana/web3.js";

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
  type DerivedEffects,
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
import type { WithdrawalOperation } from "./operations";
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
  withdrawalPolicyAndLimits,
  type ScheduleSettings,
  type WithdrawalLimits,
  type WithdrawalPolicy,
} from "../model/withdrawal-rules";

/** The spec's words for the operations on a withdrawal, from the list (initiate, claim, cancel). */
export type WithdrawAction = WithdrawalOperation["action"];

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

/** What every prepared withdrawal carries after its action, message and details. */
type BuiltWithdrawal = Pick<
  PreparedWithdrawal,
  "transaction" | "lastValidBlockHeight" | "expiresAt" | "expectedBalanceChanges"
>;

/**
 * The transaction of a withdrawal operation: the wallet's token account its definition says it may
 * open (created idempotently, before `programInstruction`), checked against the wallet's SOL (the fee at
 * its compute-unit limit and the rent of what it opens), with what it does to the wallet.
 */
async function buildWithdrawal(
  deps: VaultDeps,
  accounts: WithdrawalAccounts,
  wallet: PublicKey,
  operation: WithdrawalOperation,
  programInstruction: TransactionInstruction,
  effects: Omit<DerivedEffects, "tokenAccount">,
): Promise<BuiltWithdrawal> {
  const { vault } = accounts;
  const [blockhash, price] = await Promise.all([
    deps.chain.recentBlockhash(),
    deps.chain.priorityFee([vault.address]),
  ]);
  const token = operation.createdTokenAccount;
  const instructions =
    token === null
      ? [programInstruction]
      : [
          buildCreateAssociatedTokenAccountIdempotentInstruction(
            wallet,
            wallet,
            vault[token].mint,
            findAssociatedTokenAddress(wallet, vault[token].mint),
          ),
          programInstruction,
        ];
  const tokenAccount =
    token === null ? undefined : { asset: accounts.assetAccount, shares: accounts.shareAccount }[token];
  const rent = effects.opened.reduce(
    (sum, { size, account }) => sum + rentToOpen(account, size),
    tokenAccount === undefined ? 0n : rentToOpen(tokenAccount, TOKEN_ACCOUNT_SIZE),
  );
  const needed = maximumFee(computeUnitLimit(operation, instructions), price) + rent;
  if (accounts.walletLamports < needed) {
    throw new DomainError(
      "INSUFFICIENT_SOL",
      `The wallet needs ${needed} lamports of SOL for the fee and account rent; it holds ${accounts.walletLamports}`,
      { context: { neededLamports: needed.toString(), heldLamports: accounts.walletLamports.toString() } },
    );
  }
  const built = buildUnsignedTransaction(wallet, operation, instructions, blockhash, price);
  return {
    transaction: built.transaction,
    lastValidBlockHeight: built.lastValidBlockHeight,
    expiresAt: built.expiresAt,
    expectedBalanceChanges: deriveExpectedBalanceChanges(
      operation,
      vault,
      built,
      tokenAccount === undefined ? effects : { ...effects, tokenAccount },
    ),
  };
}

/** The wallet's pending request, which a claim or a cancel needs: nothing pending is a 409. */
function pendingReceipt(
  accounts: WithdrawalAccounts,
  operation: WithdrawalOperation,
): NonNullable<WithdrawalAccounts["receipt"]> {
  if (accounts.receipt === null) {
    throw new DomainError(
      "NO_PENDING_WITHDRAWAL",
      `This wallet has no pending withdrawal in this vault to ${operation.action}`,
    );
  }
  return accounts.receipt;
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

/**
 * What every prepared withdrawal's details end with: the vault's policy and limits now, the estimate of
 * a request (null for a claim or cancel, which show their own amounts) and no reservation (capacity is
 * checked, never reserved).
 */
function withdrawalTerms<Estimate extends WithdrawalEstimate | null>(
  vault: LoadedVault,
  schedule: ScheduleSettings,
  nowMs: number,
  estimate: Estimate,
): Pick<InitiateDetails, "withdrawalPolicy" | "withdrawalLimits" | "withdrawalReservation"> & {
  withdrawalEstimate: Estimate;
} {
  return {
    ...withdrawalPolicyAndLimits(vault, schedule, nowMs),
    withdrawalEstimate: estimate,
    withdrawalReservation: null,
  };
}

/** What a preparation reads from: the chain, the schedule, the withdrawal's accounts, the request. */
interface Preparing {
  deps: VaultDeps;
  schedule: ScheduleSettings;
  accounts: WithdrawalAccounts;
  request: WithdrawRequest;
}

async function prepareInitiate(preparing: Preparing): Promise<PreparedWithdrawal> {
  const { deps, schedule, accounts, request } = preparing;
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
  const { transaction, ...built } = await buildWithdrawal(
    deps,
    accounts,
    request.wallet,
    requestWithdrawal,
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
    {
      asset: 0n,
      shares: -shares,
      // The receipt the request opens (its address may hold lamports sent there: the program tops it up).
      opened: [{ size: WITHDRAWAL_RECEIPT_ACCOUNT_SIZE, account: accounts.receiptAccount }],
      returned: 0n,
    },
  );
  const estimate = estimateView(vault, shares, state.feeBps);
  return {
    action: "initiate",
    transaction,
    message:
      `Request a withdrawal of ${formatAbout(shares, vault.shares)} from ${state.name}, worth about ` +
      `${formatAbout(BigInt(estimate.net.amount), vault.asset)} after the fee at today's share price; ` +
      `claimable once a new NAV is struck and the queue is funded`,
    details: withdrawalTerms(vault, schedule, nowMs, estimate),
    ...built,
  };
}

async function prepareClaim(preparing: Preparing): Promise<PreparedWithdrawal> {
  const { deps, schedule, accounts, request } = preparing;
  const { vault } = accounts;
  const { state } = vault;
  const receipt = pendingReceipt(accounts, claimWithdrawal);
  const blockers = claimBlockers(state, receipt, accounts.reserveBalance);
  if (blockers.length > 0) {
    throw new DomainError(
      "WITHDRAWAL_NOT_CLAIMABLE",
      `The pending withdrawal of ${formatHuman(receipt.shares, vault.shares)} is not claimable yet: ${blockers.map((blocker) => claimBlockerText(blocker, state, receipt)).join("; ")}`,
      {
        context: { pendingShares: tokenAmount(vault.shares, receipt.shares), blockers },
        details: "GET this endpoint for the withdrawal's progress and estimated arrival",
      },
    );
  }
  const amounts = claimAmounts(state, receipt);
  const { transaction, ...built } = await buildWithdrawal(
    deps,
    accounts,
    request.wallet,
    claimWithdrawal,
    buildClaimWithdrawalInstruction({
      owner: request.wallet,
      vault: vault.address,
      authority: state.authority,
      receipt: accounts.receiptAddress,
      shareMint: state.shareMint,
      escrow: state.escrow,
      reserve: state.reserve,
      ownerAsset: findAssociatedTokenAddress(request.wallet, vault.asset.mint),
    }),
    // The net arrives; the escrowed shares are burned (they left the wallet at the request); the
    // receipt closes and all its lamports come back.
    { asset: amounts.net, shares: 0n, opened: [], returned: accounts.receiptAccount?.lamports ?? 0n },
  );
  return {
    action: "claim",
    transaction,
    message:
      `Claim about ${formatAbout(amounts.net, vault.asset)} (${formatAbout(amounts.gross, vault.asset)} less a ` +
      `${formatHuman(amounts.fee, vault.asset)} fee) for ${formatAbout(receipt.shares, vault.shares)} from ${state.name}`,
    details: {
      requestId: receipt.requestId.toString(),
      claimAmount: estimateView(vault, receipt.shares, receipt.feeBps),
      ...withdrawalTerms(vault, schedule, deps.now(), null),
    },
    ...built,
  };
}

/**
 * The cancel of the wallet's pending request, claimable or not: its escrowed shares come back to the
 * wallet's share account (re-opened idempotently, as a claim does the asset account), the cap usage it
 * took is returned and it leaves the queue. Nothing pending is a 409, as for a claim.
 */
async function prepareCancel(preparing: Preparing): Promise<PreparedWithdrawal> {
  const { deps, schedule, accounts, request } = preparing;
  const { vault } = accounts;
  const { state } = vault;
  const receipt = pendingReceipt(accounts, cancelWithdrawal);
  // The program burns the receipt's fee in shares (rounded up), so a cancel costs what an exit costs.
  const feeShares = withdrawalFeeRoundUp(receipt.shares, receipt.feeBps);
  const returned = receipt.shares - feeShares;
  const value = assetsForSharesRoundDown(returned, state.totalAssets, state.totalShares);
  const { transaction, ...built } = await buildWithdrawal(
    deps,
    accounts,
    request.wallet,
    cancelWithdrawal,
    buildCancelWithdrawalInstruction({
      owner: request.wallet,
      vault: vault.address,
      receipt: accounts.receiptAddress,
      ownerShares: findAssociatedTokenAddress(request.wallet, vault.shares.mint),
      escrow: state.escrow,
      authority: state.authority,
      shareMint: vault.shares.mint,
      queueHoles: findQueueHoles(vault.address),
    }),
    {
      asset: 0n,
      shares: returned,
      // The first cancel that leaves a hole in the queue creates the vault's hole list and pays its
      // rent before the receipt's rent comes back: the wallet must hold it beforehand (it comes back
      // once the list is empty again, through close_queue_holes).
      opened: cancelLeavesHole(state, receipt)
        ? [{ size: QUEUE_HOLES_ACCOUNT_SIZE, account: accounts.queueHolesAccount }]
        : [],
      returned: accounts.receiptAccount?.lamports ?? 0n,
    },
  );
  return {
    action: "cancel",
    transaction,
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
      ...withdrawalTerms(vault, schedule, deps.now(), null),
    },
    ...built,
  };
}

const PREPARE: Record<WithdrawAction, (preparing: Preparing) => Promise<PreparedWithdrawal>> = {
  initiate: prepareInitiate,
  claim: prepareClaim,
  cancel: prepareCancel,
};

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
  return PREPARE[action]({ deps, schedule, accounts, request });
}

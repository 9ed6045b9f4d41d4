// request_withdrawal (the spec's "initiate"): the wallet's shares go into the vault's escrow and a
// receipt (rent paid by the wallet, back at claim or cancel) holds its place in the queue.
import { findAssociatedTokenAddress } from "../../chain/spl-token";
import { DomainError } from "../model/domain-errors";
import { configInForce } from "../model/pending-config";
import { assetsForSharesRoundDown } from "../model/share-math";
import { formatAbout, formatHuman, tokenAmount } from "../model/token-amount";
import { rentExemptMinimum, type VaultDeps } from "../model/vault-state";
import { withdrawalLimits, withdrawalPolicy, type ScheduleSettings } from "../model/withdrawal-rules";
import { findReceiptAndBump } from "../program/addresses";
import { WITHDRAWAL_RECEIPT_ACCOUNT_SIZE } from "../program/idl";
import { buildRequestWithdrawalInstruction } from "../program/instructions";
import { defineOperation } from "./operation";
import type { WithdrawalAccounts } from "./withdrawal-accounts";
import {
  buildForWallet,
  checkCapacity,
  estimateView,
  refuseIfPaused,
  transactionInputs,
  type PreparedWithdrawal,
  type WithdrawOptions,
  type WithdrawRequest,
} from "./withdrawal-prepare";

export const requestWithdrawal = defineOperation({
  instruction: "request_withdrawal",
  action: "initiate",
  amountArg: "shares",
  createdTokenAccount: null,
  takesWithdrawalCap: true,
  rentPaidFor: [WITHDRAWAL_RECEIPT_ACCOUNT_SIZE],
  computeUnits: 20_000,
  // The receipt: find_program_address over the vault and the owner.
  searchedBump: (account) => {
    const vault = account("vault");
    const owner = account("owner");
    return vault === undefined || owner === undefined ? null : findReceiptAndBump(vault, owner).bump;
  },
  event: "WithdrawalRequested",
  activityOf: (event) => {
    if (event.name !== "WithdrawalRequested") return null;
    const { data } = event;
    return {
      owner: data.owner,
      fields: {
        kind: "initiate",
        requestId: data.requestId,
        assets: data.assets,
        shares: data.shares,
        fee: null,
      },
    };
  },
  partnerEvent: "withdrawal.requested",
  partnerData: (fields) => ({
    requestId: fields.integer("requestId").toString(),
    shares: fields.shares("shares"),
    estimatedAssets: fields.asset("assets"),
    navFloor: fields.integer("navFloor").toString(),
  }),
});

/**
 * The request's prepare step: refused below the minimum (unless it is all the wallet's shares), above
 * the wallet's shares, while paused (but for the manager's silence) or past a cap's capacity now.
 */
export async function prepareRequestWithdrawal(
  deps: VaultDeps,
  schedule: ScheduleSettings,
  accounts: WithdrawalAccounts,
  request: WithdrawRequest,
  options: WithdrawOptions,
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
  const [blockhash, price] = await transactionInputs(deps, vault);
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
  const built = await buildForWallet(
    deps,
    { vault, accounts, request, options },
    requestWithdrawal,
    instructions,
    {
      blockhash,
      price,
      rent: rentExemptMinimum(WITHDRAWAL_RECEIPT_ACCOUNT_SIZE),
    },
  );
  const estimate = estimateView(vault, shares, state.feeBps);
  return {
    action: "initiate",
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
    ...built,
  };
}

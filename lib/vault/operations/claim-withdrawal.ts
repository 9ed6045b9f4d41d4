// claim_withdrawal: a funded request pays its net (gross less the fee it accepted) into the owner's
// asset account, created if it has none; the receipt closes and its rent goes back.
import {
  TOKEN_ACCOUNT_SIZE,
  buildCreateAssociatedTokenAccountIdempotentInstruction,
  findAssociatedTokenAddress,
} from "../../chain/spl-token";
import { DomainError } from "../model/domain-errors";
import { formatAbout, formatHuman, tokenAmount } from "../model/token-amount";
import { rentExemptMinimum, type VaultDeps } from "../model/vault-state";
import {
  claimAmounts,
  claimBlockerText,
  claimBlockers,
  withdrawalLimits,
  withdrawalPolicy,
  type ScheduleSettings,
} from "../model/withdrawal-rules";
import { buildClaimWithdrawalInstruction } from "../program/instructions";
import { defineOperation } from "./operation";
import type { WithdrawalAccounts } from "./withdrawal-accounts";
import {
  buildForWallet,
  estimateView,
  pendingReceipt,
  transactionInputs,
  type PreparedWithdrawal,
  type WithdrawOptions,
  type WithdrawRequest,
} from "./withdrawal-prepare";

export const claimWithdrawal = defineOperation({
  instruction: "claim_withdrawal",
  action: "claim",
  amountArg: null,
  createdTokenAccount: "asset",
  takesWithdrawalCap: false,
  rentPaidFor: [],
  computeUnits: 40_000,
  searchedBump: null,
  event: "WithdrawalClaimed",
  activityOf: (event) => {
    if (event.name !== "WithdrawalClaimed") return null;
    const { data } = event;
    return {
      owner: data.owner,
      fields: {
        kind: "claim",
        requestId: data.requestId,
        assets: data.net,
        shares: data.shares,
        fee: data.fee,
      },
    };
  },
  partnerEvent: "withdrawal.claimed",
  partnerData: (fields) => ({
    requestId: fields.integer("requestId").toString(),
    shares: fields.shares("shares"),
    gross: fields.asset("gross"),
    fee: fields.asset("fee"),
    net: fields.asset("net"),
  }),
});

/** The claim's prepare step: refused with nothing pending, or while what it waits on is not done. */
export async function prepareClaimWithdrawal(
  deps: VaultDeps,
  schedule: ScheduleSettings,
  accounts: WithdrawalAccounts,
  request: WithdrawRequest,
  options: WithdrawOptions,
): Promise<PreparedWithdrawal> {
  const { vault } = accounts;
  const receipt = pendingReceipt(accounts, "claim");
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
  const [blockhash, price] = await transactionInputs(deps, vault);
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
  const built = await buildForWallet(
    deps,
    { vault, accounts, request, options },
    claimWithdrawal,
    instructions,
    {
      blockhash,
      price,
      rent: accounts.assetAccountExists ? 0n : rentExemptMinimum(TOKEN_ACCOUNT_SIZE),
    },
  );
  const amounts = claimAmounts(state, receipt);
  return {
    action: "claim",
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
    ...built,
  };
}

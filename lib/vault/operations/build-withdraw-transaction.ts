// Preparing a withdrawal: the action (initiate or claim) is read from the chain unless the caller names
// it (a cancel is only ever named), then the operation's own prepare step (request-withdrawal.ts,
// claim-withdrawal.ts, cancel-withdrawal.ts) refuses what the program would and builds the transaction.
import { formatHuman, tokenAmount } from "../model/token-amount";
import { DomainError } from "../model/domain-errors";
import type { VaultDeps } from "../model/vault-state";
import type { ScheduleSettings } from "../model/withdrawal-rules";
import { prepareCancelWithdrawal } from "./cancel-withdrawal";
import { prepareClaimWithdrawal } from "./claim-withdrawal";
import { prepareRequestWithdrawal } from "./request-withdrawal";
import { readWithdrawalAccounts, type WithdrawalAccounts } from "./withdrawal-accounts";
import type {
  PreparedWithdrawal,
  WithdrawAction,
  WithdrawOptions,
  WithdrawRequest,
} from "./withdrawal-prepare";

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
  options: WithdrawOptions = {},
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
      return prepareRequestWithdrawal(deps, schedule, accounts, request, options);
    case "claim":
      return prepareClaimWithdrawal(deps, schedule, accounts, request, options);
    case "cancel":
      return prepareCancelWithdrawal(deps, schedule, accounts, request, options);
  }
}

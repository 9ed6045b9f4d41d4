// A checked transaction's simulated balance changes, in words for the confirm step: what the wallet
// pays and receives, token by token, and the SOL it spends on the fee (and any account it opens).
import type { BalanceChanges, VerifiedTransaction } from "../vault/operations/verify-transaction";
import type { VaultToken } from "../vault/model/vault-view";
import { formatAmount, formatSol } from "./amounts";

/** One line per balance that moves, in the order asset, shares, SOL; nothing for one that does not. */
export function balanceChangeWords(
  changes: BalanceChanges,
  tokens: { asset: VaultToken; shares: VaultToken },
): string[] {
  const lines: string[] = [];
  const token = (amount: bigint, { symbol, decimals }: VaultToken) => {
    if (amount < 0n) {
      lines.push(`You pay ${formatAmount(-amount, decimals, { maxFraction: decimals })} ${symbol}`);
    } else if (amount > 0n) {
      lines.push(`You receive ${formatAmount(amount, decimals, { maxFraction: decimals })} ${symbol}`);
    }
  };
  token(changes.asset, tokens.asset);
  token(changes.shares, tokens.shares);
  if (changes.lamports < 0n) {
    lines.push(`Network fee and account rent: ${formatSol(-changes.lamports)} SOL`);
  } else if (changes.lamports > 0n) {
    lines.push(`You receive ${formatSol(changes.lamports)} SOL (account rent returned)`);
  }
  return lines;
}

/**
 * What a withdrawal request's SOL buys beyond the fee: its receipt account's rent, which comes back
 * to the wallet when the receipt closes at the claim or the cancel. Null for the other operations.
 */
export function receiptRentWords(
  verified: Pick<VerifiedTransaction, "operation" | "maxLamportsSpent" | "maxFeeLamports">,
): string | null {
  const rent = verified.maxLamportsSpent - verified.maxFeeLamports;
  if (verified.operation !== "initiate" || rent <= 0n) {
    return null;
  }
  return `Of that, ${formatSol(rent)} SOL is your withdrawal receipt's rent: it comes back to this wallet when you claim or cancel.`;
}

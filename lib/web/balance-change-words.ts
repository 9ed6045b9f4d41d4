// A checked transaction's simulated balance changes, in words for the confirm step: what the wallet
// pays and receives, token by token, and the SOL it spends on the fee (and any account it opens).
import type { BalanceChanges } from "../vault/verify-transaction";
import type { VaultToken } from "../vault/vault-view";
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

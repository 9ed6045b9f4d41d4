// A checked transaction's simulated balance changes, in words for the confirm step: what the wallet
// pays and receives, token by token, and the SOL it spends on the fee (and any account it opens).
import type { BalanceChanges } from "../vault/operations/balance-changes";
import type { VerifiedTransaction } from "../vault/operations/verify-transaction";
import type { VaultToken } from "../vault/model/vault-view";
import { DECIMALS_OFFSET, partnerFeeRoundDown } from "../vault/model/share-math";
import { formatAmount, formatSol } from "./amounts";
import { bpsPercent } from "./embed-partner";

/** One line per balance that moves, in the order asset, shares, SOL; nothing for one that does not. */
export function balanceChangeWords(
  changes: BalanceChanges,
  tokens: { asset: VaultToken; shares: VaultToken },
  locale?: string,
): string[] {
  const lines: string[] = [];
  // What the simulation says moves, in the reader's locale: the asset exactly, the shares with the six
  // decimals every page gives them (cut down), so the flow shows one precision for them.
  const token = (amount: bigint, { symbol, decimals }: VaultToken, fixed: number | null) => {
    const options = { locale, maxFraction: fixed ?? decimals, minFraction: fixed ?? 2 };
    if (amount < 0n) {
      lines.push(`You pay ${formatAmount(-amount, decimals, options)} ${symbol}`);
    } else if (amount > 0n) {
      lines.push(`You receive ${formatAmount(amount, decimals, options)} ${symbol}`);
    }
  };
  token(changes.asset, tokens.asset, null);
  token(changes.shares, tokens.shares, Math.max(0, tokens.shares.decimals - DECIMALS_OFFSET));
  if (changes.lamports < 0n) {
    lines.push(
      `Network fee and account rent: ${formatSol(-changes.lamports, { locale, rounding: "up" })} SOL`,
    );
  } else if (changes.lamports > 0n) {
    lines.push(`You receive ${formatSol(changes.lamports, { locale })} SOL (account rent returned)`);
  }
  return lines;
}

/**
 * What a withdrawal request's SOL buys beyond the fee: its receipt account's rent, which comes back
 * to the wallet when the receipt closes at the claim or the cancel. Null for the other operations.
 */
export function receiptRentWords(
  verified: Pick<VerifiedTransaction, "operation" | "maxLamportsSpent" | "maxFeeLamports">,
  locale?: string,
): string | null {
  const rent = verified.maxLamportsSpent - verified.maxFeeLamports;
  if (verified.operation !== "initiate" || rent <= 0n) {
    return null;
  }
  return `Of that, ${formatSol(rent, { locale, rounding: "up" })} SOL is your withdrawal receipt's rent: it comes back to this wallet when you claim or cancel.`;
}

/**
 * A deposit's partner fee, as checked before signing: part of what the wallet pays goes to the partner
 * in the same transaction. Null for a deposit without one and for the other operations.
 */
export function partnerFeeWords(
  verified: Pick<VerifiedTransaction, "partnerFee" | "args">,
  asset: VaultToken,
  locale?: string,
): string | null {
  const { partnerFee } = verified;
  const amount = verified.args.amount;
  if (partnerFee === null || amount === undefined || !/^\d{1,20}$/.test(amount)) {
    return null;
  }
  const fee = partnerFeeRoundDown(BigInt(amount), partnerFee.feeBps);
  const partner = partnerFee.partner.toBase58();
  const paid = formatAmount(fee, asset.decimals, { locale, maxFraction: asset.decimals, minFraction: 2 });
  return `Of that, ${paid} ${asset.symbol} (${bpsPercent(partnerFee.feeBps, locale)}) is the partner fee, paid to ${partner.slice(0, 4)}…${partner.slice(-4)}`;
}

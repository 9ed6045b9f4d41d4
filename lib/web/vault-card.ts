// What a shared vault link unfurls to (Open Graph and Twitter cards, and the card image): the vault's
// name, APY, TVL and fee in the words and figures the pages use.
import type { VaultView } from "../vault/model/vault-view";
import { formatAmount, formatPercent } from "./amounts";
import type { VaultCardFacts } from "./server-reads";

export interface VaultCard {
  title: string;
  description: string;
  apy: string;
  tvl: string;
  fee: string;
}

export function vaultCard(vault: VaultView, facts: VaultCardFacts | null): VaultCard {
  const apy = facts?.apy7d === null || facts === null ? "—" : formatPercent(facts.apy7d);
  const tvl = `${formatAmount(vault.totalAssets, vault.asset.decimals)} ${vault.asset.symbol}`;
  const fee = formatPercent(vault.feeBps / 10_000);
  const apyWords = apy === "—" ? "APY not known yet" : `${apy} APY over 7 days`;
  return {
    title: `${vault.name}: deposit ${vault.asset.symbol}`,
    description:
      `Deposit ${vault.asset.symbol} into ${vault.name} and receive ${vault.shares.symbol}: ${apyWords}, ` +
      `${tvl} deposited, ${fee} withdrawal fee, withdrawals paid in queue order.`,
    apy,
    tvl,
    fee,
  };
}

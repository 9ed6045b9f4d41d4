"use client";
// The vault directory (the home page): every vault with its caps, share price, TVL, APY and withdrawal
// fee, linked to its page.
import Link from "next/link";

import type { VaultSummaryData } from "@/lib/web/api-client";
import { formatAmount, formatPercent, formatSharePrice } from "@/lib/web/amounts";
import { useReaderLocale } from "../providers/config-context";
import { Card, Skeleton } from "../ui/primitives";
import { ReadError } from "./read-error";
import { useVaultDirectory } from "./vault-reads";

function tokenText(token: { amount: string; decimals: number; symbol: string }, locale: string): string {
  return `${formatAmount(BigInt(token.amount), token.decimals, { locale })} ${token.symbol}`;
}

function VaultRow({ vault }: { vault: VaultSummaryData }) {
  const locale = useReaderLocale();
  return (
    <li>
      <Link
        href={`/vault/${vault.id}`}
        className="grid grid-cols-2 gap-3 rounded-xl border border-line bg-card p-4 shadow-sm hover:border-accent sm:grid-cols-6 sm:items-center"
      >
        <span className="col-span-2 min-w-0 sm:col-span-2">
          <span className="block truncate text-lg font-semibold">{vault.name}</span>
          <span className="block text-xs text-muted">
            {vault.caps.hourly === null
              ? "No withdrawal caps"
              : `Caps ${tokenText(vault.caps.hourly, locale)} an hour`}
            {vault.caps.daily === null ? "" : `, ${tokenText(vault.caps.daily, locale)} a day`}
            {vault.paused ? " · paused" : ""}
          </span>
        </span>
        <span>
          <span className="block text-xs text-muted">Share price</span>
          <span className="tabular font-medium">{formatSharePrice(vault.sharePrice, locale)}</span>
        </span>
        <span>
          <span className="block text-xs text-muted">TVL</span>
          <span className="tabular font-medium">{tokenText(vault.tvl, locale)}</span>
        </span>
        <span>
          <span className="block text-xs text-muted">APY (7 d)</span>
          {vault.apy7d === null ? (
            // An APY needs NAV history to be annualized from (APY_MIN_SPAN_SECONDS, a day by default).
            <span className="block text-xs text-muted" data-testid="apy-unknown">
              Not known yet: too little NAV history
            </span>
          ) : (
            <span className="tabular font-medium">{formatPercent(vault.apy7d, 2, locale)}</span>
          )}
        </span>
        <span>
          <span className="block text-xs text-muted">Withdrawal fee</span>
          <span className="tabular font-medium" data-testid="vault-fee">
            {formatPercent(vault.feeBps / 10_000, 2, locale)}
          </span>
        </span>
      </Link>
    </li>
  );
}

export function VaultDirectoryFeature() {
  const vaults = useVaultDirectory();
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold sm:text-3xl">Vaults</h1>
        <p className="mt-1 text-sm text-muted">
          Deposit into a vault, earn its yield, withdraw through its queue.
        </p>
      </div>
      {vaults.isPending ? (
        <div className="space-y-3" aria-busy="true">
          <Skeleton className="h-20 w-full" label="Loading the vaults" />
          <Skeleton className="h-20 w-full" />
        </div>
      ) : vaults.isError ? (
        <ReadError error={vaults.error} onRetry={() => void vaults.refetch()} retrying="load the vaults" />
      ) : vaults.data.length === 0 ? (
        <Card>
          <p className="text-sm text-muted">No vaults exist on this network yet.</p>
        </Card>
      ) : (
        <ul className="space-y-3" data-testid="vault-list">
          {vaults.data.map((vault) => (
            <VaultRow key={vault.id} vault={vault} />
          ))}
        </ul>
      )}
    </div>
  );
}

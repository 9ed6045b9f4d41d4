"use client";
// The wallet across every vault: what each position is worth, pending withdrawals, idle balances.
import Link from "next/link";
import { useId } from "react";

import { formatAmount, formatSol } from "@/lib/web/amounts";
import { describeError } from "@/lib/web/error-words";
import { positionValue } from "@/lib/web/vault-view";
import { useClientConfig } from "../providers/config-context";
import { Alert, Card, Skeleton, Stat } from "../ui/primitives";
import { useChainVaults, usePortfolio } from "../vault/vault-data-access";
import { FaucetButton } from "../vault/vault-forms";
import { assetText, sharesText } from "../vault/vault-ui";
import { WalletButton } from "../wallet/wallet-ui";
import { useWalletState } from "../wallet/wallet-data-access";

export function PortfolioFeature() {
  const config = useClientConfig();
  const wallet = useWalletState();
  const vaults = useChainVaults();
  const portfolio = usePortfolio(vaults.data);
  const titleId = useId();

  if (wallet.publicKey === null) {
    return (
      <div className="space-y-4">
        <h1 className="text-2xl font-bold sm:text-3xl">Portfolio</h1>
        <Card>
          <p className="mb-3 text-sm text-muted">Connect a wallet to see its positions in every vault.</p>
          <WalletButton />
        </Card>
      </div>
    );
  }
  const error = vaults.error ?? portfolio.error;
  const data = portfolio.data;
  const held = data?.positions.filter((entry) => entry.shares > 0n || entry.receipt !== null) ?? [];
  const asset = config.assets[0];
  const totals = new Map<string, { raw: bigint; decimals: number; symbol: string }>();
  for (const entry of held) {
    const value = positionValue(entry.vault, entry.shares + (entry.receipt?.shares ?? 0n));
    const total = totals.get(entry.vault.assetMint) ?? {
      raw: 0n,
      decimals: entry.vault.decimals,
      symbol: entry.vault.assetSymbol,
    };
    totals.set(entry.vault.assetMint, { ...total, raw: total.raw + value });
  }
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold sm:text-3xl">Portfolio</h1>
      {error !== null ? (
        <Alert tone="error" title={describeError(error).title}>
          {describeError(error).message}
        </Alert>
      ) : null}
      {data === undefined ? (
        <Skeleton className="h-24 w-full" label="Loading your portfolio" />
      ) : (
        <>
          <Card>
            <dl className="grid grid-cols-2 gap-4 sm:grid-cols-3">
              <Stat
                label="In vaults"
                testId="portfolio-total"
                value={
                  totals.size === 0
                    ? "0.00"
                    : [...totals.values()]
                        .map((total) => `${formatAmount(total.raw, total.decimals)} ${total.symbol}`)
                        .join(" + ")
                }
              />
              <Stat
                label="Wallet"
                value={
                  asset === undefined
                    ? "—"
                    : `${formatAmount(data.assetBalances[asset.mint] ?? 0n, asset.decimals)} ${asset.symbol}`
                }
                hint={`${formatSol(data.lamports)} SOL`}
              />
            </dl>
            {held.length === 0 ? (
              <div className="mt-4">
                <FaucetButton />
              </div>
            ) : null}
          </Card>
          <Card title="Positions" titleId={titleId}>
            {held.length === 0 ? (
              <p className="text-sm text-muted">
                No positions yet.{" "}
                <Link href="/" className="text-accent underline">
                  Pick a vault
                </Link>{" "}
                to make a first deposit.
              </p>
            ) : (
              <ul className="divide-y divide-line" data-testid="portfolio-positions">
                {held.map((entry) => (
                  <li key={entry.vault.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                    <div>
                      <Link href={`/vault/${entry.vault.id}`} className="font-semibold text-accent underline">
                        {entry.vault.name}
                      </Link>
                      <p className="text-xs text-muted">{sharesText(entry.shares, entry.vault)}</p>
                    </div>
                    <div className="tabular text-right text-sm">
                      <p className="font-medium">
                        {assetText(positionValue(entry.vault, entry.shares), entry.vault)}
                      </p>
                      {entry.receipt === null ? null : (
                        <p className="text-xs text-warn">
                          + {sharesText(entry.receipt.shares, entry.vault)} withdrawing (about{" "}
                          {assetText(positionValue(entry.vault, entry.receipt.shares), entry.vault)})
                        </p>
                      )}
                    </div>
                  </li>
                ))}
              </ul>
            )}
          </Card>
        </>
      )}
    </div>
  );
}

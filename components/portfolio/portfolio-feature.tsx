"use client";
// The wallet across every vault (GET /api/portfolio): each position's value, cost basis and PnL, its
// pending withdrawal, the totals; and the wallet's own SOL and asset balances from the chain.
import Link from "next/link";
import { useId } from "react";

import type { PortfolioData } from "@/lib/web/api-client";
import { formatAmount, formatPercent, formatSol } from "@/lib/web/amounts";
import { describeError } from "@/lib/web/error-words";
import { isChainStall } from "@/lib/web/errors";
import { useClientConfig } from "../providers/config-context";
import { Alert, Card, Skeleton, Stat } from "../ui/primitives";
import { usePortfolio, useWalletBalances } from "../vault/wallet-reads";
import { FaucetButton } from "../vault/faucet-button";
import { WalletButton } from "../wallet/wallet-ui";
import { useWalletState } from "../wallet/wallet-data-access";

type Token = { amount: string; decimals: number; symbol: string };
type Position = PortfolioData["positions"][number];

function tokenText(token: Token): string {
  return `${formatAmount(BigInt(token.amount), token.decimals)} ${token.symbol}`;
}

function pnlText(position: Position): string {
  const amount = BigInt(position.pnl.amount);
  const sign = amount > 0n ? "+" : amount < 0n ? "−" : "";
  const magnitude = formatAmount(amount < 0n ? -amount : amount, position.value.decimals);
  const fraction =
    position.pnl.fraction === null ? "" : ` (${formatPercent(Math.abs(position.pnl.fraction))})`;
  return `${sign}${magnitude} ${position.value.symbol}${fraction}`;
}

function PositionRow({ position }: { position: Position }) {
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 py-3">
      <div>
        <Link href={`/vault/${position.vaultId}`} className="font-semibold text-accent-text underline">
          {position.vaultName}
        </Link>
        <p className="text-xs text-muted">
          {tokenText(position.shares)} · cost {tokenText(position.costBasis)}
        </p>
      </div>
      <div className="tabular text-right text-sm">
        <p className="font-medium">{tokenText(position.value)}</p>
        <p className="text-xs text-muted">PnL {pnlText(position)}</p>
        {position.pendingWithdrawal === null ? null : (
          <p className="text-xs text-warn">
            {tokenText(position.pendingWithdrawal.shares)} withdrawing (about{" "}
            {tokenText(position.pendingWithdrawal.value)})
          </p>
        )}
      </div>
    </li>
  );
}

export function PortfolioFeature() {
  const config = useClientConfig();
  const wallet = useWalletState();
  const portfolio = usePortfolio();
  const balances = useWalletBalances();
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
  const error = portfolio.error ?? balances.error;
  const data = portfolio.data;
  const asset = config.assets[0];
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold sm:text-3xl">Portfolio</h1>
      {/* The chain not answering is the page's notice (ChainStallNotice), said once. */}
      {error === null || isChainStall(error) ? null : (
        <Alert tone="error" title={describeError(error).title}>
          {describeError(error).message}
        </Alert>
      )}
      {data === undefined ? (
        portfolio.isPending ? (
          <Skeleton className="h-24 w-full" label="Loading your portfolio" />
        ) : null
      ) : (
        <>
          <Card>
            <dl className="grid grid-cols-2 gap-4 sm:grid-cols-3">
              <Stat
                label="In vaults"
                testId="portfolio-total"
                value={data.totalValue.length === 0 ? "0.00" : data.totalValue.map(tokenText).join(" + ")}
              />
              <Stat
                label="Wallet"
                value={
                  asset === undefined || balances.data === undefined
                    ? "—"
                    : `${formatAmount(balances.data.assets[asset.mint] ?? 0n, asset.decimals)} ${asset.symbol}`
                }
                hint={balances.data === undefined ? undefined : `${formatSol(balances.data.lamports)} SOL`}
              />
            </dl>
            {data.positions.length === 0 ? (
              <div className="mt-4">
                <FaucetButton />
              </div>
            ) : null}
          </Card>
          <Card title="Positions" titleId={titleId}>
            {data.positions.length === 0 ? (
              <p className="text-sm text-muted">
                No positions yet.{" "}
                <Link href="/" className="text-accent-text underline">
                  Pick a vault
                </Link>{" "}
                to make a first deposit.
              </p>
            ) : (
              <ul className="divide-y divide-line" data-testid="portfolio-positions">
                {data.positions.map((position) => (
                  <PositionRow key={position.vaultId} position={position} />
                ))}
              </ul>
            )}
          </Card>
        </>
      )}
    </div>
  );
}

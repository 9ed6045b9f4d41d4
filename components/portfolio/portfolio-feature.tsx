"use client";
// The wallet across every vault (GET /api/portfolio): each position's value and cost basis, its result
// told apart (total = realized + unrealized, and the withdrawal fees paid, from the program's events),
// its pending withdrawal, the totals; and the wallet's own SOL and asset balances from the chain.
import Link from "next/link";
import { useId } from "react";

import type { PortfolioData } from "@/lib/web/api-client";
import { formatAmount, formatPercent, formatSol, fractionDigitsFor, type Rounding } from "@/lib/web/amounts";
import { DECIMALS_OFFSET } from "@/lib/vault/model/share-math";
import { describeError } from "@/lib/web/error-words";
import { isChainStall } from "@/lib/web/errors";
import { useClientConfig, useReaderLocale } from "../providers/config-context";
import { Alert, Card, Skeleton, Stat } from "../ui/primitives";
import { usePortfolio, useWalletBalances } from "../vault/wallet-reads";
import { FaucetButton } from "../vault/faucet-button";
import { WalletButton } from "../wallet/wallet-ui";
import { useWalletState } from "../wallet/wallet-data-access";

type Token = { amount: string; decimals: number; symbol: string };
type Position = PortfolioData["positions"][number];

/** The figures of one position, in the reader's locale, with one precision for the asset. */
interface Figures {
  locale: string;
  /** The position's asset precision: two digits, more when a result or a fee would not show. */
  fraction: number;
}

function tokenText(token: Token, figures: Figures, rounding: Rounding = "down"): string {
  return `${formatAmount(BigInt(token.amount), token.decimals, {
    locale: figures.locale,
    minFraction: figures.fraction,
    maxFraction: figures.fraction,
    rounding,
  })} ${token.symbol}`;
}

/** Shares always with the asset's decimals (one precision for the unit across the app). */
function sharesText(token: Token, locale: string): string {
  const fraction = Math.max(0, token.decimals - DECIMALS_OFFSET);
  return `${formatAmount(BigInt(token.amount), token.decimals, { locale, minFraction: fraction, maxFraction: fraction })} ${token.symbol}`;
}

/** "+24.50 USDC", "−0.49 USDC": a signed result, to the nearest shown digit (no sign on a shown zero). */
function signedText(amount: bigint, token: Token, figures: Figures): string {
  const magnitude = formatAmount(amount < 0n ? -amount : amount, token.decimals, {
    locale: figures.locale,
    minFraction: figures.fraction,
    maxFraction: figures.fraction,
    rounding: "nearest",
  });
  const shownZero = !/[1-9]/.test(magnitude);
  const sign = shownZero ? "" : amount > 0n ? "+" : amount < 0n ? "−" : "";
  return `${sign}${magnitude} ${token.symbol}`;
}

/** "−0.0008%": a result's fraction with the digits it needs to show, signed as the amount is. */
function signedPercent(fraction: number, locale: string): string {
  const digits = Math.abs(fraction) >= 0.001 || fraction === 0 ? 2 : 4;
  const magnitude = formatPercent(Math.abs(fraction), digits, locale);
  const shownZero = !/[1-9]/.test(magnitude);
  return `${shownZero ? "" : fraction > 0 ? "+" : "−"}${magnitude}`;
}

/** Enough digits for the smallest non-zero result or fee of the position to show. */
function positionFigures(position: Position, locale: string): Figures {
  const amounts = [position.totalPnl.amount, position.realizedPnl.amount, position.feesPaid.amount]
    .map((amount) => BigInt(amount))
    .filter((amount) => amount !== 0n);
  const fraction = Math.max(
    2,
    ...amounts.map((amount) => fractionDigitsFor(amount, position.value.decimals)),
  );
  return { locale, fraction };
}

function PositionRow({ position }: { position: Position }) {
  const locale = useReaderLocale();
  const figures = positionFigures(position, locale);
  const total = BigInt(position.totalPnl.amount);
  const fraction = position.totalPnl.fraction;
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 py-3">
      <div>
        <Link href={`/vault/${position.vaultId}`} className="font-semibold text-accent-text underline">
          {position.vaultName}
        </Link>
        <p className="text-xs text-muted">
          {sharesText(position.shares, locale)} · cost {tokenText(position.costBasis, figures)}
        </p>
      </div>
      <div className="tabular text-right text-sm" data-testid="position-result">
        <p className="font-medium">{tokenText(position.value, figures, "nearest")}</p>
        <p className={`text-xs ${total < 0n ? "text-bad" : "text-muted"}`} data-testid="position-total-pnl">
          Result {signedText(total, position.value, figures)}
          {fraction === null ? "" : ` (${signedPercent(fraction, locale)} of deposits)`}
        </p>
        <p className="text-xs text-muted" data-testid="position-pnl-parts">
          realized {signedText(BigInt(position.realizedPnl.amount), position.value, figures)} · unrealized{" "}
          {signedText(BigInt(position.unrealizedPnl.amount), position.value, figures)}
        </p>
        <p className="text-xs text-muted" data-testid="position-fees-paid">
          Withdrawal fees paid {tokenText(position.feesPaid, figures, "nearest")}
        </p>
        {position.pendingWithdrawal === null ? null : (
          <p className="text-xs text-warn">
            {sharesText(position.pendingWithdrawal.shares, locale)} withdrawing (about{" "}
            {tokenText(position.pendingWithdrawal.value, figures)})
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
  const locale = useReaderLocale();
  const figures: Figures = { locale, fraction: 2 };

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
                value={
                  data.totalValue.length === 0
                    ? formatAmount(0n, 2, { locale })
                    : data.totalValue.map((token) => tokenText(token, figures, "nearest")).join(" + ")
                }
              />
              <Stat
                label="Wallet"
                value={
                  asset === undefined || balances.data === undefined
                    ? "—"
                    : `${formatAmount(balances.data.assets[asset.mint] ?? 0n, asset.decimals, { locale })} ${asset.symbol}`
                }
                hint={
                  balances.data === undefined
                    ? undefined
                    : `${formatSol(balances.data.lamports, { locale })} SOL`
                }
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

"use client";
// The vault page (and its embeddable variant): its header, numbers, chart, caps, activity and actions,
// with loading, not-found and error states.
import { ExplorerLink } from "@/components/ui/explorer-link";
import { useEffect, useState } from "react";

import { shortAddress } from "@/lib/web/client-config";
import { formatAmount, formatSharePrice } from "@/lib/web/amounts";
import { withLivePrice } from "@/lib/web/nav-history";
import type { PauseInForce, VaultView } from "@/lib/vault/model/vault-view";
import { pauseWords } from "@/lib/web/pause-words";
import { useClientConfig, useReaderLocale } from "../providers/config-context";
import { LocalTime, useHydrated } from "../ui/local-time";
import { Button, Card, Skeleton } from "../ui/primitives";
import { useNow } from "../ui/use-now";
import { useReadError } from "../ui/use-read-error";
import { WalletButton } from "../wallet/wallet-ui";
import { ReadError } from "./read-error";
import { VaultNotFound } from "./vault-not-found";
import { ShareBlink } from "./share-blink";
import { chooseAction, useShownAction } from "./action-tabs";
import { useNoWalletInFrame } from "./embed-link-out";
import { VaultActions } from "./vault-actions";
import { VaultActivity } from "./vault-activity-card";
import { useIndexedNav, useNavHistory, useVault, useVaultStats } from "./vault-reads";
import { SharePriceChart } from "./share-price-chart";
import { CapsCard, VaultStats } from "./vault-ui";
import { useWalletPosition } from "./wallet-reads";

/** Whether any part of the element with this id is on screen (assumed so until the browser says). */
function useOnScreen(id: string): boolean {
  const [onScreen, setOnScreen] = useState(true);
  useEffect(() => {
    const element = document.getElementById(id);
    if (element === null || typeof IntersectionObserver === "undefined") {
      return;
    }
    const observer = new IntersectionObserver(([entry]) => setOnScreen(entry?.isIntersecting ?? false));
    observer.observe(element);
    return () => observer.disconnect();
  }, [id]);
  return onScreen;
}

/**
 * On a phone the deposit and withdraw forms are a thumb away wherever the page is scrolled: a bar that
 * shows which form is open, and steps aside while the forms are on screen (no second Deposit button
 * beside the form's own).
 */
function MobileActionBar() {
  const shown = useShownAction();
  if (useOnScreen("vault-actions")) {
    return null;
  }
  return (
    <nav
      aria-label="Deposit or withdraw"
      className="fixed inset-x-0 bottom-0 z-40 flex gap-2 border-t border-line bg-card p-3 lg:hidden"
      data-testid="mobile-action-bar"
    >
      {(
        [
          ["deposit", "Deposit"],
          ["withdraw", "Withdraw"],
        ] as const
      ).map(([action, label]) => (
        <Button
          key={action}
          variant={shown === action ? "primary" : "secondary"}
          aria-pressed={shown === action}
          className="flex-1"
          onClick={() => chooseAction(action)}
        >
          {label}
        </Button>
      ))}
    </nav>
  );
}

/** The embed's header wallet button, left out where no wallet can be reached (the link-out says so). */
function EmbedWalletButton() {
  return useNoWalletInFrame() ? null : <WalletButton compact />;
}

function VaultSkeleton() {
  return (
    <div className="space-y-6" aria-busy="true">
      <Skeleton className="h-9 w-64" label="Loading the vault" />
      <div className="grid grid-cols-2 gap-4 sm:grid-cols-4">
        {[0, 1, 2, 3].map((index) => (
          <Skeleton key={index} className="h-14 w-full" />
        ))}
      </div>
      <Skeleton className="h-56 w-full" />
    </div>
  );
}

/**
 * The chain did not answer the first read: the indexer's last NAV, marked with when it was struck, and
 * the depositors from the statistics, beside the error.
 */
function IndexedFallback({ id }: { id: string }) {
  const nav = useIndexedNav(id, true);
  const stats = useVaultStats(id);
  const locale = useReaderLocale();
  if (nav.data === undefined) {
    return null;
  }
  const { totalAssets } = nav.data;
  return (
    <Card title="Last indexed figures">
      <dl className="grid grid-cols-2 gap-4 text-sm" data-testid="indexed-fallback">
        <div>
          <dt className="text-muted">Share price</dt>
          <dd className="tabular font-medium">
            {formatSharePrice(nav.data.sharePrice, locale)} {totalAssets.symbol}
          </dd>
        </div>
        <div>
          <dt className="text-muted">Total assets</dt>
          <dd className="tabular font-medium">
            {formatAmount(BigInt(totalAssets.amount), totalAssets.decimals, { locale })} {totalAssets.symbol}
          </dd>
        </div>
      </dl>
      <p className="mt-2 text-xs text-muted">
        {nav.data.struckAt === null ? (
          "No NAV struck yet."
        ) : (
          <>
            As of <LocalTime time={nav.data.struckAt} format="date-time" />, the last NAV the app indexed
          </>
        )}
        {stats.data === undefined ? "" : ` · ${stats.data.depositors} depositors`}
      </p>
    </Card>
  );
}

/** Whose pause it is and when it ends, in the reader's zone (filled in once hydrated, as LocalTime). */
function PauseNotice({ pause }: { pause: PauseInForce }) {
  const hydrated = useHydrated();
  const locale = useReaderLocale();
  return (
    <span className="ml-2 font-semibold text-warn" data-testid="vault-paused">
      {hydrated ? pauseWords(pause, { locale }) : "Paused"}
    </span>
  );
}

export function VaultFeature({
  id,
  variant,
  initialVault = null,
}: {
  id: string;
  variant: "site" | "embed";
  initialVault?: VaultView | null;
}) {
  const config = useClientConfig();
  const vault = useVault(id, initialVault);
  const stats = useVaultStats(id);
  const history = useNavHistory(id, stats.data?.firstNavAt);
  const position = useWalletPosition(vault.data);
  const nowMs = useNow(15_000);
  const embed = variant === "embed";

  // Once a first read failed, its error and the indexer's figures stay while it is asked again: no
  // blank skeleton between the tries.
  const readError = useReadError(vault);
  if (vault.data === undefined) {
    if (readError === null) {
      return <VaultSkeleton />;
    }
    return readError instanceof Error && readError.name === "VaultNotFoundError" ? (
      <VaultNotFound id={id} cluster={config.cluster} embed={embed} />
    ) : (
      <div className="space-y-4">
        <ReadError
          error={readError}
          onRetry={() => void vault.refetch()}
          retrying="read the vault from the chain"
        />
        <IndexedFallback id={id} />
      </div>
    );
  }
  const data = vault.data;
  // One series for the header's price, the chart and the change tile: the strikes, then the price now.
  const series =
    history.data === undefined
      ? undefined
      : withLivePrice(history.data, { time: nowMs / 1000, sharePrice: data.sharePrice });
  return (
    <div className={`space-y-6 ${embed ? "" : "pb-20 lg:pb-0"}`}>
      {vault.isRefetchError ? (
        <ReadError
          error={vault.error}
          onRetry={() => void vault.refetch()}
          retrying="read the vault from the chain"
          hasData
        />
      ) : null}
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div className="min-w-0">
          <h1 className="text-2xl font-bold sm:text-3xl" data-testid="vault-name">
            {data.name}
          </h1>
          <p className="mt-1 text-sm text-muted">
            {data.asset.symbol} vault ·{" "}
            <ExplorerLink
              target={{ address: data.id }}
              className="font-mono underline decoration-dotted underline-offset-2 hover:text-accent-text"
              testId="vault-address"
            >
              {shortAddress(data.id)}
            </ExplorerLink>
            {data.pause === null ? null : <PauseNotice pause={data.pause} />}
          </p>
        </div>
        {embed ? (
          <div className="flex items-center gap-2">
            <EmbedWalletButton />
            <a
              href={`/vault/${data.id}`}
              target="_blank"
              rel="noopener"
              className="text-sm font-medium text-accent-text underline"
            >
              Open in app ↗
            </a>
          </div>
        ) : (
          <ShareBlink vaultId={data.id} />
        )}
      </header>
      <VaultStats vault={data} stats={stats.data} history={series?.points} position={position.data} />
      <div className="grid gap-6 lg:grid-cols-5">
        <div className="space-y-6 lg:col-span-3">
          <SharePriceChart
            vault={data}
            history={series?.points}
            feesKept={series?.feesKept ?? null}
            // The series waits for the stats' first strike, so their failure is the chart's too.
            error={history.error ?? (stats.data === undefined ? stats.error : null)}
            onRetry={() => void (stats.data === undefined ? stats.refetch() : history.refetch())}
            retrying="load the share price history"
          />
          <CapsCard vault={data} stats={stats.data} nowMs={nowMs} />
          {embed ? null : <VaultActivity vault={data} />}
        </div>
        {/* On a phone the actions come first, right under the numbers. */}
        <div id="vault-actions" className="order-first scroll-mt-4 lg:order-none lg:col-span-2">
          <VaultActions vault={data} embed={embed} />
        </div>
      </div>
      {embed ? null : <MobileActionBar />}
    </div>
  );
}

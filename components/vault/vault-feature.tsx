"use client";
// The vault page (and its embeddable variant): its header, numbers, chart, caps, activity and actions,
// with loading, not-found and error states.
import { ExplorerLink } from "@/components/ui/explorer-link";
import Link from "next/link";

import { shortAddress } from "@/lib/web/client-config";
import type { VaultView } from "@/lib/vault/vault-view";
import { Button, Card, Skeleton } from "../ui/primitives";
import { useNow } from "../ui/use-now";
import { WalletButton } from "../wallet/wallet-ui";
import { ReadError } from "./read-error";
import { ShareBlink } from "./share-blink";
import { chooseAction } from "./action-tabs";
import { useNoWalletInFrame } from "./embed-link-out";
import { VaultActions } from "./vault-actions";
import { VaultActivity } from "./vault-activity-card";
import { useNavHistory, useVault, useVaultStats } from "./vault-reads";
import { SharePriceChart } from "./share-price-chart";
import { CapsCard, VaultStats } from "./vault-ui";
import { useWalletPosition } from "./wallet-reads";

/** On a phone the deposit and withdraw forms are a thumb away wherever the page is scrolled. */
function MobileActionBar() {
  return (
    <nav
      aria-label="Deposit or withdraw"
      className="fixed inset-x-0 bottom-0 z-40 flex gap-2 border-t border-line bg-card p-3 lg:hidden"
      data-testid="mobile-action-bar"
    >
      <Button className="flex-1" onClick={() => chooseAction("deposit")}>
        Deposit
      </Button>
      <Button variant="secondary" className="flex-1" onClick={() => chooseAction("withdraw")}>
        Withdraw
      </Button>
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

export function VaultFeature({
  id,
  variant,
  initialVault = null,
}: {
  id: string;
  variant: "site" | "embed";
  initialVault?: VaultView | null;
}) {
  const vault = useVault(id, initialVault);
  const stats = useVaultStats(id);
  const history = useNavHistory(id, stats.data?.firstNavAt);
  const position = useWalletPosition(vault.data);
  const nowMs = useNow(15_000);
  const embed = variant === "embed";

  if (vault.isPending) {
    return <VaultSkeleton />;
  }
  if (vault.isError) {
    return vault.error.name === "VaultNotFoundError" ? (
      <Card>
        <h1 className="text-xl font-semibold">No vault at this address</h1>
        <p className="mt-2 text-sm text-muted">
          {shortAddress(id)} is not a vault of this program on this network.{" "}
          {embed ? null : (
            <Link href="/" className="text-accent-text underline">
              See all vaults
            </Link>
          )}
        </p>
      </Card>
    ) : (
      <ReadError error={vault.error} onRetry={() => void vault.refetch()} />
    );
  }
  const data = vault.data;
  return (
    <div className={`space-y-6 ${embed ? "" : "pb-20 lg:pb-0"}`}>
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
            {data.paused ? <span className="ml-2 font-semibold text-warn">Paused</span> : null}
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
      <VaultStats vault={data} stats={stats.data} history={history.data} position={position.data} />
      <div className="grid gap-6 lg:grid-cols-5">
        <div className="space-y-6 lg:col-span-3">
          <SharePriceChart
            vault={data}
            history={history.data}
            // The series waits for the stats' first strike, so their failure is the chart's too.
            error={history.error ?? (stats.data === undefined ? stats.error : null)}
            onRetry={() => void (stats.data === undefined ? stats.refetch() : history.refetch())}
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

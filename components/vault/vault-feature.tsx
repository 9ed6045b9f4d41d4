"use client";
// The vault page (and its embeddable variant) and the vault directory: composition of the data hooks
// and the ui pieces, with loading, empty and error states.
import { ExplorerLink } from "@/components/ui/explorer-link";
import Link from "next/link";
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from "react";

import type { VaultSummaryData } from "@/lib/web/api-client";
import { formatAmount, formatPercent, formatSharePrice } from "@/lib/web/amounts";
import { shortAddress } from "@/lib/web/client-config";
import { describeError } from "@/lib/web/error-words";
import type { VaultView } from "@/lib/web/vault-view";
import { ActivityList, sortActivity } from "../activity/activity-ui";
import { useClientConfig } from "../providers/config-context";
import { Alert, Button, Card, Skeleton } from "../ui/primitives";
import { useNow } from "../ui/use-now";
import { WalletButton } from "../wallet/wallet-ui";
import { useWalletState } from "../wallet/wallet-data-access";
import { ClaimResult, PendingWithdrawal } from "./pending-withdrawal-ui";
import { ShareBlink } from "./share-blink";
import { useVaultEvents } from "./vault-live-events";
import {
  useNavHistory,
  useVault,
  useVaultDirectory,
  useVaultStats,
  useWithdrawalStatus,
} from "./vault-reads";
import { useClaimWithdrawal, useRequestWithdrawal } from "./vault-transactions";
import { useVaultActivity, useWalletPosition } from "./wallet-reads";
import { DepositForm } from "./deposit-form";
import { FaucetButton } from "./faucet-button";
import { RequestResult, WithdrawForm } from "./withdraw-form";
import { CapsCard, SharePriceChart, VaultStats } from "./vault-ui";

function ReadError({ error, onRetry }: { error: unknown; onRetry(): void }) {
  const config = useClientConfig();
  const words = describeError(error, { hasFaucet: config.faucetUrl !== null });
  return (
    <Alert tone="error" title={words.title}>
      <p>{words.message}</p>
      <Button variant="secondary" className="mt-2" onClick={onRetry}>
        Try again
      </Button>
    </Alert>
  );
}

type Tab = "deposit" | "withdraw";

function ActionTabs({ children }: { children(tab: Tab): ReactNode }) {
  const [tab, setTab] = useState<Tab>("deposit");
  const baseId = useId();
  const refs = useRef<Record<Tab, HTMLButtonElement | null>>({ deposit: null, withdraw: null });
  const tabs: Tab[] = ["deposit", "withdraw"];
  function onKeyDown(event: KeyboardEvent) {
    if (
      event.key !== "ArrowRight" &&
      event.key !== "ArrowLeft" &&
      event.key !== "Home" &&
      event.key !== "End"
    ) {
      return;
    }
    event.preventDefault();
    const index = tabs.indexOf(tab);
    const next =
      event.key === "Home"
        ? tabs[0]
        : event.key === "End"
          ? tabs[tabs.length - 1]
          : tabs[(index + (event.key === "ArrowRight" ? 1 : tabs.length - 1)) % tabs.length];
    if (next !== undefined) {
      setTab(next);
      refs.current[next]?.focus();
    }
  }
  return (
    <div>
      <div
        role="tablist"
        aria-label="Deposit or withdraw"
        className="mb-4 flex rounded-lg bg-soft p-1"
        onKeyDown={onKeyDown}
      >
        {tabs.map((name) => (
          <button
            key={name}
            ref={(element) => {
              refs.current[name] = element;
            }}
            role="tab"
            type="button"
            id={`${baseId}-${name}-tab`}
            aria-selected={tab === name}
            aria-controls={`${baseId}-${name}-panel`}
            tabIndex={tab === name ? 0 : -1}
            onClick={() => setTab(name)}
            className={`flex-1 rounded-md px-3 py-1.5 text-sm font-medium capitalize ${
              tab === name ? "bg-card shadow-sm" : "text-muted hover:text-fg"
            }`}
          >
            {name}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${baseId}-${tab}-panel`} aria-labelledby={`${baseId}-${tab}-tab`}>
        {children(tab)}
      </div>
    </div>
  );
}

function useInsideFrame(): boolean {
  const [inside, setInside] = useState(false);
  useEffect(() => {
    try {
      setInside(window.self !== window.top);
    } catch {
      // Reading window.top across origins can throw: that is a frame too.
      setInside(true);
    }
  }, []);
  return inside;
}

/** In a partner's iframe without a reachable wallet: open the full app in a new tab instead. */
function LinkOut({ vaultId }: { vaultId: string }) {
  const wallet = useWalletState();
  const inside = useInsideFrame();
  const [href, setHref] = useState(`/vault/${vaultId}`);
  useEffect(() => setHref(`${window.location.origin}/vault/${vaultId}`), [vaultId]);
  const installed = wallet.options.some((option) => option.readyState === "Installed");
  if (!inside || wallet.status === "loading" || installed || wallet.publicKey !== null) {
    return null;
  }
  return (
    <Alert tone="info" title="No wallet can be reached inside this frame" testId="embed-link-out">
      <a href={href} target="_blank" rel="noopener" className="font-semibold text-accent underline">
        Open this vault in a new tab ↗
      </a>{" "}
      to connect your wallet there.
    </Alert>
  );
}

function VaultActions({ vault, embed }: { vault: VaultView; embed: boolean }) {
  const wallet = useWalletState();
  const position = useWalletPosition(vault);
  const status = useWithdrawalStatus(vault.id);
  const events = useVaultEvents(vault.id);
  const claim = useClaimWithdrawal(vault);
  const request = useRequestWithdrawal(vault);
  const titleId = useId();
  const pending = status.data?.hasPendingWithdrawal === true ? status.data : null;
  return (
    <div className="space-y-4">
      <Card title="Deposit & withdraw" titleId={titleId}>
        {embed ? <LinkOut vaultId={vault.id} /> : null}
        {wallet.publicKey === null ? (
          <div className="space-y-3">
            <p className="text-sm text-muted">Connect a wallet to deposit, withdraw and see your position.</p>
            <WalletButton />
          </div>
        ) : (
          <div className="space-y-4">
            <FaucetButton />
            {position.isError ? (
              <ReadError error={position.error} onRetry={() => void position.refetch()} />
            ) : null}
            <ActionTabs>
              {(tab) =>
                tab === "deposit" ? (
                  <DepositForm vault={vault} position={position.data} />
                ) : pending !== null ? (
                  <p className="text-sm text-muted">
                    You have a withdrawal pending in this vault; claim it before requesting another.
                  </p>
                ) : (
                  <WithdrawForm vault={vault} position={position.data} request={request} />
                )
              }
            </ActionTabs>
          </div>
        )}
      </Card>
      {status.isError && wallet.publicKey !== null ? (
        <ReadError error={status.error} onRetry={() => void status.refetch()} />
      ) : null}
      {pending === null ? null : <RequestResult vault={vault} request={request} />}
      <ClaimResult vault={vault} claim={claim} />
      {pending === null ? null : (
        <PendingWithdrawal
          vault={vault}
          status={pending}
          feeBps={position.data?.receipt?.feeBps ?? vault.feeBps}
          claim={claim}
          live={events.live}
        />
      )}
    </div>
  );
}

function VaultActivity({ vault }: { vault: VaultView }) {
  const wallet = useWalletState();
  const activity = useVaultActivity(vault.id);
  const titleId = useId();
  return (
    <Card title="Your activity" titleId={titleId}>
      {wallet.publicKey === null ? (
        <p className="text-sm text-muted">Connect a wallet to see your deposits, requests and claims.</p>
      ) : activity.isPending ? (
        <Skeleton className="h-16 w-full" label="Loading your activity" />
      ) : activity.isError ? (
        <ReadError error={activity.error} onRetry={() => void activity.refetch()} />
      ) : activity.data.length === 0 ? (
        <p className="text-sm text-muted">Nothing yet: your deposits, requests and claims will show here.</p>
      ) : (
        <ActivityList
          items={sortActivity(activity.data.map((entry) => ({ activity: entry, vaultName: vault.name })))}
          showVault={false}
        />
      )}
    </Card>
  );
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
            <Link href="/" className="text-accent underline">
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
    <div className="space-y-6">
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div className="min-w-0">
          <h1 className="text-2xl font-bold sm:text-3xl" data-testid="vault-name">
            {data.name}
          </h1>
          <p className="mt-1 text-sm text-muted">
            {data.assetSymbol} vault ·{" "}
            <ExplorerLink
              target={{ address: data.id }}
              className="font-mono underline decoration-dotted underline-offset-2 hover:text-accent"
              testId="vault-address"
            >
              {shortAddress(data.id)}
            </ExplorerLink>
            {data.paused ? <span className="ml-2 font-semibold text-warn">Paused</span> : null}
          </p>
        </div>
        {embed ? (
          <div className="flex items-center gap-2">
            <WalletButton compact />
            <a
              href={`/vault/${data.id}`}
              target="_blank"
              rel="noopener"
              className="text-sm font-medium text-accent underline"
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
        <div className="order-first lg:order-none lg:col-span-2">
          <VaultActions vault={data} embed={embed} />
        </div>
      </div>
    </div>
  );
}

function tokenText(token: { amount: string; decimals: number; symbol: string }): string {
  return `${formatAmount(BigInt(token.amount), token.decimals)} ${token.symbol}`;
}

function VaultRow({ vault }: { vault: VaultSummaryData }) {
  return (
    <li>
      <Link
        href={`/vault/${vault.id}`}
        className="grid grid-cols-2 gap-3 rounded-xl border border-line bg-card p-4 shadow-sm hover:border-accent sm:grid-cols-5 sm:items-center"
      >
        <span className="col-span-2 min-w-0 sm:col-span-2">
          <span className="block truncate text-lg font-semibold">{vault.name}</span>
          <span className="block text-xs text-muted">
            {vault.caps.hourly === null
              ? "No withdrawal caps"
              : `Caps ${tokenText(vault.caps.hourly)} an hour`}
            {vault.caps.daily === null ? "" : `, ${tokenText(vault.caps.daily)} a day`}
            {vault.paused ? " · paused" : ""}
          </span>
        </span>
        <span>
          <span className="block text-xs text-muted">Share price</span>
          <span className="tabular font-medium">{formatSharePrice(vault.sharePrice)}</span>
        </span>
        <span>
          <span className="block text-xs text-muted">TVL</span>
          <span className="tabular font-medium">{tokenText(vault.tvl)}</span>
        </span>
        <span>
          <span className="block text-xs text-muted">APY (7 d)</span>
          <span className="tabular font-medium">{formatPercent(vault.apy7d)}</span>
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
        <ReadError error={vaults.error} onRetry={() => void vaults.refetch()} />
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

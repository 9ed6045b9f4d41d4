"use client";
// The wallet's activity on every vault, merged, newest first.
import Link from "next/link";

import { describeError } from "@/lib/web/error-words";
import { isChainStall } from "@/lib/web/errors";
import { requestStates } from "@/lib/web/open-requests";
import { Alert, Card, Skeleton } from "../ui/primitives";
import { useVaultDirectory } from "../vault/vault-reads";
import { useActivityAcrossVaults } from "../vault/wallet-reads";
import { WalletButton } from "../wallet/wallet-ui";
import { useWalletState } from "../wallet/wallet-data-access";
import { ActivityList, sortActivity, type ActivityItem } from "./activity-ui";

export function ActivityFeature() {
  const wallet = useWalletState();
  const vaults = useVaultDirectory();
  const feeds = useActivityAcrossVaults(vaults.data);

  if (wallet.publicKey === null) {
    return (
      <div className="space-y-4">
        <h1 className="text-2xl font-bold sm:text-3xl">Activity</h1>
        <Card>
          <p className="mb-3 text-sm text-muted">
            Connect a wallet to see its deposits, withdrawals and claims.
          </p>
          <WalletButton />
        </Card>
      </div>
    );
  }
  const loading = vaults.isPending || feeds.some((feed) => feed.isPending);
  const error = vaults.error ?? feeds.find((feed) => feed.error !== null)?.error ?? null;
  const items: ActivityItem[] = feeds.flatMap((feed, index) =>
    (feed.data ?? []).map((activity) => ({ activity, vaultName: vaults.data?.[index]?.name ?? null })),
  );
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold sm:text-3xl">Activity</h1>
      {/* The chain not answering is the page's notice (ChainStallNotice), said once. */}
      {error === null || isChainStall(error) ? null : (
        <Alert tone="error" title={describeError(error).title}>
          {describeError(error).message}
        </Alert>
      )}
      <Card>
        {loading && items.length === 0 ? (
          <Skeleton className="h-24 w-full" label="Loading your activity" />
        ) : items.length === 0 ? (
          <p className="text-sm text-muted">
            No activity yet.{" "}
            <Link href="/" className="text-accent-text underline">
              Pick a vault
            </Link>{" "}
            to make a first deposit.
          </p>
        ) : (
          <ActivityList
            items={sortActivity(items)}
            showVault
            states={requestStates(items.map((item) => item.activity))}
          />
        )}
      </Card>
    </div>
  );
}

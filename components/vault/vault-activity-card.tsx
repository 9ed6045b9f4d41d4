"use client";
// The vault page's card of the connected wallet's deposits, requests and claims in this vault.
import { useId } from "react";

import type { VaultView } from "@/lib/vault/model/vault-view";
import { requestStates } from "@/lib/web/open-requests";
import { ActivityList, sortActivity } from "../activity/activity-ui";
import { Card, Skeleton } from "../ui/primitives";
import { useReadError } from "../ui/use-read-error";
import { useWalletState } from "../wallet/wallet-data-access";
import { QueryReadError, ReadError } from "./read-error";
import { useWithdrawalStatus } from "./vault-reads";
import { useVaultActivity } from "./wallet-reads";

export function VaultActivity({ vault }: { vault: VaultView }) {
  const wallet = useWalletState();
  const activity = useVaultActivity(vault.id);
  const status = useWithdrawalStatus(vault.id);
  const error = useReadError(activity);
  const titleId = useId();
  return (
    <Card title="Your activity" titleId={titleId}>
      {wallet.publicKey === null ? (
        <p className="text-sm text-muted">Connect a wallet to see your deposits, requests and claims.</p>
      ) : activity.data === undefined ? (
        error !== null ? (
          <ReadError
            error={error}
            onRetry={() => void activity.refetch()}
            retrying="load this wallet's activity"
          />
        ) : (
          <Skeleton className="h-16 w-full" label="Loading your activity" />
        )
      ) : (
        <>
          <QueryReadError query={activity} retrying="load this wallet's activity" hasData />
          {activity.data.length === 0 ? (
            <p className="text-sm text-muted">
              Nothing yet: your deposits, requests and claims will show here.
            </p>
          ) : (
            <ActivityList
              items={sortActivity(activity.data.map((entry) => ({ activity: entry, vaultName: vault.name })))}
              showVault={false}
              states={requestStates(activity.data, () => status.data?.canClaimNow === true)}
            />
          )}
        </>
      )}
    </Card>
  );
}

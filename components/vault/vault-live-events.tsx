"use client";
// The vault page's live updates: the partner events of GET /api/events/stream, each refetching the queries
// it changes; a claimable or delivered withdrawal is shown from its event at once.
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";

import type { WithdrawalStatusData } from "@/lib/web/api-client";
import { deliveryOf, statusAfterDelivery } from "@/lib/web/delivered-withdrawal";
import { useClusterKey } from "../providers/config-context";
import { useWalletState } from "../wallet/wallet-data-access";
import { vaultKeys } from "./vault-query-keys";

/** The partner events that change what the vault page shows of a wallet, and which queries they touch. */
const EVENT_REFRESHES = {
  "deposit.confirmed": ["position", "activity", "vault"],
  "withdrawal.requested": ["withdrawalStatus", "position", "activity", "vault"],
  "withdrawal.claimable": ["withdrawalStatus", "position"],
  "withdrawal.claimed": ["withdrawalStatus", "position", "activity", "vault"],
  "withdrawal.cancelled": ["withdrawalStatus", "position", "activity", "vault"],
  "vault.nav_updated": ["withdrawalStatus", "position", "vault", "stats"],
  "vault.paused": ["vault"],
  "vault.resumed": ["vault"],
  "vault.config_scheduled": ["vault"],
} as const;

/**
 * The vault page listening to the chain (GET /api/events/stream, server-sent events through the page
 * session): each event refetches the queries it changes, withdrawal.claimable turns the pending
 * withdrawal ready at once, without waiting for the status poll, and withdrawal.claimed naming who
 * delivered it (the keeper) turns it delivered. Connecting refetches the status too,
 * for whatever happened while the page was not listening. The browser reconnects by itself, resuming
 * after the last event it had. `live` says whether the stream is open.
 */
export function useVaultEvents(vaultId: string): { live: boolean } {
  const queryClient = useQueryClient();
  // The key's parts, not the key: a new array each render would reopen the stream each render.
  const [clusterName, rpcUrl] = useClusterKey();
  const { publicKey } = useWalletState();
  const [live, setLive] = useState(false);
  useEffect(() => {
    const cluster = [clusterName, rpcUrl] as const;
    if (typeof EventSource === "undefined") {
      return undefined;
    }
    const params = new URLSearchParams({ vault: vaultId });
    if (publicKey !== null) {
      params.set("wallet", publicKey);
    }
    const source = new EventSource(`/api/events/stream?${params.toString()}`);
    const keys = {
      withdrawalStatus: vaultKeys.withdrawalStatus(cluster, vaultId, publicKey),
      position: vaultKeys.position(cluster, vaultId, publicKey),
      activity: vaultKeys.activity(cluster, vaultId, publicKey),
      vault: vaultKeys.vault(cluster, vaultId),
      stats: vaultKeys.stats(cluster, vaultId),
    };
    source.onopen = () => {
      setLive(true);
      void queryClient.invalidateQueries({ queryKey: keys.withdrawalStatus });
    };
    // EventSource retries on its own (the server's `retry:`); the poll carries on meanwhile.
    source.onerror = () => setLive(false);
    for (const [type, touched] of Object.entries(EVENT_REFRESHES)) {
      source.addEventListener(type, (message: MessageEvent<string>) => {
        if (type === "withdrawal.claimable") {
          // The event is the chain's word that this wallet's request is claimable (the stream sends
          // this wallet's events only): shown at once; the refetch below brings the exact figures.
          // Claimable means funded up to the request: the queue bar shows it full with the button.
          queryClient.setQueryData<WithdrawalStatusData>(keys.withdrawalStatus, (status) =>
            status?.hasPendingWithdrawal === true
              ? {
                  ...status,
                  canClaimNow: true,
                  estimate: { kind: "ready", band: null, awaiting: [] },
                  progress:
                    status.progress === null
                      ? null
                      : {
                          ...status.progress,
                          stagedShares: status.progress.totalShares,
                          sharesAhead: "0",
                          fraction: 1,
                        },
                }
              : status,
          );
        }
        const delivery =
          type === "withdrawal.claimed" && publicKey !== null ? deliveryOf(message.data, publicKey) : null;
        if (delivery !== null) {
          // Someone else claimed it for this wallet: the pending withdrawal is delivered, not gone.
          queryClient.setQueryData<WithdrawalStatusData>(keys.withdrawalStatus, (status) =>
            status === undefined ? status : statusAfterDelivery(status, delivery),
          );
        }
        for (const name of touched) {
          void queryClient.invalidateQueries({ queryKey: keys[name] });
        }
      });
    }
    return () => {
      source.close();
      setLive(false);
    };
  }, [queryClient, clusterName, rpcUrl, vaultId, publicKey]);
  return { live };
}

"use client";
// The vault page's actions card: connect, the faucet, deposit and withdraw tabs, the request's, the
// claim's and the cancel's outcomes and the pending withdrawal, live through the page's event stream.
// One outcome at a time, the latest, and only until the person moves to the other tab.
import { useEffect, useId } from "react";

import type { VaultView } from "@/lib/vault/model/vault-view";
import { Card } from "../ui/primitives";
import { WalletButton } from "../wallet/wallet-ui";
import { useWalletState } from "../wallet/wallet-data-access";
import { ActionTabs, useShownAction } from "./action-tabs";
import { DepositForm } from "./deposit-form";
import { LinkOut, useNoWalletInFrame } from "./embed-link-out";
import { FaucetButton } from "./faucet-button";
import { CancelResult, ClaimResult, DeliveredWithdrawal, PendingWithdrawal } from "./pending-withdrawal-ui";
import { QueryReadError } from "./read-error";
import { SessionNoticeAlert } from "./session-notice";
import { useVaultEvents } from "./vault-live-events";
import { useWithdrawalStatus } from "./vault-reads";
import { useCancelWithdrawal, useClaimWithdrawal, useRequestWithdrawal } from "./vault-transactions";
import { useWalletPosition } from "./wallet-reads";
import { RequestResult, WithdrawForm } from "./withdraw-form";

export function VaultActions({ vault, embed }: { vault: VaultView; embed: boolean }) {
  const wallet = useWalletState();
  const noWalletInFrame = useNoWalletInFrame();
  const position = useWalletPosition(vault);
  const status = useWithdrawalStatus(vault.id);
  const events = useVaultEvents(vault.id);
  const claim = useClaimWithdrawal(vault);
  const cancel = useCancelWithdrawal(vault);
  const request = useRequestWithdrawal(vault);
  const titleId = useId();
  const pending = status.data?.hasPendingWithdrawal === true ? status.data : null;
  const shown = useShownAction();
  const writes = { request, claim, cancel };
  // Another tab: what was done on this one is done with (a running transaction keeps its words).
  useEffect(() => {
    for (const { mutation } of Object.values(writes)) {
      if (mutation.isSuccess || mutation.isError) {
        mutation.reset();
      }
    }
    // Only a change of tab clears them (the mutations are new objects every render).
  }, [shown]);
  const latest = latestOutcome(writes);
  return (
    <div className="space-y-4">
      <Card title="Deposit & withdraw" titleId={titleId}>
        {embed ? <LinkOut vaultId={vault.id} /> : null}
        <SessionNoticeAlert />
        {wallet.publicKey === null ? (
          embed && noWalletInFrame ? null : (
            <div className="space-y-3">
              <p className="text-sm text-muted">
                Connect a wallet to deposit, withdraw and see your position.
              </p>
              <WalletButton />
            </div>
          )
        ) : (
          <div className="space-y-4">
            <FaucetButton />
            <QueryReadError query={position} retrying="read this wallet's balances from the chain" />
            <ActionTabs>
              {(tab) =>
                tab === "deposit" ? (
                  <DepositForm vault={vault} position={position.data} />
                ) : pending !== null ? (
                  <p className="text-sm text-muted">
                    You have a withdrawal pending in this vault; claim or cancel it before requesting another.
                  </p>
                ) : (
                  <>
                    {/* Whether a withdrawal is pending decides what this tab offers: its read's error is said here. */}
                    <QueryReadError query={status} retrying="load this wallet's withdrawal" />
                    <WithdrawForm vault={vault} position={position.data} request={request} />
                  </>
                )
              }
            </ActionTabs>
          </div>
        )}
      </Card>
      {pending === null || latest !== "request" ? null : <RequestResult vault={vault} request={request} />}
      {latest === "claim" ? <ClaimResult vault={vault} claim={claim} /> : null}
      {status.data === undefined || wallet.publicKey === null ? null : (
        <DeliveredWithdrawal vault={vault} status={status.data} />
      )}
      {pending === null && latest === "cancel" ? <CancelResult vault={vault} cancel={cancel} /> : null}
      {pending === null ? null : (
        <PendingWithdrawal
          vault={vault}
          status={pending}
          feeBps={position.data?.receipt?.feeBps ?? vault.feeBps}
          claim={claim}
          cancel={cancel}
          live={events.live}
        />
      )}
    </div>
  );
}

/** The write that succeeded last, if any: its outcome is the one shown. */
function latestOutcome<K extends string>(
  writes: Record<K, { mutation: { isSuccess: boolean; submittedAt: number } }>,
): K | null {
  let latest: K | null = null;
  let at = -1;
  for (const [name, { mutation }] of Object.entries(writes) as [
    K,
    { mutation: { isSuccess: boolean; submittedAt: number } },
  ][]) {
    if (mutation.isSuccess && mutation.submittedAt > at) {
      latest = name;
      at = mutation.submittedAt;
    }
  }
  return latest;
}

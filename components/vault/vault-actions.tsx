"use client";
// The vault page's actions card: connect, the faucet, deposit and withdraw tabs, the request's, the
// claim's and the cancel's outcomes and the pending withdrawal, live through the page's event stream.
import { useId } from "react";

import type { VaultView } from "@/lib/vault/vault-view";
import { Card } from "../ui/primitives";
import { WalletButton } from "../wallet/wallet-ui";
import { useWalletState } from "../wallet/wallet-data-access";
import { ActionTabs } from "./action-tabs";
import { DepositForm } from "./deposit-form";
import { LinkOut, useNoWalletInFrame } from "./embed-link-out";
import { FaucetButton } from "./faucet-button";
import { CancelResult, ClaimResult, DeliveredWithdrawal, PendingWithdrawal } from "./pending-withdrawal-ui";
import { ReadError } from "./read-error";
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
            {position.isError ? (
              <ReadError
                error={position.error}
                onRetry={() => void position.refetch()}
                retrying="read this wallet's balances from the chain"
              />
            ) : null}
            <ActionTabs>
              {(tab) =>
                tab === "deposit" ? (
                  <DepositForm vault={vault} position={position.data} />
                ) : pending !== null ? (
                  <p className="text-sm text-muted">
                    You have a withdrawal pending in this vault; claim or cancel it before requesting another.
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
        <ReadError
          error={status.error}
          onRetry={() => void status.refetch()}
          retrying="load this wallet's withdrawal"
        />
      ) : null}
      {pending === null ? null : <RequestResult vault={vault} request={request} />}
      <ClaimResult vault={vault} claim={claim} />
      {status.data === undefined || wallet.publicKey === null ? null : (
        <DeliveredWithdrawal vault={vault} status={status.data} />
      )}
      {pending === null ? <CancelResult vault={vault} cancel={cancel} /> : null}
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

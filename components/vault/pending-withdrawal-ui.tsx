"use client";
// The pending withdrawal: its steps (requested → NAV struck → funded → ready → claimed, with times in
// the reader's zone and locale and "in ~2 min", when each was passed from the status's milestones), the
// net amount it should pay, which condition binds (a NAV strike or the queue's funding), a live progress
// bar and the shares ahead in the queue, then the claim, or the cancel of the request (confirmed first:
// the shares come back, the request leaves the queue). A withdrawal the keeper (or anyone) delivered
// shows as delivered, by whom (DeliveredWithdrawal), instead of asking the owner to claim.
import { ExplorerLink } from "@/components/ui/explorer-link";
import { useId, useState } from "react";

import type { WithdrawalStatusData } from "@/lib/web/api-client";
import { shortAddress } from "@/lib/web/client-config";
import { formatPercent, fractionDigitsFor, moneyLine } from "@/lib/web/amounts";
import { arrivalBandText } from "@/lib/web/time";
import {
  arrivedText,
  withdrawalSteps,
  type StepClock,
  type WithdrawalStep,
} from "@/lib/web/withdrawal-steps";
import type { VaultView } from "@/lib/vault/model/vault-view";
import { withdrawalFeeRoundUp } from "@/lib/vault/model/share-math";
import { claimNet } from "@/lib/web/vault-view";
import { useReaderLocale } from "../providers/config-context";
import { Alert, Button, Card, ProgressBar } from "../ui/primitives";
import { useHydrated } from "../ui/local-time";
import { TransactionStatus } from "../ui/transaction-status";
import { useNow } from "../ui/use-now";
import type { useCancelWithdrawal, useClaimWithdrawal } from "./vault-transactions";
import { assetText, sharesText } from "./vault-ui";

function bindingText(status: WithdrawalStatusData): string {
  switch (status.estimate?.kind) {
    case "ready":
      return "Ready: a NAV has been struck since your request and the queue is funded up to it.";
    case "nav":
      return "Waiting for the NAV: the vault strikes a new net asset value on a schedule; your request becomes claimable after the first one struck after it.";
    case "staging":
      return "Waiting for the queue: the manager funds requests in order as idle assets allow; yours is paid once funding reaches it.";
    default:
      return "";
  }
}

export type ClaimHandle = ReturnType<typeof useClaimWithdrawal>;
export type CancelHandle = ReturnType<typeof useCancelWithdrawal>;

/** The reader's locale (and zone, by default) for the steps' times: the page's one clock. */
function useReaderClock(): StepClock & { locale: string } {
  return { locale: useReaderLocale() };
}

/**
 * "Withdrawal delivered — Arrived: 99.90 USDC in your wallet at 14:06", and by whom: the wallet's latest
 * withdrawal, claimed for it by the keeper (or anyone but the owner) within the last day, shown from the
 * moment its withdrawal.claimed event reaches the page (vault-live-events.tsx). Nothing to claim: it is
 * in the wallet.
 */
export function DeliveredWithdrawal({ vault, status }: { vault: VaultView; status: WithdrawalStatusData }) {
  const hydrated = useHydrated();
  const now = useNow(60_000);
  const clock = useReaderClock();
  const { locale } = clock;
  const milestones = status.hasPendingWithdrawal ? null : (status.milestones ?? null);
  const net = milestones?.claimedNet ?? null;
  const text = hydrated
    ? arrivedText(milestones, net === null ? null : assetText(BigInt(net.amount), vault, locale), now, clock)
    : null;
  if (text === null) {
    return null;
  }
  const sender = milestones?.claimSigner ?? null;
  const by =
    sender === null ? null : (
      <span className="font-mono" data-testid="withdrawal-delivered-by" title={sender}>
        {shortAddress(sender)}
      </span>
    );
  return (
    <Alert tone="success" title="Withdrawal delivered" testId="withdrawal-arrived">
      {text}.{" "}
      {milestones?.claimedBy === "keeper" ? (
        <>
          The vault&apos;s keeper{by === null ? null : <> ({by})</>} sent the claim for you, paying its fee;
          there is nothing left to claim.
        </>
      ) : (
        <>
          {by ?? "Someone else"} sent the claim for you; the program pays only into your wallet, and there is
          nothing left to claim.
        </>
      )}
    </Alert>
  );
}

const STEP_MARKS: Record<WithdrawalStep["state"], string> = { done: "✓", current: "●", upcoming: "○" };

/** The steps as an ordered list; times wait for the browser (the reader's zone). */
function Stepper({ steps }: { steps: WithdrawalStep[] }) {
  const hydrated = useHydrated();
  return (
    <ol className="space-y-1.5 text-sm" data-testid="withdrawal-steps" aria-label="Withdrawal steps">
      {steps.map((step) => (
        <li
          key={step.key}
          data-step={step.key}
          data-state={step.state}
          aria-current={step.state === "current" ? "step" : undefined}
          className="flex gap-2"
        >
          <span aria-hidden="true" className={step.state === "upcoming" ? "text-muted" : "text-accent"}>
            {STEP_MARKS[step.state]}
          </span>
          <span className={step.state === "upcoming" ? "text-muted" : "font-medium"}>
            {step.label}
            <span className="sr-only"> ({step.state === "current" ? "now" : step.state})</span>
          </span>
          {hydrated && step.detail !== "" ? <span className="text-muted">· {step.detail}</span> : null}
        </li>
      ))}
    </ol>
  );
}

/** The claim's success outlives this panel (which goes when nothing is pending): the parent shows it. */
export function ClaimResult({ vault, claim }: { vault: VaultView; claim: ClaimHandle }) {
  const { mutation } = claim;
  const locale = useReaderLocale();
  if (!mutation.isSuccess) {
    return null;
  }
  const { recorded } = mutation.data;
  // One precision for the claim's figures, enough for the fee to show ("0.0015 USDC", never "0.00").
  const fee = recorded.fee === null ? null : BigInt(recorded.fee.amount);
  const fraction = fee === null ? undefined : fractionDigitsFor(fee, vault.asset.decimals);
  return (
    <Alert tone="success" title="Withdrawal claimed" testId="claim-success">
      {assetText(BigInt(recorded.assets.amount), vault, locale, { fraction })} arrived in your wallet
      {fee === null
        ? "."
        : ` (after a ${assetText(fee, vault, locale, { fraction, rounding: "nearest" })} fee).`}{" "}
      <ExplorerLink target={{ signature: recorded.signature }}>View the transaction</ExplorerLink>
    </Alert>
  );
}

/** The cancel's outcome outlives the panel too: the shares that came back, from the recorded cancel. */
export function CancelResult({ vault, cancel }: { vault: VaultView; cancel: CancelHandle }) {
  const { mutation } = cancel;
  const locale = useReaderLocale();
  if (!mutation.isSuccess) {
    return null;
  }
  const { recorded } = mutation.data;
  return (
    <Alert tone="success" title="Withdrawal request cancelled" testId="cancel-success">
      {sharesText(BigInt(recorded.shares.amount), vault, locale)} came back to your wallet; the request left
      the queue. <ExplorerLink target={{ signature: recorded.signature }}>View the transaction</ExplorerLink>
    </Alert>
  );
}

/**
 * "Cancel request", then a confirmation that says what happens before the wallet is asked; the cancel
 * runs through the same build → check → sign → send → confirm → record flow as the claim.
 */
function CancelRequest({
  vault,
  shares,
  feeBps,
  cancel,
  busy,
}: {
  vault: VaultView;
  shares: bigint;
  /** The receipt's fee: a cancel burns it in shares, as an exit pays it. */
  feeBps: number;
  cancel: CancelHandle;
  /** The claim is under way: one transaction at a time. */
  busy: boolean;
}) {
  const [confirming, setConfirming] = useState(false);
  const locale = useReaderLocale();
  const { mutation, progress } = cancel;
  const feeShares = withdrawalFeeRoundUp(shares, feeBps);
  return (
    <div className="space-y-2">
      {confirming && !mutation.isPending ? (
        <Alert tone="warning" title="Cancel this withdrawal request?" testId="cancel-confirm">
          <p data-testid="cancel-terms">
            {feeShares > 0n
              ? `${sharesText(shares - feeShares, vault, locale)} of your ${sharesText(shares, vault, locale)} come back; the exit fee of ${sharesText(feeShares, vault, locale)} (${formatPercent(feeBps / 10_000, 2, locale)}) is burned, so a cancel costs what a withdrawal costs, and its value stays with the vault's holders. The request leaves the queue.`
              : `Your ${sharesText(shares, vault, locale)} come back; the request leaves the queue.`}
          </p>
          <div className="mt-2 flex gap-2">
            <Button
              variant="secondary"
              onClick={() => {
                setConfirming(false);
                mutation.mutate();
              }}
              data-testid="cancel-confirm-button"
            >
              Yes, cancel the request
            </Button>
            <Button variant="ghost" onClick={() => setConfirming(false)} data-testid="cancel-keep-button">
              Keep it
            </Button>
          </div>
        </Alert>
      ) : (
        <Button
          variant="secondary"
          className="w-full"
          onClick={() => setConfirming(true)}
          disabled={busy || mutation.isPending}
          data-testid="cancel-button"
        >
          {mutation.isPending ? "Cancelling…" : "Cancel request"}
        </Button>
      )}
      <TransactionStatus
        testId="cancel-status"
        progress={progress}
        onStop={cancel.stop}
        review={cancel.review}
        error={mutation.error}
        errorContext={{ vault }}
        success={null}
      />
    </div>
  );
}

export function PendingWithdrawal({
  vault,
  status,
  feeBps,
  claim,
  cancel,
  live,
}: {
  vault: VaultView;
  status: WithdrawalStatusData;
  /** The page's event stream is open: the panel changes as the chain does, not only on its poll. */
  live: boolean;
  /** The fee the request fixed in its receipt (a later change of the vault's fee does not apply). */
  feeBps: number;
  claim: ClaimHandle;
  cancel: CancelHandle;
}) {
  const titleId = useId();
  const { mutation, progress } = claim;
  const shares = BigInt(status.pendingShares);
  const approximate = claimNet(vault, shares, feeBps);
  // What the withdrawal pays after the receipt's fee, as the request's preview promised it (net), with
  // the gross value it is taken from beside it.
  const gross = BigInt(status.estimatedAssetAmount.amount);
  const clock = useReaderClock();
  const { locale } = clock;
  const line = moneyLine({ gross, fee: withdrawalFeeRoundUp(gross, feeBps) }, vault.asset.decimals, {
    locale,
  });
  const staged = status.progress === null ? 0n : BigInt(status.progress.stagedShares);
  const ahead = status.progress === null ? 0n : BigInt(status.progress.sharesAhead);
  const fraction = status.progress?.fraction ?? 0;
  const band = status.estimate?.band ?? null;
  const now = useNow(15_000);
  const steps = withdrawalSteps(
    {
      canClaimNow: status.canClaimNow,
      createdAt: status.createdAt,
      estimate: status.estimate,
      fundedFraction: fraction,
      milestones: status.milestones ?? null,
    },
    now,
    clock,
  );
  // Funded in full while the NAV is still to come: the bar is full but the claim is not ready.
  const fundedAwaitingNav = fraction >= 1 && !status.canClaimNow;
  return (
    <Card title="Pending withdrawal" titleId={titleId}>
      <div className="space-y-3" data-testid="pending-withdrawal" data-live={live ? "true" : "false"}>
        <Stepper steps={steps} />
        <dl className="grid grid-cols-2 gap-3 text-sm">
          <div>
            <dt className="text-muted">Requested</dt>
            <dd className="tabular font-medium">{sharesText(shares, vault, locale)}</dd>
          </div>
          <div>
            <dt className="text-muted">You receive about</dt>
            <dd className="tabular font-medium" data-testid="pending-net">
              {line.net} {vault.asset.symbol}
            </dd>
            <dd className="tabular text-xs text-muted">
              {line.gross} {vault.asset.symbol} less a {line.fee} {vault.asset.symbol} fee (
              {formatPercent(feeBps / 10_000, 2, locale)})
            </dd>
          </div>
          <div>
            <dt className="text-muted">Queue position</dt>
            <dd className="tabular" data-testid="queue-position">
              {ahead === 0n ? "Next in line" : `${sharesText(ahead, vault, locale)} ahead of you`}
            </dd>
          </div>
        </dl>

        {status.canClaimNow ? null : (
          <p className="text-base font-semibold" data-testid="arrival-band" aria-live="polite">
            {band === null
              ? "No arrival time can be given now: the keeper is behind its schedule, or the vault's reserve cannot fund your request yet."
              : `Your withdrawal ${arrivalBandText(band, now, clock)}`}
          </p>
        )}
        <p
          className="text-sm text-muted"
          data-testid="binding-condition"
          data-kind={status.estimate?.kind ?? ""}
        >
          {bindingText(status)}
        </p>
        <div className="space-y-1">
          <div className="flex justify-between text-xs text-muted">
            <span>Queue funding</span>
            <span className="tabular" data-testid="progress-text">
              {fundedAwaitingNav
                ? "Funded; waiting for the NAV before it can be claimed"
                : `${formatPercent(fraction, 0, locale)} · ${sharesText(staged, vault, locale)} of ${sharesText(shares, vault, locale)} staged`}
            </span>
          </div>
          <ProgressBar
            fraction={fraction}
            label="Withdrawal queue funding"
            valueText={`${formatPercent(fraction, 0, locale)} of your request is funded`}
            testId="withdrawal-progress"
          />
        </div>

        {status.canClaimNow ? (
          <Alert tone="success" title="Ready to claim">
            You can claim about {assetText(approximate, vault, locale, { fraction: line.fraction })} now
            (after the {formatPercent(feeBps / 10_000, 2, locale)} fee, at today&apos;s share price).
          </Alert>
        ) : null}
        <Button
          className="w-full"
          onClick={() => mutation.mutate()}
          disabled={!status.canClaimNow || mutation.isPending || cancel.mutation.isPending}
          data-testid="claim-button"
        >
          {mutation.isPending
            ? "Claiming…"
            : status.canClaimNow
              ? `Claim about ${assetText(approximate, vault, locale, { fraction: line.fraction })}`
              : "Claim (not ready yet)"}
        </Button>
        <TransactionStatus
          testId="claim-status"
          progress={progress}
          onStop={claim.stop}
          review={claim.review}
          error={mutation.error}
          errorContext={{ vault }}
          success={null}
        />
        <CancelRequest
          vault={vault}
          shares={shares}
          feeBps={feeBps}
          cancel={cancel}
          busy={mutation.isPending}
        />
      </div>
    </Card>
  );
}

"use client";
// The withdrawal request form: shares or value with max and balance, the fee, the net and the caps' room
// at the program's own rounding, and the transaction's progress; the request's outcome, shown by the page.
import { ExplorerLink } from "@/components/ui/explorer-link";
import { useId, useState, type FormEvent } from "react";

import { sharesForAssetsRoundUp } from "@/lib/vault/model/share-math";
import { amountInputText, formatPercent, moneyLine, parseAmountInput } from "@/lib/web/amounts";
import type { WalletPosition } from "@/lib/web/chain-reader";
import { formatWhen } from "@/lib/web/time";
import type { CapWindow } from "@/lib/vault/model/cap-window";
import type { VaultView } from "@/lib/vault/model/vault-view";
import { withdrawRefusalWords } from "@/lib/web/error-words";
import { lacksFeeSol, positionValue, previewWithdrawal, withdrawVerdict } from "@/lib/web/vault-view";
import { useReaderLocale } from "../providers/config-context";
import { Alert, Button } from "../ui/primitives";
import { TransactionStatus } from "../ui/transaction-status";
import { useNow } from "../ui/use-now";
import { useWalletState } from "../wallet/wallet-data-access";
import { AmountField, FeeSolNote, Row } from "./amount-field";
import type { useRequestWithdrawal } from "./vault-transactions";
import { assetText, sharesText } from "./vault-ui";

function capacityText(
  capacity: CapWindow,
  vault: VaultView,
  figures: { locale: string; fraction: number; nowMs: number },
): string {
  const { locale, fraction, nowMs } = figures;
  return capacity.remaining === null
    ? "no cap"
    : `${assetText(capacity.remaining, vault, locale, { fraction })} left (resets ${formatWhen(capacity.resetsAt * 1000, nowMs, { locale, zone: true })})`;
}

export type RequestHandle = ReturnType<typeof useRequestWithdrawal>;

/** The request's success outlives the form (replaced by the pending withdrawal): the parent shows it. */
export function RequestResult({ vault, request }: { vault: VaultView; request: RequestHandle }) {
  const { mutation } = request;
  const locale = useReaderLocale();
  if (!mutation.isSuccess) {
    return null;
  }
  return (
    <Alert tone="success" title="Withdrawal requested" testId="withdraw-success">
      Your request of {sharesText(BigInt(mutation.data.recorded.shares.amount), vault, locale)} is in the
      queue.{" "}
      <ExplorerLink target={{ signature: mutation.data.recorded.signature }}>
        View the transaction
      </ExplorerLink>
    </Alert>
  );
}

export function WithdrawForm({
  vault,
  position,
  request,
}: {
  vault: VaultView;
  position: WalletPosition | undefined;
  request: RequestHandle;
}) {
  const wallet = useWalletState();
  const nowMs = useNow(15_000);
  const inputId = useId();
  const previewId = useId();
  const [mode, setMode] = useState<"shares" | "value">("shares");
  const [text, setText] = useState("");
  const locale = useReaderLocale();
  const { mutation, progress, stop, review } = request;
  const parsed = parseAmountInput(
    text,
    mode === "shares" ? vault.shares.decimals : vault.asset.decimals,
    locale,
  );
  const walletShares = position?.shareBalance ?? 0n;
  const shares = parsed.ok
    ? mode === "shares"
      ? parsed.raw
      : // Shares worth at least the value typed: rounded up, so the gross covers it.
        sharesForAssetsRoundUp(parsed.raw, vault.totalAssets, vault.totalShares)
    : null;
  const preview = shares === null ? null : previewWithdrawal(vault, shares, walletShares, nowMs / 1000);
  // The preview's line adds up as shown, and every asset figure of this form uses its precision.
  const line = preview === null ? null : moneyLine(preview, vault.asset.decimals, { locale });
  const fraction = line?.fraction ?? 2;
  const figures = { locale, fraction, nowMs };
  const inputProblem = !parsed.ok && !("empty" in parsed) ? parsed.reason : null;
  const verdict = preview === null ? null : withdrawVerdict(vault, preview, walletShares);
  const block = verdict?.block ?? null;
  const refusal =
    verdict !== null && verdict.block !== null
      ? withdrawRefusalWords({ ...verdict, block: verdict.block }, vault, { locale }, nowMs)
      : null;
  const noFeeSol = position !== undefined && lacksFeeSol(position.lamports);
  // One reason, in one place (below the preview); the button stays off while it holds.
  const blocked = preview === null || block !== null || noFeeSol;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (shares === null || mutation.isPending) {
      return;
    }
    mutation.mutate({ shares }, { onSuccess: () => setText("") });
  }

  const modeName = `${inputId}-mode`;
  return (
    <form onSubmit={submit} className="space-y-3" aria-label={`Withdraw from ${vault.name}`} noValidate>
      <fieldset className="flex gap-4 text-sm">
        <legend className="sr-only">Enter the withdrawal as</legend>
        {(["shares", "value"] as const).map((option) => (
          <label key={option} className="flex items-center gap-1.5">
            <input
              type="radio"
              name={modeName}
              value={option}
              checked={mode === option}
              onChange={() => {
                setMode(option);
                setText("");
              }}
            />
            {option === "shares" ? `Shares (${vault.shares.symbol})` : `Value (${vault.asset.symbol})`}
          </label>
        ))}
      </fieldset>
      <AmountField
        id={inputId}
        label={mode === "shares" ? "Shares to withdraw" : "Value to withdraw"}
        value={text}
        onChange={(value) => {
          setText(value);
          if (!mutation.isPending) {
            mutation.reset();
          }
        }}
        unit={mode === "shares" ? vault.shares.symbol : vault.asset.symbol}
        balance={
          position === undefined
            ? null
            : mode === "shares"
              ? sharesText(walletShares, vault, locale)
              : assetText(positionValue(vault, walletShares), vault, locale, { fraction })
        }
        onMax={
          position === undefined || walletShares === 0n
            ? null
            : () => {
                setMode("shares");
                setText(amountInputText(walletShares, vault.shares.decimals, locale));
              }
        }
        invalid={inputProblem !== null || block !== null}
        describedBy={previewId}
      />
      <div id={previewId} className="space-y-2 rounded-lg bg-soft px-3 py-2 text-sm">
        {inputProblem !== null ? (
          <p className="text-bad">{inputProblem}</p>
        ) : preview === null ? (
          <p className="text-muted">Enter an amount to see the fee and what you would receive.</p>
        ) : (
          <>
            {/* Never a preview of more than the wallet holds: the refusal below offers what it can request. */}
            {preview.exceedsBalance ? null : (
              <dl data-testid="withdraw-preview">
                <Row label="Shares" value={sharesText(preview.shares, vault, locale)} />
                <Row label="Gross value" value={`${line?.gross ?? ""} ${vault.asset.symbol}`} />
                <Row
                  label={`Fee (${formatPercent(vault.feeBps / 10_000, 2, locale)})`}
                  value={`− ${line?.fee ?? ""} ${vault.asset.symbol}`}
                />
                <Row label="You receive about" value={`${line?.net ?? ""} ${vault.asset.symbol}`} strong />
              </dl>
            )}
            <dl className="border-t border-line pt-2 text-xs" data-testid="withdraw-capacity">
              <Row label="Hourly cap" value={capacityText(preview.hourly, vault, figures)} />
              <Row label="Daily cap" value={capacityText(preview.daily, vault, figures)} />
            </dl>
            {refusal === null ? null : (
              <div className="space-y-2" data-testid="withdraw-refusal">
                <p className={block?.kind === "cap" ? "text-warn" : "text-bad"}>{refusal.reason}</p>
                {refusal.offer === null || verdict === null || verdict.fit === null ? null : (
                  <Button
                    variant="secondary"
                    className="w-full"
                    onClick={() => {
                      const fit = verdict.fit;
                      if (fit !== null) {
                        setMode("shares");
                        setText(amountInputText(fit.shares, vault.shares.decimals, locale));
                      }
                    }}
                  >
                    {refusal.offer}
                  </Button>
                )}
              </div>
            )}
            <p className="text-xs text-muted">
              The amount is fixed when you claim, at the share price of that day. Claimable once a NAV is
              struck after your request and the queue is funded up to it.
            </p>
          </>
        )}
      </div>
      <FeeSolNote show={noFeeSol} testId="withdraw-fee-sol" />
      <Button
        type="submit"
        className="w-full"
        disabled={wallet.publicKey === null || mutation.isPending || blocked || vault.paused}
      >
        {wallet.publicKey === null
          ? "Connect a wallet to withdraw"
          : mutation.isPending
            ? "Requesting…"
            : "Request withdrawal"}
      </Button>
      <TransactionStatus
        testId="withdraw-status"
        progress={progress}
        onStop={stop}
        review={review}
        error={mutation.error}
        errorContext={{ vault, nowMs }}
        success={null}
      />
    </form>
  );
}

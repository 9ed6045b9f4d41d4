"use client";
// The deposit and withdraw forms: amounts in human units with max and balance, previews computed
// with the program's own rounding, and the transaction's progress and outcome in words.
import { ExplorerLink } from "@/components/ui/explorer-link";
import { useId, useState, type FormEvent } from "react";

import { sharesForAssetsRoundUp } from "@/lib/vault/share-math";
import { amountInputText, formatSharePrice, parseAmountInput } from "@/lib/web/amounts";
import type { WalletPosition } from "@/lib/web/chain-reader";
import { formatClock } from "@/lib/web/time";
import {
  previewDeposit,
  positionValue,
  previewWithdrawal,
  type Capacity,
  type VaultView,
} from "@/lib/web/vault-view";
import { useClientConfig } from "../providers/config-context";
import { Alert, Button } from "../ui/primitives";
import { TransactionStatus } from "../ui/transaction-status";
import { useNow } from "../ui/use-now";
import { useWalletState } from "../wallet/wallet-data-access";
import { assetText, sharesText } from "./vault-ui";
import { useFaucet } from "./faucet-request";
import { useDeposit, type useRequestWithdrawal } from "./vault-transactions";

function AmountField({
  id,
  label,
  value,
  onChange,
  unit,
  balance,
  onMax,
  invalid,
  describedBy,
}: {
  id: string;
  label: string;
  value: string;
  onChange(value: string): void;
  unit: string;
  balance: string | null;
  onMax: (() => void) | null;
  invalid: boolean;
  describedBy: string;
}) {
  return (
    <div className="space-y-1">
      <div className="flex items-end justify-between gap-2">
        <label htmlFor={id} className="text-sm font-medium">
          {label}
        </label>
        {balance === null ? null : (
          <span className="tabular text-xs text-muted">
            Balance: {balance}
            {onMax === null ? null : (
              <button
                type="button"
                onClick={onMax}
                className="ml-2 rounded px-1 font-semibold text-accent hover:bg-soft"
                aria-label={`Use the whole balance, ${balance}`}
              >
                Max
              </button>
            )}
          </span>
        )}
      </div>
      <div className="flex items-center rounded-lg border border-line bg-card focus-within:outline-2 focus-within:outline-accent">
        <input
          id={id}
          name={id}
          inputMode="decimal"
          autoComplete="off"
          placeholder="0.00"
          value={value}
          onChange={(event) => onChange(event.target.value)}
          aria-invalid={invalid}
          aria-describedby={describedBy}
          className="tabular min-w-0 flex-1 rounded-lg bg-transparent px-3 py-2.5 text-lg outline-none"
        />
        <span className="px-3 text-sm text-muted">{unit}</span>
      </div>
    </div>
  );
}

function Row({ label, value, strong = false }: { label: string; value: string; strong?: boolean }) {
  return (
    <div className="flex justify-between gap-3 py-0.5">
      <dt className="text-muted">{label}</dt>
      <dd className={`tabular text-right ${strong ? "font-semibold" : ""}`}>{value}</dd>
    </div>
  );
}

export function FaucetButton() {
  const config = useClientConfig();
  const faucet = useFaucet();
  if (config.faucetUrl === null) {
    return null;
  }
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-lg border border-dashed border-line px-3 py-2">
      <Button
        variant="secondary"
        onClick={() => faucet.mutate()}
        disabled={faucet.isPending}
        className="min-h-8 px-3 py-1"
      >
        {faucet.isPending ? "Requesting test funds…" : "Get test funds"}
      </Button>
      <p role="status" className="text-xs text-muted">
        {faucet.isSuccess
          ? "Test USDC and SOL arrived in your wallet."
          : faucet.isError
            ? `The faucet did not pay: ${faucet.error.message}`
            : "Local test network: free test USDC and SOL."}
      </p>
    </div>
  );
}

export function DepositForm({ vault, position }: { vault: VaultView; position: WalletPosition | undefined }) {
  const wallet = useWalletState();
  const inputId = useId();
  const previewId = useId();
  const [text, setText] = useState("");
  const { mutation, progress } = useDeposit(vault);
  const parsed = parseAmountInput(text, vault.decimals);
  const balance = position?.assetBalance;
  const preview = parsed.ok ? previewDeposit(vault, parsed.raw) : null;
  const overBalance = parsed.ok && balance !== undefined && parsed.raw > balance;
  const inputProblem = !parsed.ok && !("empty" in parsed) ? parsed.reason : null;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!parsed.ok || mutation.isPending) {
      return;
    }
    mutation.mutate({ amount: parsed.raw }, { onSuccess: () => setText("") });
  }

  const result = mutation.data;
  return (
    <form onSubmit={submit} className="space-y-3" aria-label={`Deposit into ${vault.name}`} noValidate>
      <AmountField
        id={inputId}
        label={`Amount to deposit`}
        value={text}
        onChange={(value) => {
          setText(value);
          if (!mutation.isPending) {
            mutation.reset();
          }
        }}
        unit={vault.assetSymbol}
        balance={balance === undefined ? null : assetText(balance, vault)}
        onMax={
          balance === undefined || balance === 0n
            ? null
            : () => setText(amountInputText(balance, vault.decimals))
        }
        invalid={inputProblem !== null || overBalance}
        describedBy={previewId}
      />
      <div id={previewId} className="rounded-lg bg-soft px-3 py-2 text-sm">
        {inputProblem !== null ? (
          <p className="text-bad">{inputProblem}</p>
        ) : overBalance ? (
          <p className="text-bad">That is more than the {assetText(balance ?? 0n, vault)} in this wallet.</p>
        ) : preview !== null ? (
          <dl data-testid="deposit-preview">
            <Row label="You receive about" value={sharesText(preview.shares, vault)} strong />
            <Row label="Share price" value={`${formatSharePrice(preview.sharePrice)} ${vault.assetSymbol}`} />
          </dl>
        ) : (
          <p className="text-muted">Enter an amount to see the shares you would receive.</p>
        )}
      </div>
      {vault.paused ? (
        <Alert tone="warning" title="The vault is paused">
          Deposits are not accepted right now.
        </Alert>
      ) : null}
      <Button
        type="submit"
        className="w-full"
        disabled={
          wallet.publicKey === null || mutation.isPending || !parsed.ok || overBalance || vault.paused
        }
      >
        {wallet.publicKey === null
          ? "Connect a wallet to deposit"
          : mutation.isPending
            ? "Depositing…"
            : "Deposit"}
      </Button>
      <TransactionStatus
        testId="deposit-status"
        progress={progress}
        error={mutation.error}
        errorContext={{ vault }}
        success={
          mutation.isSuccess && result !== undefined ? (
            <Alert tone="success" title="Deposit confirmed" testId="deposit-success">
              Deposited {assetText(BigInt(result.recorded.assets.amount), vault)} and received{" "}
              {sharesText(BigInt(result.recorded.shares.amount), vault)}.{" "}
              <ExplorerLink target={{ signature: result.recorded.signature }}>
                View the transaction
              </ExplorerLink>
            </Alert>
          ) : null
        }
      />
    </form>
  );
}

function capacityText(capacity: Capacity, vault: VaultView): string {
  return capacity.remaining === null
    ? "no cap"
    : `${assetText(capacity.remaining, vault)} left (resets ${formatClock(capacity.resetsAt * 1000)})`;
}

export type RequestHandle = ReturnType<typeof useRequestWithdrawal>;

/** The request's success outlives the form (replaced by the pending withdrawal): the parent shows it. */
export function RequestResult({ vault, request }: { vault: VaultView; request: RequestHandle }) {
  const { mutation } = request;
  if (!mutation.isSuccess) {
    return null;
  }
  return (
    <Alert tone="success" title="Withdrawal requested" testId="withdraw-success">
      Your request of {sharesText(BigInt(mutation.data.recorded.shares.amount), vault)} is in the queue.{" "}
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
  const { mutation, progress } = request;
  const parsed = parseAmountInput(text, mode === "shares" ? vault.shareDecimals : vault.decimals);
  const walletShares = position?.shareBalance ?? 0n;
  const shares = parsed.ok
    ? mode === "shares"
      ? parsed.raw
      : // Shares worth at least the value typed: rounded up, so the gross covers it.
        sharesForAssetsRoundUp(parsed.raw, vault.totalAssets, vault.totalShares)
    : null;
  const preview = shares === null ? null : previewWithdrawal(vault, shares, walletShares, nowMs / 1000);
  const inputProblem = !parsed.ok && !("empty" in parsed) ? parsed.reason : null;
  const blocked = preview === null || preview.exceedsBalance || preview.belowMinimum;

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
            {option === "shares" ? `Shares (${vault.shareSymbol})` : `Value (${vault.assetSymbol})`}
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
        unit={mode === "shares" ? vault.shareSymbol : vault.assetSymbol}
        balance={
          position === undefined
            ? null
            : mode === "shares"
              ? sharesText(walletShares, vault)
              : assetText(positionValue(vault, walletShares), vault)
        }
        onMax={
          position === undefined || walletShares === 0n
            ? null
            : () => {
                setMode("shares");
                setText(amountInputText(walletShares, vault.shareDecimals));
              }
        }
        invalid={
          inputProblem !== null || (preview !== null && (preview.exceedsBalance || preview.belowMinimum))
        }
        describedBy={previewId}
      />
      <div id={previewId} className="space-y-2 rounded-lg bg-soft px-3 py-2 text-sm">
        {inputProblem !== null ? (
          <p className="text-bad">{inputProblem}</p>
        ) : preview === null ? (
          <p className="text-muted">Enter an amount to see the fee and what you would receive.</p>
        ) : (
          <>
            <dl data-testid="withdraw-preview">
              <Row label="Shares" value={sharesText(preview.shares, vault)} />
              <Row label="Gross value" value={assetText(preview.gross, vault)} />
              <Row
                label={`Fee (${(vault.feeBps / 100).toFixed(2)}%)`}
                value={`− ${assetText(preview.fee, vault)}`}
              />
              <Row label="You receive about" value={assetText(preview.net, vault)} strong />
            </dl>
            <dl className="border-t border-line pt-2 text-xs" data-testid="withdraw-capacity">
              <Row label="Hourly cap" value={capacityText(preview.hourly, vault)} />
              <Row label="Daily cap" value={capacityText(preview.daily, vault)} />
            </dl>
            {preview.exceedsBalance ? (
              <p className="text-bad">
                That is more than the {sharesText(walletShares, vault)} this wallet holds.
              </p>
            ) : null}
            {preview.belowMinimum ? (
              <p className="text-bad">
                The vault&apos;s minimum withdrawal is {sharesText(vault.minWithdrawalShares, vault)}.
              </p>
            ) : null}
            {preview.overCap === null ? null : (
              <p className="text-warn" data-testid="cap-warning">
                Cap reached — the {preview.overCap.window} cap has{" "}
                {assetText(preview.overCap.remaining, vault)} left. Try a smaller amount or wait until{" "}
                {formatClock(preview.overCap.resetsAt * 1000)}.
              </p>
            )}
            <p className="text-xs text-muted">
              The amount is fixed when you claim, at the share price of that day. Claimable once a NAV is
              struck after your request and the queue is funded up to it.
            </p>
          </>
        )}
      </div>
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
        error={mutation.error}
        errorContext={{ vault, nowMs }}
        success={null}
      />
    </form>
  );
}

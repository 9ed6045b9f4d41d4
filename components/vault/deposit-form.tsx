"use client";
// The deposit form: the amount in the asset's units with max and balance, the shares it buys at the
// program's own rounding (in an embed that names a partner, after the partner's fee, shown in words
// and numbers before the wallet opens), and the transaction's progress and outcome in words.
import { ExplorerLink } from "@/components/ui/explorer-link";
import { useId, useState, type FormEvent } from "react";

import { amountInputText, formatSharePrice, parseAmountInput } from "@/lib/web/amounts";
import type { WalletPosition } from "@/lib/web/chain-reader";
import type { VaultView } from "@/lib/vault/model/vault-view";
import { bpsPercent, partnerFeeSplit } from "@/lib/web/embed-partner";
import { lacksFeeSol, previewDeposit } from "@/lib/web/vault-view";
import { useEmbedPartner } from "../embed/embed-partner-context";
import { useReaderLocale } from "../providers/config-context";
import { Alert, Button } from "../ui/primitives";
import { TransactionStatus } from "../ui/transaction-status";
import { useWalletState } from "../wallet/wallet-data-access";
import { AmountField, FeeSolNote, Row } from "./amount-field";
import { useDeposit } from "./vault-transactions";
import { assetText, sharesText } from "./vault-ui";

export function DepositForm({ vault, position }: { vault: VaultView; position: WalletPosition | undefined }) {
  const wallet = useWalletState();
  const inputId = useId();
  const previewId = useId();
  const [text, setText] = useState("");
  const locale = useReaderLocale();
  const { mutation, progress, stop, review } = useDeposit(vault);
  const parsed = parseAmountInput(text, vault.asset.decimals, locale);
  const balance = position?.assetBalance;
  const partner = useEmbedPartner();
  const split = parsed.ok && partner !== null ? partnerFeeSplit(parsed.raw, partner) : null;
  const preview = parsed.ok ? previewDeposit(vault, split === null ? parsed.raw : split.net) : null;
  const overBalance = parsed.ok && balance !== undefined && parsed.raw > balance;
  const inputProblem = !parsed.ok && !("empty" in parsed) ? parsed.reason : null;
  const noFeeSol = position !== undefined && lacksFeeSol(position.lamports);

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
        unit={vault.asset.symbol}
        balance={balance === undefined ? null : assetText(balance, vault, locale)}
        onMax={
          balance === undefined || balance === 0n
            ? null
            : () => setText(amountInputText(balance, vault.asset.decimals, locale))
        }
        invalid={inputProblem !== null || overBalance}
        describedBy={previewId}
      />
      <div id={previewId} className="rounded-lg bg-soft px-3 py-2 text-sm">
        {inputProblem !== null ? (
          <p className="text-bad">{inputProblem}</p>
        ) : overBalance ? (
          <div className="space-y-2" data-testid="deposit-refusal">
            <p className="text-bad">
              That is more than the {assetText(balance ?? 0n, vault, locale)} in this wallet.
            </p>
            {balance === undefined || balance === 0n ? null : (
              <Button
                variant="secondary"
                className="w-full"
                onClick={() => setText(amountInputText(balance, vault.asset.decimals, locale))}
              >
                Deposit all {assetText(balance, vault, locale)}
              </Button>
            )}
          </div>
        ) : preview !== null ? (
          <dl data-testid="deposit-preview">
            {partner !== null && split !== null ? (
              <>
                <Row
                  label={`Partner fee (${bpsPercent(partner.feeBps, locale)})`}
                  value={assetText(split.fee, vault, locale)}
                />
                <p className="text-xs text-muted" data-testid="deposit-partner-fee">
                  Paid to this page&apos;s partner, {partner.wallet.slice(0, 4)}…{partner.wallet.slice(-4)},
                  in the same transaction; {assetText(split.net, vault, locale)} is deposited.
                </p>
              </>
            ) : null}
            <Row label="You receive about" value={sharesText(preview.shares, vault, locale)} strong />
            <Row
              label="Share price"
              value={`${formatSharePrice(preview.sharePrice, locale)} ${vault.asset.symbol}`}
            />
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
      <FeeSolNote show={noFeeSol} testId="deposit-fee-sol" />
      <Button
        type="submit"
        className="w-full"
        disabled={
          wallet.publicKey === null ||
          mutation.isPending ||
          !parsed.ok ||
          overBalance ||
          noFeeSol ||
          vault.paused
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
        onStop={stop}
        review={review}
        error={mutation.error}
        errorContext={{ vault }}
        success={
          mutation.isSuccess && result !== undefined ? (
            <Alert tone="success" title="Deposit confirmed" testId="deposit-success">
              Deposited {assetText(BigInt(result.recorded.assets.amount), vault, locale)} and received{" "}
              {sharesText(BigInt(result.recorded.shares.amount), vault, locale)}.{" "}
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

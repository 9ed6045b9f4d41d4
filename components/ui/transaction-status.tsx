"use client";
// What a form's transaction is doing, in words: the current step while it runs (announced politely),
// the balance changes its simulation showed once it passed the check, with the step that alone opens
// the wallet ("Continue to wallet", focused when it appears, or Cancel: the wallet's own approval is the
// one confirmation), the rebuilt-blockhash notice, the error in words (a cancel, the person's own
// choice, as a neutral notice), or the confirmed result. Nothing reads as done
// until the chain has confirmed it. A step the network is slow about says so after SLOW_STEP_MS, with
// a way to stop waiting.
import { useRef, type ReactNode } from "react";

import { describeError, slowStepWords, type ErrorContext } from "@/lib/web/error-words";
import type { FlowStage } from "@/lib/web/transaction-flow";
import { useClientConfig, useReaderLocale } from "../providers/config-context";
import type { ReviewAnswers, TransactionProgress } from "../vault/vault-transactions";
import { Alert, Button } from "./primitives";
import { useFocusWhenLost } from "./use-focus-when-lost";
import { useNow } from "./use-now";

const STAGE_WORDS: Record<FlowStage, string> = {
  preparing: "Preparing the transaction…",
  reviewing: "Checked and simulated. Review what it does; your wallet asks you to approve it next.",
  signing: "Approve the transaction in your wallet…",
  sending: "Sending it to the network…",
  confirming: "Waiting for the network to confirm it…",
  recording: "Confirmed. Adding it to your activity…",
};

export function TransactionStatus({
  progress,
  error,
  errorContext,
  success,
  testId,
  onStop,
  review,
}: {
  progress: TransactionProgress;
  /** The confirm step's answers (vault-transactions.tsx useReview), shown while the flow is reviewing. */
  review?: ReviewAnswers;
  /** Stops waiting for the transaction (vault-transactions.tsx useStoppable). */
  onStop?: () => void;
  error: unknown;
  errorContext?: ErrorContext;
  /** Shown once the mutation has succeeded (confirmed and recorded). */
  success: ReactNode;
  testId: string;
}) {
  const config = useClientConfig();
  const locale = useReaderLocale();
  // Ticks each second only while a step runs.
  const now = useNow(progress.stage === null ? 60_000 : 1_000);
  const slow =
    progress.stage === null || progress.stageSince === null
      ? null
      : slowStepWords(progress.stage, now - progress.stageSince);
  const words =
    error === null || error === undefined
      ? null
      : describeError(error, {
          hasFaucet: config.faucetUrl !== null,
          nowMs: now,
          ...errorContext,
          clock: { locale, ...errorContext?.clock },
          transaction: { sent: progress.sent },
        });
  const cancelled = words !== null && (words.kind === "cancelled" || words.kind === "wallet-rejected");
  // The outcome takes keyboard focus when the button that started it is gone or disabled.
  const outcome = useRef<HTMLDivElement>(null);
  const shownSuccess = success !== null && success !== undefined && success !== false;
  useFocusWhenLost(outcome, words !== null ? `error ${words.title}` : shownSuccess ? "success" : null);
  return (
    <div className="space-y-2" data-testid={testId}>
      <p role="status" aria-live="polite" className="min-h-5 text-sm text-muted">
        {progress.stage === null ? "" : STAGE_WORDS[progress.stage]}
      </p>
      {progress.preview !== null && progress.stage !== null ? (
        <Alert tone="info" title="What this transaction does (simulated)" testId={`${testId}-preview`}>
          <ul aria-label="Balance changes of this transaction">
            {progress.preview.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
          {progress.stage === "reviewing" && review !== undefined ? (
            <div className="mt-3 flex gap-2" role="group" aria-label="Confirm this transaction">
              <Button autoFocus onClick={review.confirm} data-testid={`${testId}-confirm`}>
                Continue to wallet
              </Button>
              <Button variant="secondary" onClick={review.decline}>
                Cancel
              </Button>
            </div>
          ) : null}
        </Alert>
      ) : null}
      {slow === null ? null : (
        <Alert tone="warning" title="Still trying" testId={`${testId}-slow`}>
          <p>{slow.message}</p>
          {slow.cancellable && onStop !== undefined ? (
            <Button variant="secondary" className="mt-2" onClick={onStop}>
              Cancel: stop waiting
            </Button>
          ) : null}
        </Alert>
      )}
      {progress.rebuilt ? (
        <Alert tone="info" title="Blockhash expired — rebuilt">
          The transaction expired before it reached the network, so it was rebuilt and your wallet was asked
          again.
        </Alert>
      ) : null}
      <div ref={outcome} tabIndex={-1} className="space-y-2 outline-none empty:hidden">
        {words === null ? null : (
          <Alert
            tone={cancelled ? "info" : "error"}
            title={words.title}
            testId={cancelled ? `${testId}-cancelled` : `${testId}-error`}
          >
            {words.message}
          </Alert>
        )}
        {success}
      </div>
    </div>
  );
}

"use client";
// A read that failed, in words (lib/web/error-words.ts), with a button that says what it tries again.
// The chain not answering is said once for the whole page (components/ui/chain-stall-notice.tsx), which
// also asks again: here it is only a quiet word where the card has nothing to show.
import { describeError } from "@/lib/web/error-words";
import { isChainStall } from "@/lib/web/errors";
import { useClientConfig } from "../providers/config-context";
import { Alert, Button } from "../ui/primitives";

export function ReadError({
  error,
  onRetry,
  retrying,
  hasData = false,
}: {
  error: unknown;
  onRetry(): void;
  /** What the button reads again, after "Try again: " ("load the vaults"). */
  retrying: string;
  /** The card still shows what it read last: a stalled chain needs no word here. */
  hasData?: boolean;
}) {
  const config = useClientConfig();
  if (isChainStall(error)) {
    return hasData ? null : <p className="text-sm text-muted">Waiting for the chain to answer…</p>;
  }
  const words = describeError(error, { hasFaucet: config.faucetUrl !== null });
  return (
    <Alert tone="error" title={words.title}>
      <p>{words.message}</p>
      <Button variant="secondary" className="mt-2" onClick={onRetry}>
        Try again: {retrying}
      </Button>
    </Alert>
  );
}

/**
 * A query's read error when it failed, nothing otherwise; the card still shows what it read last when
 * the query holds data (unless `hasData` says).
 */
export function QueryReadError({
  query,
  retrying,
  hasData,
}: {
  query: { isError: boolean; error: unknown; data: unknown; refetch(): Promise<unknown> };
  retrying: string;
  hasData?: boolean;
}) {
  if (!query.isError) {
    return null;
  }
  return (
    <ReadError
      error={query.error}
      onRetry={() => void query.refetch()}
      retrying={retrying}
      hasData={hasData ?? query.data !== undefined}
    />
  );
}

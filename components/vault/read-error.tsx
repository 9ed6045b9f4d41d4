"use client";
// A read that failed, in words (lib/web/error-words.ts), with a button that says what it tries again.
import { describeError } from "@/lib/web/error-words";
import { useClientConfig } from "../providers/config-context";
import { Alert, Button } from "../ui/primitives";

export function ReadError({
  error,
  onRetry,
  retrying,
}: {
  error: unknown;
  onRetry(): void;
  /** What the button reads again, after "Try again: " ("load the vaults"). */
  retrying: string;
}) {
  const config = useClientConfig();
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

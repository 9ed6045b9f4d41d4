"use client";
// The localnet faucet's button: test USDC and SOL for the connected wallet, and what came of the request.
import { useClientConfig } from "../providers/config-context";
import { Button } from "../ui/primitives";
import { useFaucet } from "./faucet-request";

export function FaucetButton() {
  const config = useClientConfig();
  const faucet = useFaucet();
  if (config.faucetUrl === null) {
    return null;
  }
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-lg border border-dashed border-line px-3 py-2">
      {/* aria-disabled, not disabled: a disabled button drops keyboard focus to <body> while it waits. */}
      <Button
        variant="secondary"
        onClick={() => {
          if (!faucet.isPending) {
            faucet.mutate();
          }
        }}
        aria-disabled={faucet.isPending}
        className="min-h-8 px-3 py-1 aria-disabled:cursor-wait aria-disabled:opacity-50"
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

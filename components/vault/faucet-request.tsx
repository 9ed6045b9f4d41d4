"use client";
// The localnet faucet's request: test SOL and USDC for the connected wallet, then the balances refetched.
import { useMutation, useQueryClient } from "@tanstack/react-query";

import { WalletUnavailableError } from "@/lib/web/errors";
import { useClientConfig, useClusterKey } from "../providers/config-context";
import { useWalletState } from "../wallet/wallet-data-access";
import { loadReader } from "./vault-query-keys";

/** The localnet faucet: test SOL and USDC for the connected wallet. */
export function useFaucet() {
  const config = useClientConfig();
  const cluster = useClusterKey();
  const { publicKey } = useWalletState();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      if (config.faucetUrl === null || publicKey === null) {
        throw new WalletUnavailableError("Connect a wallet to get test funds");
      }
      let response: Response;
      try {
        response = await fetch(config.faucetUrl, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ wallet: publicKey }),
        });
      } catch (error) {
        // The faucet is the local chain's: not answering means the chain is down.
        const { ChainUnavailableError } = await import("@/lib/chain/rpc");
        throw new ChainUnavailableError(`faucet: ${error instanceof Error ? error.message : String(error)}`);
      }
      const body = (await response.json().catch(() => null)) as {
        signature?: string;
        error?: unknown;
      } | null;
      if (!response.ok || typeof body?.signature !== "string") {
        const { ApiRequestError } = await import("@/lib/web/errors");
        const retryAfter = Number(response.headers.get("retry-after"));
        throw new ApiRequestError(
          response.status,
          response.status === 429 ? "RATE_LIMITED" : "FAUCET_FAILED",
          typeof body?.error === "string" ? body.error : "The faucet refused",
          null,
          Number.isFinite(retryAfter) ? retryAfter : null,
        );
      }
      const reader = await loadReader();
      await reader.connectionFor(config).confirmTransaction(body.signature, "confirmed");
      return body.signature;
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: ["position", ...cluster] });
      void queryClient.invalidateQueries({ queryKey: ["balances", ...cluster] });
    },
  });
}

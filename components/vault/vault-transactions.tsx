"use client";
// The vault's writes: deposit, withdrawal request and claim. Each builds via /api → the wallet signs →
// submit → confirm → POST /api/history → invalidate, reporting the flow's stage to its form.
import type { Connection } from "@solana/web3.js";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useCallback, useRef, useState } from "react";

import { balanceChangeWords } from "@/lib/web/balance-change-words";
import { transactionMutationKey } from "@/lib/web/embed-messages";
import { TransactionStoppedError, UnexpectedActionError, WalletUnavailableError } from "@/lib/web/errors";
import type { FlowDeps, FlowEvents, FlowStage, TransactionPreview } from "@/lib/web/transaction-flow";
import type { OperationRequest } from "@/lib/vault/verify-transaction";
import type { VaultView } from "@/lib/vault/vault-view";
import { useClientConfig, useClusterKey } from "../providers/config-context";
import { useWalletState, type WalletState } from "../wallet/wallet-data-access";
import { loadApi, loadFlow, loadReader, vaultKeys } from "./vault-query-keys";

export interface TransactionProgress {
  stage: FlowStage | null;
  /** When the current stage began (epoch ms); null while idle. */
  stageSince: number | null;
  /** The blockhash expired once: the transaction was rebuilt and the wallet asked again. */
  rebuilt: boolean;
  /** The checked transaction's simulated balance changes in words, shown before and while the wallet asks. */
  preview: string[] | null;
}

interface ConnectedWallet {
  publicKey: string;
  signTransaction: NonNullable<WalletState["signTransaction"]>;
}

function requireWallet(wallet: WalletState): ConnectedWallet {
  if (wallet.publicKey === null || wallet.signTransaction === null) {
    throw new WalletUnavailableError("Connect a wallet that can sign transactions first.");
  }
  return { publicKey: wallet.publicKey, signTransaction: wallet.signTransaction };
}

/**
 * What the flow needs: the connection, the wallet, the progress callbacks, and the check of every
 * built transaction against the request before the wallet sees it.
 */
function checkedFlowDeps(
  flow: Awaited<ReturnType<typeof loadFlow>>,
  connection: Connection,
  wallet: ConnectedWallet,
  events: FlowEvents,
  vault: VaultView,
  request: OperationRequest,
): FlowDeps {
  return {
    connection,
    signTransaction: wallet.signTransaction,
    events,
    verify: flow.transactionCheck(connection, { vault: vault.id, wallet: wallet.publicKey }, request),
  };
}

/** The flow's stage and rebuild notice for one form, plus the callbacks the flow reports through. */
function useTransactionProgress(vault: VaultView) {
  const [progress, setProgress] = useState<TransactionProgress>({
    stage: null,
    stageSince: null,
    rebuilt: false,
    preview: null,
  });
  const events: FlowEvents = {
    stage: (stage: FlowStage) => setProgress((current) => ({ ...current, stage, stageSince: Date.now() })),
    rebuilt: () => setProgress((current) => ({ ...current, rebuilt: true })),
    previewed: (preview: TransactionPreview) =>
      setProgress((current) => ({ ...current, preview: balanceChangeWords(preview.changes, vault) })),
  };
  const reset = useCallback(
    () => setProgress({ stage: null, stageSince: null, rebuilt: false, preview: null }),
    [],
  );
  const finish = useCallback(
    () => setProgress((current) => ({ ...current, stage: null, stageSince: null })),
    [],
  );
  return { progress, events, reset, finish };
}

/**
 * Stopping a transaction the network is slow about: the run is raced against Stop, and the wallet is
 * never asked to sign after it (so nothing is sent later, a rebuilt transaction included). What was
 * already signed may still land; the error says so.
 */
function useStoppable() {
  const current = useRef<{ stop(): void } | null>(null);
  const run = useCallback(
    async <T,>(
      connected: ConnectedWallet,
      body: (signTransaction: ConnectedWallet["signTransaction"]) => Promise<T>,
    ): Promise<T> => {
      let signed = false;
      let stopped = false;
      let stop = (): void => undefined;
      const stoppedPromise = new Promise<never>((_resolve, reject) => {
        stop = () => {
          stopped = true;
          reject(new TransactionStoppedError(signed));
        };
      });
      current.current = { stop };
      const signTransaction: ConnectedWallet["signTransaction"] = async (transaction) => {
        if (stopped) {
          throw new TransactionStoppedError(signed);
        }
        const result = await connected.signTransaction(transaction);
        signed = true;
        return result;
      };
      try {
        return await Promise.race([body(signTransaction), stoppedPromise]);
      } finally {
        current.current = null;
      }
    },
    [],
  );
  const stop = useCallback(() => current.current?.stop(), []);
  return { run, stop };
}

/**
 * After a transaction the indexer's figures (depositors, TVL, the directory) trail the chain: holders
 * are counted on its full passes (every INDEXER_INTERVAL_SECONDS, 15 s by default). They are asked
 * again at these delays, so the counts move without waiting for the next poll.
 */
const INDEXED_REFRESH_DELAYS_MS = [5_000, 17_000, 33_000];

function useInvalidateVault(vaultId: string) {
  const queryClient = useQueryClient();
  const cluster = useClusterKey();
  return () => {
    for (const delay of INDEXED_REFRESH_DELAYS_MS) {
      setTimeout(() => {
        for (const queryKey of [vaultKeys.stats(cluster, vaultId), vaultKeys.directory(cluster)]) {
          void queryClient.invalidateQueries({ queryKey });
        }
      }, delay);
    }
    return Promise.all(
      [
        vaultKeys.vault(cluster, vaultId),
        ["position", ...cluster, vaultId],
        ["withdrawal-status", ...cluster, vaultId],
        ["activity", ...cluster, vaultId],
        ["portfolio", ...cluster],
        ["balances", ...cluster],
        vaultKeys.directory(cluster),
        vaultKeys.stats(cluster, vaultId),
      ].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
    );
  };
}

export function useDeposit(vault: VaultView) {
  const config = useClientConfig();
  const wallet = useWalletState();
  const { progress, events, reset, finish } = useTransactionProgress(vault);
  const invalidate = useInvalidateVault(vault.id);
  const stoppable = useStoppable();
  const mutation = useMutation({
    mutationKey: transactionMutationKey("deposit", vault.id),
    mutationFn: async ({ amount }: { amount: bigint }) => {
      const connected = requireWallet(wallet);
      const [reader, api, flow] = await Promise.all([loadReader(), loadApi(), loadFlow()]);
      return stoppable.run(connected, (signTransaction) =>
        flow.runVaultTransaction(
          checkedFlowDeps(
            flow,
            reader.connectionFor(config),
            { ...connected, signTransaction },
            events,
            vault,
            {
              operation: "deposit",
              amount: { raw: amount },
            },
          ),
          () => api.buildDeposit(vault.id, connected.publicKey, amount),
          (signature) => api.recordHistory(vault.id, connected.publicKey, signature),
        ),
      );
    },
    onMutate: reset,
    onSettled: async () => {
      finish();
      await invalidate();
    },
  });
  return { mutation, progress, stop: stoppable.stop };
}

export function useRequestWithdrawal(vault: VaultView) {
  const config = useClientConfig();
  const wallet = useWalletState();
  const { progress, events, reset, finish } = useTransactionProgress(vault);
  const invalidate = useInvalidateVault(vault.id);
  const stoppable = useStoppable();
  const mutation = useMutation({
    mutationKey: transactionMutationKey("withdraw", vault.id),
    mutationFn: async ({ shares }: { shares: bigint }) => {
      const connected = requireWallet(wallet);
      const [reader, api, flow] = await Promise.all([loadReader(), loadApi(), loadFlow()]);
      return stoppable.run(connected, (signTransaction) =>
        flow.runVaultTransaction(
          checkedFlowDeps(
            flow,
            reader.connectionFor(config),
            { ...connected, signTransaction },
            events,
            vault,
            {
              operation: "initiate",
              shares,
            },
          ),
          () => api.buildWithdraw(vault.id, connected.publicKey, shares),
          (signature) => api.recordHistory(vault.id, connected.publicKey, signature),
          (prepared) => {
            if (prepared.action !== "initiate") {
              throw new UnexpectedActionError("initiate", prepared.action);
            }
          },
        ),
      );
    },
    onMutate: reset,
    onSettled: async () => {
      finish();
      await invalidate();
    },
  });
  return { mutation, progress, stop: stoppable.stop };
}

export function useClaimWithdrawal(vault: VaultView) {
  const config = useClientConfig();
  const wallet = useWalletState();
  const { progress, events, reset, finish } = useTransactionProgress(vault);
  const invalidate = useInvalidateVault(vault.id);
  const stoppable = useStoppable();
  const mutation = useMutation({
    mutationKey: transactionMutationKey("claim", vault.id),
    mutationFn: async () => {
      const connected = requireWallet(wallet);
      const [reader, api, flow] = await Promise.all([loadReader(), loadApi(), loadFlow()]);
      return stoppable.run(connected, (signTransaction) =>
        flow.runVaultTransaction(
          checkedFlowDeps(
            flow,
            reader.connectionFor(config),
            { ...connected, signTransaction },
            events,
            vault,
            {
              operation: "claim",
            },
          ),
          // The spec's auto-detected action: with a withdrawal pending, the API prepares its claim.
          () => api.buildWithdraw(vault.id, connected.publicKey, null),
          (signature) => api.recordHistory(vault.id, connected.publicKey, signature),
          (prepared) => {
            if (prepared.action !== "claim") {
              throw new UnexpectedActionError("claim", prepared.action);
            }
          },
        ),
      );
    },
    onMutate: reset,
    onSettled: async () => {
      finish();
      await invalidate();
    },
  });
  return { mutation, progress, stop: stoppable.stop };
}

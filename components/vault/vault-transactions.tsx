"use client";
// The vault's writes: deposit, withdrawal request, claim and cancel. Each builds via /api → checks and
// simulates → shows the balance changes and waits for "Continue to wallet" → the wallet signs (its own
// approval is the one confirmation) → submit → confirm → POST /api/history → invalidate, reporting the
// flow's stage to its form.
import type { Connection } from "@solana/web3.js";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useCallback, useRef, useState } from "react";

import { balanceChangeWords, partnerFeeWords, receiptRentWords } from "@/lib/web/balance-change-words";
import { transactionMutationKey, type EmbedTransactionKind } from "@/lib/web/embed-messages";
import {
  TransactionCancelledError,
  TransactionStoppedError,
  UnexpectedActionError,
  WalletUnavailableError,
} from "@/lib/web/errors";
import type {
  BuiltTransaction,
  FlowDeps,
  FlowEvents,
  FlowStage,
  PageCheckOptions,
  TransactionPreview,
} from "@/lib/web/transaction-flow";
import type { OperationRequest } from "@/lib/vault/operations/verify-transaction";

import type { VaultView } from "@/lib/vault/model/vault-view";
import type { EmbedPartner } from "@/lib/web/embed-partner";
import { useClientConfig, useClusterKey, useReaderLocale } from "../providers/config-context";
import { useEmbedPartner } from "../embed/embed-partner-context";
import { useWalletState, type WalletState } from "../wallet/wallet-data-access";
import { loadApi, loadFlow, loadReader, vaultKeys } from "./vault-query-keys";

export interface TransactionProgress {
  stage: FlowStage | null;
  /** When the current stage began (epoch ms); null while idle. */
  stageSince: number | null;
  /** The blockhash expired once: the transaction was rebuilt and the wallet asked again. */
  rebuilt: boolean;
  /** The wallet signed and the transaction was handed to the network: it may land whatever follows. */
  sent: boolean;
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
  confirm: FlowDeps["confirm"],
  vault: VaultView,
  request: OperationRequest,
  options: PageCheckOptions,
): FlowDeps {
  return {
    connection,
    signTransaction: wallet.signTransaction,
    confirm,
    events,
    verify: flow.transactionCheck(
      connection,
      { vault: vault.id, wallet: wallet.publicKey },
      request,
      options,
    ),
  };
}

/** The confirm step's two answers: have the wallet sign what the preview shows, or stop before it does. */
export interface ReviewAnswers {
  confirm(): void;
  decline(): void;
}

/**
 * The step between the preview and the wallet: the flow's deps.confirm waits here until the person
 * presses "Continue to wallet" (resolves; the wallet then asks for the one approval) or Cancel
 * (rejects: nothing is signed).
 */
function useReview() {
  const waiting = useRef<{ resolve(): void; reject(error: unknown): void } | null>(null);
  const ask = useCallback(
    () =>
      new Promise<void>((resolve, reject) => {
        waiting.current?.reject(new TransactionCancelledError());
        waiting.current = { resolve, reject };
      }),
    [],
  );
  const answer = useCallback((go: boolean) => {
    const current = waiting.current;
    waiting.current = null;
    if (go) {
      current?.resolve();
    } else {
      current?.reject(new TransactionCancelledError());
    }
  }, []);
  const answers: ReviewAnswers = {
    confirm: useCallback(() => answer(true), [answer]),
    decline: useCallback(() => answer(false), [answer]),
  };
  return { ask, answers };
}

/** The flow's stage and rebuild notice for one form, plus the callbacks the flow reports through. */
function useTransactionProgress(vault: VaultView) {
  const locale = useReaderLocale();
  const [progress, setProgress] = useState<TransactionProgress>({
    stage: null,
    stageSince: null,
    rebuilt: false,
    sent: false,
    preview: null,
  });
  const events: FlowEvents = {
    stage: (stage: FlowStage) =>
      setProgress((current) => ({
        ...current,
        stage,
        stageSince: Date.now(),
        sent: current.sent || stage === "sending" || stage === "confirming" || stage === "recording",
      })),
    rebuilt: () => setProgress((current) => ({ ...current, rebuilt: true })),
    previewed: (preview: TransactionPreview) => {
      const notes = [
        partnerFeeWords(preview.verified, vault.asset, locale),
        receiptRentWords(preview.verified, locale),
      ].filter((line): line is string => line !== null);
      const lines = [...balanceChangeWords(preview.changes, vault, locale), ...notes];
      setProgress((current) => ({ ...current, preview: lines }));
    },
  };
  const reset = useCallback(
    () => setProgress({ stage: null, stageSince: null, rebuilt: false, sent: false, preview: null }),
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

type Api = Awaited<ReturnType<typeof loadApi>>;

/** One kind of vault write: the check's request, the build through /api, and what the build must be. */
interface VaultWrite<A, P extends BuiltTransaction> {
  kind: EmbedTransactionKind;
  request(args: A): OperationRequest;
  build(api: Api, vaultId: string, wallet: string, args: A): Promise<P>;
  /** Refuses a build of another action than the one asked for (the chain's state changed meanwhile). */
  check?(prepared: P): void;
  /** The check before signing's bounds beyond the defaults (an embed's partner fee). */
  checkOptions?: PageCheckOptions;
}

/**
 * A vault write for its form: build via /api, check it against the request, simulate, have the wallet
 * sign, send, confirm and record it, with the progress, the stop of a slow run and the invalidation
 * after it.
 */
function useVaultWrite<A, P extends BuiltTransaction>(vault: VaultView, write: VaultWrite<A, P>) {
  const config = useClientConfig();
  const wallet = useWalletState();
  const { progress, events, reset, finish } = useTransactionProgress(vault);
  const invalidate = useInvalidateVault(vault.id);
  const stoppable = useStoppable();
  const review = useReview();
  const mutation = useMutation({
    mutationKey: transactionMutationKey(write.kind, vault.id),
    mutationFn: async (args: A) => {
      const connected = requireWallet(wallet);
      const [reader, api, flow] = await Promise.all([loadReader(), loadApi(), loadFlow()]);
      return stoppable.run(connected, (signTransaction) =>
        flow.runVaultTransaction(
          checkedFlowDeps(
            flow,
            reader.connectionFor(config),
            { ...connected, signTransaction },
            events,
            review.ask,
            vault,
            write.request(args),
            write.checkOptions ?? {},
          ),
          () => write.build(api, vault.id, connected.publicKey, args),
          (signature) => api.recordHistory(vault.id, connected.publicKey, signature),
          write.check,
        ),
      );
    },
    onMutate: reset,
    onSettled: async (_result, error) => {
      review.answers.decline();
      finish();
      // A failure is said at once: the refetches after it may wait on a chain that is not answering.
      // A success waits for them, so the figures beside it already show it.
      const refreshed = invalidate();
      if (error === null) {
        await refreshed;
      }
    },
  });
  return { mutation, progress, stop: stoppable.stop, review: review.answers };
}

/** The API's auto-detected action must be the one asked for. */
function expectAction(expected: "initiate" | "claim" | "cancel") {
  return (prepared: { action: string }): void => {
    if (prepared.action !== expected) {
      throw new UnexpectedActionError(expected, prepared.action);
    }
  };
}

/**
 * A deposit; in an embed that names a partner, one that pays exactly that partner's fee: the build
 * names the partner's key, and the check before signing accepts that fee, no more, to that wallet only.
 */
function depositWrite(
  partner: EmbedPartner | null,
): VaultWrite<{ amount: bigint }, Awaited<ReturnType<Api["buildDeposit"]>>> {
  return {
    kind: "deposit",
    request: ({ amount }) => ({ operation: "deposit", amount: { raw: amount } }),
    build: (api, vaultId, wallet, { amount }) =>
      api.buildDeposit(vaultId, wallet, amount, partner === null ? null : partner.keyId),
    ...(partner === null
      ? {}
      : { checkOptions: { maxPartnerFeeBps: partner.feeBps, partner: partner.wallet } }),
  };
}

const REQUEST: VaultWrite<{ shares: bigint }, Awaited<ReturnType<Api["buildWithdraw"]>>> = {
  kind: "withdraw",
  request: ({ shares }) => ({ operation: "initiate", shares }),
  build: (api, vaultId, wallet, { shares }) => api.buildWithdraw(vaultId, wallet, shares),
  check: expectAction("initiate"),
};

const CLAIM: VaultWrite<void, Awaited<ReturnType<Api["buildWithdraw"]>>> = {
  kind: "claim",
  request: () => ({ operation: "claim" }),
  // The spec's auto-detected action: with a withdrawal pending, the API prepares its claim.
  build: (api, vaultId, wallet) => api.buildWithdraw(vaultId, wallet, null),
  check: expectAction("claim"),
};

const CANCEL: VaultWrite<void, Awaited<ReturnType<Api["buildCancel"]>>> = {
  kind: "cancel",
  request: () => ({ operation: "cancel" }),
  build: (api, vaultId, wallet) => api.buildCancel(vaultId, wallet),
  check: expectAction("cancel"),
};

export function useDeposit(vault: VaultView) {
  return useVaultWrite(vault, depositWrite(useEmbedPartner()));
}

export function useRequestWithdrawal(vault: VaultView) {
  return useVaultWrite(vault, REQUEST);
}

export function useClaimWithdrawal(vault: VaultView) {
  return useVaultWrite(vault, CLAIM);
}

export function useCancelWithdrawal(vault: VaultView) {
  return useVaultWrite(vault, CANCEL);
}

// The typed partner client: openapi-fetch over the types openapi-typescript generates from the API's
// OpenAPI document (./schema.ts), plus the flows a partner otherwise writes by hand. deposit, withdraw
// and claim build through /api, check the built transaction against the request (programs, vault,
// accounts, amounts, fee payer, compute price: lib/vault/operations/verify-transaction.ts) and simulate it, reading
// the wallet's balance changes, refusing with a TransactionCheckError before the signer is asked
// anything; then they have the signer sign, send, confirm and record with POST /api/history
// (the same flow the web app runs, lib/vault/send/transaction-flow.ts): an expired blockhash is rebuilt and
// signed again, a 429 waits its Retry-After, and a withdrawal the caps refuse (at preparation, or 6020 /
// 6021 on chain) is a CapacityExceededError carrying the vault's withdrawal limits read afresh from the
// chain's vault account (the withdrawal status's read), not the indexer's copy.
import type { VersionedTransaction } from "@solana/web3.js";
import { Connection, PublicKey } from "@solana/web3.js";
import * as openapiFetch from "openapi-fetch";

import { chainFetch } from "../chain/rpc-transport";
import { vaultErrorCode } from "../vault/program/program-errors";
import { vaultTransactionVerifier, type OperationRequest } from "../vault/operations/verify-transaction";
import { ApiRequestError, TransactionRefusedError } from "../vault/send/transaction-errors";
import { runVaultTransaction, type FlowResult, type FlowStage } from "../vault/send/transaction-flow";
import type { paths } from "./schema";

export type { components, paths } from "./schema";

/**
 * openapi-fetch's createClient. The package's CommonJS build (packages/client/dist/index.cjs) loads
 * openapi-fetch's CommonJS build, whose default export a Node-mode import finds one level down.
 */
const createClient: typeof openapiFetch.default =
  typeof openapiFetch.default === "function"
    ? openapiFetch.default
    : (openapiFetch.default as unknown as { default: typeof openapiFetch.default }).default;

export type VaultClient = ReturnType<typeof createVaultClient>;
export {
  ApiRequestError,
  BlockhashExpiredError,
  RecordingFailedError,
  TransactionRefusedError,
} from "../vault/send/transaction-errors";
// The check itself, for partners who send transactions their own way: verify before signing.
export {
  DEFAULT_MAX_COMPUTE_UNIT_PRICE_MICRO_LAMPORTS,
  DEFAULT_MAX_SLIPPAGE_BPS,
  TransactionCheckError,
  readVaultTokens,
  vaultTransactionVerifier,
  verifyVaultTransaction,
  type BuildAnswer,
  type ExpectedVaultTransaction,
  type OperationRequest,
  type VaultTokens,
  type TransactionCheckCode,
  type VerifiedTransaction,
} from "../vault/operations/verify-transaction";
export type { BalanceChanges } from "../vault/operations/balance-changes";
export type { TransactionPreview } from "../vault/send/transaction-flow";

/** The `data` of an operation's 200 envelope. */
type DataOf<Operation> = Operation extends {
  responses: { 200: { content: { "application/json": { data: infer Data } } } };
}
  ? Data
  : never;

export type DepositData = DataOf<paths["/api/vault/{vault_id}/deposit"]["post"]>;
export type WithdrawData = DataOf<paths["/api/vault/{vault_id}/withdraw"]["post"]>;
export type WithdrawalStatus = DataOf<paths["/api/vault/{vault_id}/withdraw"]["get"]>;
export type WithdrawalLimits = DataOf<paths["/api/vault/{vault_id}"]["get"]>["vault"]["withdrawalLimits"];
export type HistoryRecord = DataOf<paths["/api/history"]["post"]>;

/** What signs: a wallet adapter, a Keypair wrapped in a function, a KMS. */
export interface TransactionSigner {
  publicKey: PublicKey;
  signTransaction(transaction: VersionedTransaction): Promise<VersionedTransaction>;
}

/** The vault program's cap errors by window, their codes read from the IDL by name (6020 and 6021). */
const CAP_ERRORS = {
  hourly: vaultErrorCode("HourlyWithdrawalCapExceeded"),
  daily: vaultErrorCode("DailyWithdrawalCapExceeded"),
} as const;

/** The vault program's cap errors: the hourly or daily net-withdrawal cap. */
export const CAP_ERROR_CODES: readonly number[] = [CAP_ERRORS.hourly, CAP_ERRORS.daily];

/**
 * A withdrawal the caps refuse: at preparation (422 CAPACITY_EXCEEDED, programErrorCode null) or on
 * chain after another withdrawal used the capacity (6020/6021). `limits` is what is left now, as the
 * chain's vault account has it right after the refusal.
 */
export class CapacityExceededError extends Error {
  constructor(
    message: string,
    /** One of CAP_ERROR_CODES, or null when the preparation refused it. */
    readonly programErrorCode: number | null,
    readonly limits: WithdrawalLimits,
    cause?: unknown,
  ) {
    super(message, { cause });
    this.name = "CapacityExceededError";
  }
}

export interface VaultClientOptions {
  /** The API's origin, e.g. https://vaults.example. */
  baseUrl: string;
  /** A write-scope key: vk_live_… or vk_test_…. */
  apiKey: string;
  /** The vault the flows act on. */
  vaultId: string;
  /** Where transactions are sent and confirmed: an RPC URL or a Connection. */
  rpc: string | Connection;
  /**
   * The highest compute-unit price (micro-lamports) a built transaction may set; a higher one is refused
   * before signing. Default DEFAULT_MAX_COMPUTE_UNIT_PRICE_MICRO_LAMPORTS (the gateway's default cap).
   */
  maxComputeUnitPriceMicroLamports?: number;
  /**
   * The most, in basis points, a deposit's guard (min_shares_out: the fewest shares it accepts) may sit
   * below the shares the build's preview showed (details.estimatedSharesReceived), and that preview
   * below what the simulation mints; a lower guard is refused before signing. Default
   * DEFAULT_MAX_SLIPPAGE_BPS (50, the gateway's own default, where its honest builds sit).
   */
  maxSlippageBps?: number;
  /**
   * The highest partner fee, in basis points, a deposit may pay (a key that carries a partner builds
   * deposit_with_partner_fee, paying details.partnerFee to that partner's asset account); a higher fee,
   * one the build did not show, or one paid to anyone but the partner the build names is refused before
   * signing. Default 0: a deposit that pays any partner fee is refused.
   */
  maxPartnerFeeBps?: number;
  /** How many 429s in a row to wait out before answering the last one (default 3). */
  maxRateLimitRetries?: number;
  /** Progress of the flows (for a UI), including each wait for a rate limit and each rebuild. */
  onEvent?: (event: ClientEvent) => void;
  fetch?: typeof fetch;
}

export type ClientEvent =
  | { type: "stage"; stage: FlowStage }
  | { type: "rebuilt" }
  | { type: "rate-limited"; retryAfterSeconds: number };

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A fetch that waits out Retry-After on 429 (up to `retries` times) before answering. */
function retryingFetch(
  base: typeof fetch,
  retries: number,
  onWait: (seconds: number) => void,
): (input: Request) => Promise<Response> {
  return async (input) => {
    for (let attempt = 0; ; attempt += 1) {
      const response = await base(input.clone());
      if (response.status !== 429 || attempt >= retries) {
        return response;
      }
      const header = Number(response.headers.get("Retry-After"));
      const seconds = Number.isFinite(header) && header > 0 ? header : 1;
      onWait(seconds);
      await response.body?.cancel();
      await sleep(seconds * 1000);
    }
  };
}

interface Envelope<T> {
  success: true;
  data: T;
}

interface ErrorEnvelope {
  success: false;
  error: string;
  code: string;
  details?: string;
}

/** The data of an envelope, or the API's refusal as an ApiRequestError. */
function unwrap<T>(result: { data?: Envelope<T>; error?: unknown; response: Response }): T {
  if (result.data !== undefined) {
    return result.data.data;
  }
  const body = result.error as Partial<ErrorEnvelope> | undefined;
  const retryAfter = result.response.headers.get("Retry-After");
  throw new ApiRequestError(
    result.response.status,
    body?.code ?? "UNKNOWN",
    body?.error ?? `HTTP ${result.response.status}`,
    body?.details ?? null,
    retryAfter === null ? null : Number(retryAfter),
  );
}

/** Raw units given as a string of digits, as a bigint; anything else is the caller's error. */
function rawUnits(text: string, field: string): bigint {
  if (!/^\d+$/.test(text)) {
    throw new TypeError(
      `${field} must be a string of decimal digits (raw units), got ${JSON.stringify(text)}`,
    );
  }
  return BigInt(text);
}

function depositAmount(request: { uiAmount: number } | { amount: string }): { raw: bigint } | { ui: number } {
  return "amount" in request ? { raw: rawUnits(request.amount, "amount") } : { ui: request.uiAmount };
}

export function createVaultClient(options: VaultClientOptions) {
  const emit = options.onEvent ?? (() => undefined);
  const api = createClient<paths>({
    baseUrl: options.baseUrl,
    headers: { Authorization: `Bearer ${options.apiKey}` },
    fetch: retryingFetch(options.fetch ?? globalThis.fetch, options.maxRateLimitRetries ?? 3, (seconds) =>
      emit({ type: "rate-limited", retryAfterSeconds: seconds }),
    ),
  });
  // A Connection of our own fetches through chainFetch, so the flow knows an unanswered RPC by its type.
  const connection =
    typeof options.rpc === "string"
      ? new Connection(options.rpc, { commitment: "confirmed", fetch: chainFetch })
      : options.rpc;
  const path = { vault_id: options.vaultId };

  /** The directory's limits (GET /api/vault/{id}): the indexer's copy, trailing by its interval. */
  async function withdrawalLimits(): Promise<WithdrawalLimits> {
    const data = unwrap(await api.GET("/api/vault/{vault_id}", { params: { path } }));
    return data.vault.withdrawalLimits;
  }

  async function withdrawalStatus(wallet: string) {
    return unwrap(await api.GET("/api/vault/{vault_id}/withdraw", { params: { path, query: { wallet } } }));
  }

  /** The limits as the chain has them now: the withdrawal status reads the vault account afresh. */
  async function currentWithdrawalLimits(wallet: string): Promise<WithdrawalLimits> {
    return (await withdrawalStatus(wallet)).withdrawalLimits;
  }

  async function record(wallet: string, signature: string): Promise<HistoryRecord> {
    return unwrap(await api.POST("/api/history", { body: { wallet, vault_id: options.vaultId, signature } }));
  }

  function run<P extends { transaction: string; lastValidBlockHeight: number }>(
    wallet: string,
    signer: TransactionSigner,
    request: OperationRequest,
    build: () => Promise<P>,
  ): Promise<FlowResult<P, HistoryRecord>> {
    const verify = vaultTransactionVerifier(
      connection,
      { ...request, vault: new PublicKey(options.vaultId), wallet: new PublicKey(wallet) },
      {
        maxComputeUnitPriceMicroLamports: options.maxComputeUnitPriceMicroLamports,
        maxSlippageBps: options.maxSlippageBps,
        maxPartnerFeeBps: options.maxPartnerFeeBps,
      },
    );
    return runVaultTransaction(
      {
        connection,
        verify,
        signTransaction: (transaction) => signer.signTransaction(transaction),
        events: {
          stage: (stage) => emit({ type: "stage", stage }),
          rebuilt: () => emit({ type: "rebuilt" }),
        },
      },
      build,
      (signature) => record(wallet, signature),
    );
  }

  /** 6020/6021 on chain, or CAPACITY_EXCEEDED at preparation, as a CapacityExceededError. */
  async function capacityRefusal(error: unknown, wallet: string): Promise<unknown> {
    if (error instanceof TransactionRefusedError) {
      const code = error.programErrorCode;
      if (code !== null && CAP_ERROR_CODES.includes(code)) {
        const window = code === CAP_ERRORS.hourly ? "hourly" : "daily";
        return new CapacityExceededError(
          `The vault's ${window} withdrawal cap was used up before this withdrawal executed; prepare it again within the remaining capacity`,
          code,
          await currentWithdrawalLimits(wallet),
          error,
        );
      }
    }
    if (error instanceof ApiRequestError && error.code === "CAPACITY_EXCEEDED") {
      return new CapacityExceededError(error.message, null, await currentWithdrawalLimits(wallet), error);
    }
    return error;
  }

  /** The claim or the cancel of the wallet's pending withdrawal: the withdraw endpoint, that action named. */
  function onPendingWithdrawal(action: "claim" | "cancel", wallet: string, signer: TransactionSigner) {
    return run(wallet, signer, { operation: action }, async () =>
      unwrap(
        await api.POST("/api/vault/{vault_id}/withdraw", { params: { path }, body: { wallet, action } }),
      ),
    );
  }

  return {
    api,
    vaultId: options.vaultId,
    /** Builds, signs, sends, confirms and records a deposit. */
    deposit(
      request: { wallet: string; uiAmount: number } | { wallet: string; amount: string },
      signer: TransactionSigner,
    ) {
      return run(request.wallet, signer, { operation: "deposit", amount: depositAmount(request) }, async () =>
        unwrap(await api.POST("/api/vault/{vault_id}/deposit", { params: { path }, body: request })),
      );
    },
    /** Requests a withdrawal of `sharesAmount` raw share units; 6020/6021 → CapacityExceededError. */
    async withdraw(request: { wallet: string; sharesAmount: string }, signer: TransactionSigner) {
      try {
        const shares = rawUnits(request.sharesAmount, "sharesAmount");
        return await run(request.wallet, signer, { operation: "initiate", shares }, async () =>
          unwrap(
            await api.POST("/api/vault/{vault_id}/withdraw", {
              params: { path },
              body: { ...request, action: "initiate" },
            }),
          ),
        );
      } catch (error) {
        throw await capacityRefusal(error, request.wallet);
      }
    },
    /** Claims the wallet's pending withdrawal once it is claimable (see withdrawalStatus). */
    claim(request: { wallet: string }, signer: TransactionSigner) {
      return onPendingWithdrawal("claim", request.wallet, signer);
    },
    /**
     * Cancels the wallet's pending withdrawal, claimable or not: its escrowed shares come back to the
     * wallet and the request leaves the queue. The build must be cancel_withdrawal for this wallet and
     * vault and may only return shares; a 409 (NO_PENDING_WITHDRAWAL) when nothing is pending.
     */
    cancelWithdrawal(request: { wallet: string }, signer: TransactionSigner) {
      return onPendingWithdrawal("cancel", request.wallet, signer);
    },
    withdrawalStatus,
    withdrawalLimits,
    currentWithdrawalLimits,
  };
}

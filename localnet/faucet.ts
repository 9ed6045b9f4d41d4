// The faucet: requestAirdrop's SOL transfers, and USDC for any wallet over HTTP (POST /faucet on the
// RPC port), rate-limited per client IP, with a little SOL for fees when the wallet has none.
import { PublicKey, SystemProgram } from "@solana/web3.js";
import { z } from "zod";

import type { Chain } from "./chain";
import type { FaucetConfig } from "./config";
import type { DevRoles, LocalnetAddresses } from "./genesis";
import { USDC_DECIMALS } from "./genesis";
import { LocalTransactionError, buildLocalTransaction, submitLocalTransaction } from "./local-transactions";
import { internalError } from "./rpc/errors";
import type { HttpReply, RouteHandler } from "./rpc/http";
import {
  buildCreateAssociatedTokenAccountIdempotentInstruction,
  buildMintToInstruction,
  findAssociatedTokenAddress,
} from "../lib/chain/spl-token";
import { decodeTransaction } from "./transaction";

const LAMPORTS_PER_SOL = 1_000_000_000n;
/** A wallet below this gets `SOL_TOP_UP` with its USDC, enough for fees and account rent. */
const SOL_TOP_UP_THRESHOLD = LAMPORTS_PER_SOL / 20n;
const SOL_TOP_UP = LAMPORTS_PER_SOL;
const MINUTE_MS = 60_000;

/** At most `limit` events per key in any sliding window of `windowMs`. */
export class SlidingWindowLimiter {
  private readonly events = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Records an event; returns 0 if allowed, else the seconds until the next one would be. */
  take(key: string, now: number = Date.now()): number {
    const recent = (this.events.get(key) ?? []).filter((time) => time > now - this.windowMs);
    if (recent.length >= this.limit) {
      this.events.set(key, recent);
      const oldest = recent[0] ?? now;
      return Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000));
    }
    recent.push(now);
    this.events.set(key, recent);
    return 0;
  }
}

export interface UsdcGrant {
  signature: string;
  wallet: string;
  mint: string;
  tokenAccount: string;
  amount: bigint;
  lamports: bigint;
}

const faucetRequestSchema = z.object({
  wallet: z.string().refine((value) => {
    try {
      return new PublicKey(value).toBase58() === value;
    } catch {
      return false;
    }
  }, "must be a base58 public key"),
  amount: z
    .union([
      z.string().regex(/^\d+$/, "must be a positive integer in raw units"),
      z.number().int().positive(),
    ])
    .transform((value) => BigInt(value))
    .refine((value) => value > 0n, "must be a positive integer in raw units")
    .optional(),
});

function reply(status: number, body: unknown, headers?: Record<string, string>): HttpReply {
  return { status, body, headers };
}

export class Faucet {
  private readonly limiter: SlidingWindowLimiter;

  constructor(
    private readonly chain: Chain,
    private readonly roles: DevRoles,
    private readonly addresses: LocalnetAddresses,
    private readonly config: FaucetConfig,
  ) {
    this.limiter = new SlidingWindowLimiter(config.requestsPerMinute, MINUTE_MS);
  }

  /**
   * requestAirdrop: a transfer from the faucet, sent without preflight like a validator's faucet
   * transaction, using the confirmed blockhash unless the caller names one.
   */
  requestAirdrop(recipient: string, lamports: bigint, recentBlockhash: string | null): string {
    if (lamports > this.config.maxAirdropLamports) {
      throw internalError();
    }
    const wire = buildLocalTransaction(
      this.chain,
      [
        SystemProgram.transfer({
          fromPubkey: this.roles.faucet.publicKey,
          toPubkey: new PublicKey(recipient),
          lamports,
        }),
      ],
      this.roles.faucet,
      [],
      recentBlockhash ?? this.chain.latestBlockhash("confirmed").blockhash,
    );
    const transaction = decodeTransaction(wire);
    this.chain.submit(transaction);
    return transaction.signature;
  }

  /**
   * dispenseUsdc, waiting for the next slot when an identical grant already went out in this one (same
   * wallet, amount and blockhash make the same transaction, which the chain refuses as a duplicate).
   */
  async grantUsdc(wallet: PublicKey, amount: bigint): Promise<UsdcGrant> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return this.dispenseUsdc(wallet, amount);
      } catch (error) {
        if (!(error instanceof LocalTransactionError && error.err === "AlreadyProcessed") || attempt >= 3) {
          throw error;
        }
        await this.chain.nextSlot();
      }
    }
  }

  /** Mints USDC to the wallet's associated token account (creating it), topping up SOL if low. */
  dispenseUsdc(wallet: PublicKey, amount: bigint): UsdcGrant {
    const mint = this.addresses.usdcMint;
    const tokenAccount = findAssociatedTokenAddress(wallet, mint);
    const balance = this.chain.getAccount(wallet.toBase58())?.lamports ?? 0n;
    const lamports = balance < SOL_TOP_UP_THRESHOLD ? SOL_TOP_UP : 0n;
    const instructions = [
      buildCreateAssociatedTokenAccountIdempotentInstruction(this.roles.faucet.publicKey, wallet, mint),
      buildMintToInstruction(mint, tokenAccount, this.roles.mintAuthority.publicKey, amount),
    ];
    if (lamports > 0n) {
      instructions.unshift(
        SystemProgram.transfer({ fromPubkey: this.roles.faucet.publicKey, toPubkey: wallet, lamports }),
      );
    }
    const record = submitLocalTransaction(
      this.chain,
      "faucet: dispense USDC",
      instructions,
      this.roles.faucet,
      [this.roles.mintAuthority],
    );
    return {
      signature: record.signature,
      wallet: wallet.toBase58(),
      mint: mint.toBase58(),
      tokenAccount: tokenAccount.toBase58(),
      amount,
      lamports,
    };
  }

  /** GET /faucet describes the faucet; POST /faucet {"wallet", "amount"?} dispenses USDC. */
  readonly route: RouteHandler = async (request) => {
    if (request.method === "GET") {
      return reply(200, {
        mint: this.addresses.usdcMint.toBase58(),
        symbol: "USDC",
        decimals: USDC_DECIMALS,
        defaultAmount: this.config.usdcAmount.toString(),
        maxAmount: this.config.maxUsdcAmount.toString(),
        requestsPerMinute: this.config.requestsPerMinute,
      });
    }
    if (request.method !== "POST") {
      return reply(
        405,
        { error: 'Use POST /faucet with {"wallet": "<address>"}' },
        { Allow: "GET, POST, OPTIONS" },
      );
    }
    if (!request.contentType.toLowerCase().includes("application/json")) {
      return reply(415, { error: "Content-Type must be application/json" });
    }
    let payload: unknown;
    try {
      payload = JSON.parse(request.body.toString("utf8"));
    } catch {
      return reply(400, { error: "The body is not valid JSON" });
    }
    const parsed = faucetRequestSchema.safeParse(payload);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue?.path.join(".") || "body";
      return reply(400, { error: `${field}: ${issue?.message ?? "invalid"}` });
    }
    const amount = parsed.data.amount ?? this.config.usdcAmount;
    if (amount > this.config.maxUsdcAmount) {
      return reply(400, { error: `amount: at most ${this.config.maxUsdcAmount} raw units per request` });
    }
    const retryAfter = this.limiter.take(request.clientIp);
    if (retryAfter > 0) {
      return reply(
        429,
        { error: `Too many faucet requests; try again in ${retryAfter} s` },
        { "Retry-After": String(retryAfter) },
      );
    }
    const grant = await this.grantUsdc(new PublicKey(parsed.data.wallet), amount);
    return reply(200, { ...grant, amount: grant.amount.toString(), lamports: grant.lamports.toString() });
  };
}

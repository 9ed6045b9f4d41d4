// Small pure pieces of the localnet: exact u64 JSON, token amounts, error wording, fees and memos,
// wire-transaction checks, the faucet's rate limiter and the local keeper's settings.
import {
  ComputeBudgetProgram,
  Keypair,
  PublicKey,
  SystemProgram,
  Transaction,
  TransactionInstruction,
} from "@solana/web3.js";
import { describe, expect, it } from "vitest";

import { SlidingWindowLimiter } from "./faucet";
import { stringifyJson } from "./json";
import { LOCALNET_NAV_BOUNDS } from "./genesis";
import { decideStrike, strikeBoundsOf } from "../lib/keeper/keeper";
import { parseNavSource } from "../lib/keeper/nav-source";
import { localTickSeconds, simulatedNavSource } from "./keeper";
import { uiTokenAmount } from "./ui-token-amount";
import {
  TransactionDecodeError,
  decodeTransaction,
  feeOf,
  memoOf,
  sanitizeTransaction,
  withRecentBlockhash,
} from "./transaction";
import { describeTransactionError, type TransactionErrorJson } from "./transaction-error";

const BLOCKHASH = "4vJ9JU1bJJE96FWSJKvHsmmFADCg4gpZQff4P3bkLKi";

function signedTransfer(extra: TransactionInstruction[] = []): Uint8Array {
  const payer = Keypair.generate();
  const transaction = new Transaction({ feePayer: payer.publicKey, recentBlockhash: BLOCKHASH }).add(
    ...extra,
    SystemProgram.transfer({
      fromPubkey: payer.publicKey,
      toPubkey: Keypair.generate().publicKey,
      lamports: 1,
    }),
  );
  transaction.sign(payer);
  return transaction.serialize();
}

describe("stringifyJson", () => {
  it("writes bigint values as exact bare numbers", () => {
    expect(stringifyJson({ rentEpoch: 18446744073709551615n, lamports: 5n, text: "5n" })).toBe(
      '{"rentEpoch":18446744073709551615,"lamports":5,"text":"5n"}',
    );
  });
});

describe("token amounts", () => {
  it.each([
    [0n, 6, "0"],
    [1n, 6, "0.000001"],
    [1_500_000n, 6, "1.5"],
    [10_000_000_000n, 6, "10000"],
    [18446744073709551615n, 0, "18446744073709551615"],
  ])("formats %s with %i decimals as %s", (amount, decimals, expected) => {
    expect(uiTokenAmount(amount, decimals).uiAmountString).toBe(expected);
  });

  it("builds the account decoder's UiTokenAmount", () => {
    expect(uiTokenAmount(2_500_000n, 6)).toEqual({
      amount: "2500000",
      decimals: 6,
      uiAmount: 2.5,
      uiAmountString: "2.5",
    });
  });
});

describe("transaction errors", () => {
  it.each<[TransactionErrorJson, string]>([
    ["BlockhashNotFound", "Blockhash not found"],
    [
      { InstructionError: [0, { Custom: 6020 }] },
      "Error processing Instruction 0: custom program error: 0x1784",
    ],
    [
      { InstructionError: [2, "InvalidAccountData"] },
      "Error processing Instruction 2: invalid account data for instruction",
    ],
    [
      { InsufficientFundsForRent: { account_index: 1 } },
      "Transaction results in an account (1) with insufficient funds for rent",
    ],
  ])("describes %j as a validator does", (error, text) => {
    expect(describeTransactionError(error)).toBe(text);
  });
});

describe("wire transactions", () => {
  it("charges 5000 lamports a signature plus the prioritization fee", () => {
    expect(feeOf(decodeTransaction(signedTransfer()))).toBe(5000n);
    const priced = signedTransfer([
      ComputeBudgetProgram.setComputeUnitLimit({ units: 300_000 }),
      ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 10 }),
    ]);
    expect(feeOf(decodeTransaction(priced))).toBe(5000n + 3n);
  });

  it("reads memos as getSignaturesForAddress shows them", () => {
    const memo = new TransactionInstruction({
      programId: new PublicKey("MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr"),
      keys: [],
      data: Buffer.from("hello"),
    });
    expect(memoOf(decodeTransaction(signedTransfer([memo])))).toBe("[5] hello");
    expect(memoOf(decodeTransaction(signedTransfer()))).toBeNull();
  });

  it("refuses garbage and oversized input with the validator's wording", () => {
    expect(() => decodeTransaction(new Uint8Array([1, 2, 3]))).toThrow(TransactionDecodeError);
    expect(() => decodeTransaction(new Uint8Array(1300))).toThrow(
      "decoded solana_transaction::versioned::VersionedTransaction too large: 1300 bytes (max: 1232 bytes)",
    );
  });

  it("sanitizes signature counts", () => {
    const wire = signedTransfer();
    expect(sanitizeTransaction(decodeTransaction(wire))).toBeNull();
    const unsigned = new Uint8Array(wire.length - 64);
    unsigned[0] = 0;
    unsigned.set(wire.subarray(65), 1);
    expect(sanitizeTransaction(decodeTransaction(unsigned))).toBe("SanitizeFailure");
  });

  it("replaces the recent blockhash, keeping the signatures", () => {
    const original = decodeTransaction(signedTransfer());
    const replaced = withRecentBlockhash(original, "11111111111111111111111111111111");
    const decoded = decodeTransaction(replaced.wire);
    expect(decoded.recentBlockhash).toBe("11111111111111111111111111111111");
    expect(decoded.signature).toBe(original.signature);
  });
});

describe("faucet rate limit", () => {
  it("allows `limit` requests per window per client, then says when to retry", () => {
    const limiter = new SlidingWindowLimiter(2, 60_000);
    expect(limiter.take("a", 0)).toBe(0);
    expect(limiter.take("a", 1_000)).toBe(0);
    expect(limiter.take("a", 2_000)).toBe(58);
    expect(limiter.take("b", 2_000)).toBe(0);
    expect(limiter.take("a", 60_001)).toBe(0);
  });
});

describe("the local keeper's settings", () => {
  it("names the simulated NAV source from the APY in basis points", () => {
    expect(simulatedNavSource(1000)).toBe("simulated:10");
    expect(simulatedNavSource(1234)).toBe("simulated:12.34");
    expect(simulatedNavSource(5)).toBe("simulated:0.05");
    expect(simulatedNavSource(0)).toBe("simulated:0");
    expect(parseNavSource(simulatedNavSource(1234)).description).toBe("simulated 12.34% a year");
  });

  it("looks at the chain at half its shortest interval, at most every second", () => {
    expect(localTickSeconds({ navIntervalSeconds: 60, stageIntervalSeconds: 20 })).toBe(1);
    expect(localTickSeconds({ navIntervalSeconds: 2, stageIntervalSeconds: 1 })).toBe(0.5);
  });

  it("fits the genesis bounds: a minute at 10% APY, and a day's accrual after downtime, unclamped", async () => {
    const source = parseNavSource(simulatedNavSource(1000));
    const bounds = strikeBoundsOf(LOCALNET_NAV_BOUNDS);
    const vault = { totalAssets: 1_000_000_000n, navUpdatedAt: 1_000_000n, navSequence: 3n };
    for (const [seconds, gain] of [
      [60n, 190n],
      [86_400n, 273_972n],
    ] as const) {
      const now = vault.navUpdatedAt + seconds;
      const target = await source.currentTotalAssets({ vault: "v", ...vault, now });
      expect(decideStrike(vault, target, now, 60, bounds)).toEqual({
        strike: true,
        gain,
        loss: 0n,
        target: vault.totalAssets + gain,
        clamped: false,
      });
    }
  });
});

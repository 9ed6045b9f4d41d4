// A lying gateway: a real HTTP server in front of the real API that rewrites the transaction of each
// build response (deposit, withdraw initiate, claim, cancel) into an attack on the wallet: its USDC or SOL sent
// to a stranger, an extra instruction, the operation on another vault, the result paid to a stranger's
// account, a higher amount, an inflated compute-unit price; a deposit's guard (min_shares_out) dropped to
// 0 or set one share below the preview less the default slippage, or dropped with the preview lowered to
// match. The typed client and the pages' flow (with
// the check the pages hand it, transactionCheck) refuse each with a TransactionCheckError before the
// signer is asked (the signer counts its calls) and the wallet's balances do not move. Through the same
// server in honest mode the four operations go through end to end, and report the simulated balance
// changes.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

import {
  ComputeBudgetProgram,
  Keypair,
  PublicKey,
  SystemProgram,
  TransactionInstruction,
  TransactionMessage,
  VersionedTransaction,
  type AccountMeta,
} from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { TransactionCheckError, createVaultClient, type TransactionSigner } from "../../lib/client";
import { buildTransferInstruction, findAssociatedTokenAddress } from "../../lib/chain/spl-token";
import {
  findEscrow,
  findReceipt,
  findReserve,
  findShareMint,
  findVaultAuthority,
} from "../../lib/vault/program/addresses";
import { VAULT_PROGRAM_ID, findIdlInstruction } from "../../lib/vault/program/idl";
import type { OperationRequest, TransactionCheckCode } from "../../lib/vault/operations/verify-transaction";
import { runVaultTransaction, transactionCheck, type FlowStage } from "../../lib/web/transaction-flow";
import { waitFor } from "../../localnet/testing";
import { USDC, startApiHarness, type ApiHarness } from "./harness";

let harness: ApiHarness;
let gateway: HostileGateway;
let apiKey: string;
const stranger = Keypair.generate().publicKey;

type Operation = OperationRequest["operation"];

type Attack =
  | "usdc-to-stranger"
  | "sol-to-stranger"
  | "extra-instruction"
  | "wrong-vault"
  | "stranger-receives"
  | "higher-amount"
  | "inflated-price"
  | "guard-removed"
  | "guard-below-bound"
  | "preview-lowered";

const REFUSALS: Record<Attack, TransactionCheckCode> = {
  "usdc-to-stranger": "UNEXPECTED_PROGRAM",
  "sol-to-stranger": "UNEXPECTED_PROGRAM",
  "extra-instruction": "UNEXPECTED_PROGRAM",
  "wrong-vault": "WRONG_ACCOUNT",
  "stranger-receives": "WRONG_ACCOUNT",
  "higher-amount": "WRONG_AMOUNT",
  "inflated-price": "COMPUTE_PRICE_TOO_HIGH",
  "guard-removed": "MIN_SHARES_OUT_TOO_LOW",
  "guard-below-bound": "MIN_SHARES_OUT_TOO_LOW",
  // The check before signing passes (0 shown, 0 guarded); the simulation mints what the preview hid.
  "preview-lowered": "ESTIMATE_BELOW_SIMULATION",
};

/** Attacks on a deposit's guard, min_shares_out: the other operations have none. */
const GUARD_ATTACKS: readonly Attack[] = ["guard-removed", "guard-below-bound", "preview-lowered"];
const ALL_ATTACKS = Object.keys(REFUSALS) as Attack[];
const COMMON_ATTACKS = ALL_ATTACKS.filter((attack) => !GUARD_ATTACKS.includes(attack));

const ATTACKS_OF: Record<Operation, Attack[]> = {
  deposit: ALL_ATTACKS,
  initiate: COMMON_ATTACKS,
  // A claim and a cancel carry no amount.
  claim: COMMON_ATTACKS.filter((attack) => attack !== "higher-amount"),
  cancel: COMMON_ATTACKS.filter((attack) => attack !== "higher-amount"),
};

const VAULT_INSTRUCTION: Record<Operation, ReturnType<typeof findIdlInstruction>> = {
  deposit: findIdlInstruction("deposit"),
  initiate: findIdlInstruction("request_withdrawal"),
  claim: findIdlInstruction("claim_withdrawal"),
  cancel: findIdlInstruction("cancel_withdrawal"),
};

const MEMO_PROGRAM_ID = new PublicKey("MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr");

interface Rewrite {
  attack: Attack;
  operation: Operation;
  wallet: PublicKey;
}

interface HostileGateway {
  url: string;
  /** The attack made on the next build responses; null forwards them as they are. */
  rewrite: Rewrite | null;
  close(): Promise<void>;
}

/** The instruction's keys with some replaced (every occurrence), as a forger rewrites accounts. */
function swapKeys(
  instruction: TransactionInstruction,
  swaps: Map<string, PublicKey>,
): TransactionInstruction {
  const keys: AccountMeta[] = instruction.keys.map((meta) => ({
    ...meta,
    pubkey: swaps.get(meta.pubkey.toBase58()) ?? meta.pubkey,
  }));
  return new TransactionInstruction({ programId: instruction.programId, keys, data: instruction.data });
}

function isVaultInstruction(instruction: TransactionInstruction): boolean {
  return instruction.programId.equals(VAULT_PROGRAM_ID);
}

/** The vault instruction with its `index`-th u64 argument rewritten. */
function rewriteVaultU64(
  instructions: TransactionInstruction[],
  operation: Operation,
  index: number,
  rewrite: (value: bigint) => bigint,
): TransactionInstruction[] {
  const offset = VAULT_INSTRUCTION[operation].discriminator.length + 8 * index;
  return instructions.map((instruction) => {
    if (!isVaultInstruction(instruction)) {
      return instruction;
    }
    const data = Buffer.from(instruction.data);
    data.writeBigUInt64LE(rewrite(data.readBigUInt64LE(offset)), offset);
    return new TransactionInstruction({ programId: instruction.programId, keys: instruction.keys, data });
  });
}

/** The honest transaction turned into the attack; the same blockhash, the wallet still the fee payer. */
function forge(base64: string, rewrite: Rewrite): string {
  const honest = VersionedTransaction.deserialize(Buffer.from(base64, "base64"));
  const message = TransactionMessage.decompile(honest.message);
  const { wallet, operation } = rewrite;
  const vault = new PublicKey(harness.vaultId);
  const usdc = harness.localnet.addresses.usdcMint;
  let instructions = message.instructions;
  switch (rewrite.attack) {
    case "usdc-to-stranger":
      // What the issue measured: the whole answer is a transfer of the wallet's USDC.
      instructions = [
        ...instructions.filter((instruction) => instruction.programId.equals(ComputeBudgetProgram.programId)),
        buildTransferInstruction(
          findAssociatedTokenAddress(wallet, usdc),
          findAssociatedTokenAddress(stranger, usdc),
          wallet,
          1_000n * USDC,
        ),
      ];
      break;
    case "sol-to-stranger":
      instructions = [
        ...instructions,
        SystemProgram.transfer({ fromPubkey: wallet, toPubkey: stranger, lamports: 1_000_000_000 }),
      ];
      break;
    case "extra-instruction":
      instructions = [
        ...instructions,
        new TransactionInstruction({
          programId: MEMO_PROGRAM_ID,
          keys: [{ pubkey: wallet, isSigner: true, isWritable: false }],
          data: Buffer.from("looks harmless"),
        }),
      ];
      break;
    case "wrong-vault": {
      // A coherent operation on the other demo vault: its PDAs and the wallet's share account there.
      const other = new PublicKey(harness.flexVaultId);
      const swaps = new Map<string, PublicKey>([
        [vault.toBase58(), other],
        [findVaultAuthority(vault).toBase58(), findVaultAuthority(other)],
        [findShareMint(vault).toBase58(), findShareMint(other)],
        [findReserve(vault).toBase58(), findReserve(other)],
        [findEscrow(vault).toBase58(), findEscrow(other)],
        [findReceipt(vault, wallet).toBase58(), findReceipt(other, wallet)],
        [
          findAssociatedTokenAddress(wallet, findShareMint(vault)).toBase58(),
          findAssociatedTokenAddress(wallet, findShareMint(other)),
        ],
      ]);
      instructions = instructions.map((instruction) => swapKeys(instruction, swaps));
      break;
    }
    case "stranger-receives": {
      // The operation's result lands in a stranger's account: the shares minted, the receipt, the
      // claim, the shares a cancel gives back.
      const shares = findShareMint(vault);
      const swaps = new Map<string, PublicKey>(
        operation === "deposit" || operation === "cancel"
          ? [
              [
                findAssociatedTokenAddress(wallet, shares).toBase58(),
                findAssociatedTokenAddress(stranger, shares),
              ],
            ]
          : operation === "initiate"
            ? [[findReceipt(vault, wallet).toBase58(), findReceipt(vault, stranger)]]
            : [
                [findReceipt(vault, wallet).toBase58(), findReceipt(vault, stranger)],
                [
                  findAssociatedTokenAddress(wallet, usdc).toBase58(),
                  findAssociatedTokenAddress(stranger, usdc),
                ],
              ],
      );
      instructions = instructions.map((instruction) =>
        isVaultInstruction(instruction) ? swapKeys(instruction, swaps) : instruction,
      );
      break;
    }
    case "higher-amount":
      instructions = rewriteVaultU64(instructions, operation, 0, (amount) => amount * 2n);
      break;
    // A deposit's second argument, after its amount: the fewest shares it accepts.
    case "guard-removed":
    case "preview-lowered":
      instructions = rewriteVaultU64(instructions, operation, 1, () => 0n);
      break;
    case "guard-below-bound":
      // The honest guard sits exactly at the preview less 50 bps (the builder's DEPOSIT_SLIPPAGE_BPS).
      instructions = rewriteVaultU64(instructions, operation, 1, (guard) => guard - 1n);
      break;
    case "inflated-price":
      instructions = instructions.map((instruction) =>
        instruction.programId.equals(ComputeBudgetProgram.programId) && instruction.data[0] === 3
          ? ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 5_000_000 })
          : instruction,
      );
      break;
  }
  const forged = new TransactionMessage({
    payerKey: message.payerKey,
    recentBlockhash: message.recentBlockhash,
    instructions,
  }).compileToV0Message();
  return Buffer.from(new VersionedTransaction(forged).serialize()).toString("base64");
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) {
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Forwards every request to the API; rewrites the transaction of a successful build response. */
async function startHostileGateway(upstream: string): Promise<HostileGateway> {
  const state: { rewrite: Rewrite | null } = { rewrite: null };
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    void (async () => {
      const body = await readBody(request);
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers)) {
        if (typeof value === "string" && name !== "host" && name !== "content-length") {
          headers.set(name, value);
        }
      }
      const answer = await fetch(`${upstream}${request.url ?? "/"}`, {
        method: request.method,
        headers,
        body: request.method === "GET" || request.method === "HEAD" ? undefined : body.toString("utf8"),
      });
      let text = await answer.text();
      const isBuild =
        /\/api\/vault\/[^/]+\/(deposit|withdraw)$/.test(request.url ?? "") && request.method !== "GET";
      if (isBuild && state.rewrite !== null && answer.ok) {
        const envelope = JSON.parse(text) as {
          data: { transaction: string; details?: { estimatedSharesReceived?: { amount: string } } };
        };
        envelope.data.transaction = forge(envelope.data.transaction, state.rewrite);
        const estimate = envelope.data.details?.estimatedSharesReceived;
        if (state.rewrite.attack === "preview-lowered" && estimate !== undefined) {
          estimate.amount = "0";
        }
        text = JSON.stringify(envelope);
      }
      response.writeHead(answer.status, {
        "Content-Type": answer.headers.get("Content-Type") ?? "text/plain",
      });
      response.end(text);
    })().catch((error: unknown) => {
      response.writeHead(502);
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get rewrite() {
      return state.rewrite;
    },
    set rewrite(value) {
      state.rewrite = value;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A signer that counts how often it was asked. */
function countingSigner(wallet: Keypair): TransactionSigner & { calls: number } {
  const signer = {
    calls: 0,
    publicKey: wallet.publicKey,
    async signTransaction(transaction: VersionedTransaction) {
      signer.calls += 1;
      transaction.sign([wallet]);
      return transaction;
    },
  };
  return signer;
}

async function balancesOf(wallet: PublicKey) {
  const [lamports, usdc, shares] = await Promise.all([
    harness.connection.getBalance(wallet, "confirmed"),
    harness.connection
      .getTokenAccountBalance(
        findAssociatedTokenAddress(wallet, harness.localnet.addresses.usdcMint),
        "confirmed",
      )
      .then((balance) => balance.value.amount)
      .catch(() => "0"),
    harness.connection
      .getTokenAccountBalance(
        findAssociatedTokenAddress(wallet, findShareMint(new PublicKey(harness.vaultId))),
        "confirmed",
      )
      .then((balance) => balance.value.amount)
      .catch(() => "0"),
  ]);
  return { lamports, usdc, shares };
}

function clientFor() {
  return createVaultClient({
    baseUrl: gateway.url,
    apiKey,
    vaultId: harness.vaultId,
    rpc: harness.connection,
  });
}

/** The pages' flow as the vault page runs it (components/vault/vault-transactions.tsx), built through the gateway. */
function pagesFlow(wallet: PublicKey, request: OperationRequest, signer: TransactionSigner) {
  const stages: FlowStage[] = [];
  const body =
    request.operation === "deposit"
      ? { wallet: wallet.toBase58(), amount: "raw" in request.amount ? request.amount.raw.toString() : "0" }
      : request.operation === "initiate"
        ? { wallet: wallet.toBase58(), sharesAmount: request.shares.toString() }
        : request.operation === "cancel"
          ? { wallet: wallet.toBase58(), action: "cancel" }
          : { wallet: wallet.toBase58() };
  const path = request.operation === "deposit" ? "deposit" : "withdraw";
  const call = async (url: string, payload: unknown) => {
    const response = await fetch(url, {
      method: "POST",
      headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json" },
      body: JSON.stringify(payload),
    });
    const envelope = (await response.json()) as {
      success: boolean;
      data: { transaction: string; lastValidBlockHeight: number };
    };
    if (!envelope.success) {
      throw new Error(`build refused: ${JSON.stringify(envelope)}`);
    }
    return envelope.data;
  };
  return runVaultTransaction(
    {
      connection: harness.connection,
      verify: transactionCheck(
        harness.connection,
        { vault: harness.vaultId, wallet: wallet.toBase58() },
        request,
      ),
      signTransaction: (transaction) => signer.signTransaction(transaction),
      events: { stage: (stage) => stages.push(stage), rebuilt: () => undefined },
    },
    () => call(`${gateway.url}/api/vault/${harness.vaultId}/${path}`, body),
    (signature) =>
      call(`${gateway.url}/api/history`, { wallet: wallet.toBase58(), vault_id: harness.vaultId, signature }),
  );
}

beforeAll(async () => {
  harness = await startApiHarness({
    localnet: { keeper: { enabled: true, navIntervalSeconds: 2, stageIntervalSeconds: 1 } },
  });
  gateway = await startHostileGateway(harness.url);
  apiKey = (await harness.createKey({ scope: "write" })).secret;
  // The stranger's USDC account exists, so a transfer to it would succeed if signed.
  harness.localnet.faucet.dispenseUsdc(stranger, 1n);
}, 180_000);

afterAll(async () => {
  await gateway?.close();
  await harness?.close();
});

/** Each attack on `operation`, through the client and the pages' flow: refused, unsigned, nothing moved. */
async function expectEveryAttackRefused(
  operation: Operation,
  wallet: Keypair,
  clientCall: (signer: TransactionSigner) => Promise<unknown>,
  request: OperationRequest,
): Promise<void> {
  const before = await balancesOf(wallet.publicKey);
  for (const attack of ATTACKS_OF[operation]) {
    gateway.rewrite = { attack, operation, wallet: wallet.publicKey };
    for (const [who, run] of [
      ["client", clientCall],
      ["pages", (signer: TransactionSigner) => pagesFlow(wallet.publicKey, request, signer)],
    ] as const) {
      const signer = countingSigner(wallet);
      const error = await run(signer).catch((thrown: unknown) => thrown);
      expect(error, `${who}: ${operation} ${attack}`).toBeInstanceOf(TransactionCheckError);
      expect((error as TransactionCheckError).code, `${who}: ${operation} ${attack}`).toBe(REFUSALS[attack]);
      expect(signer.calls, `${who}: ${operation} ${attack} asked the signer`).toBe(0);
    }
  }
  gateway.rewrite = null;
  expect(await balancesOf(wallet.publicKey)).toEqual(before);
}

describe("a lying gateway", () => {
  it("is refused before signing on every operation, and the honest path goes through", async () => {
    const client = clientFor();
    const wallet = await harness.fundedWallet(1_000n * USDC);
    const owner = wallet.publicKey.toBase58();
    const amount = 250n * USDC;

    await expectEveryAttackRefused(
      "deposit",
      wallet,
      (signer) => client.deposit({ wallet: owner, amount: amount.toString() }, signer),
      { operation: "deposit", amount: { raw: amount } },
    );
    const signer = countingSigner(wallet);
    const deposit = await client.deposit({ wallet: owner, amount: amount.toString() }, signer);
    expect(signer.calls).toBe(1);
    expect(deposit.recorded.activity.kind).toBe("deposit");
    const shares = BigInt(deposit.recorded.activity.shares.amount);
    expect(deposit.preview.changes).toMatchObject({ asset: -amount, shares });
    expect(deposit.preview.changes.lamports).toBeLessThan(0n);
    expect(-deposit.preview.changes.lamports).toBeLessThanOrEqual(deposit.preview.verified.maxLamportsSpent);
    // What the build said it would do (derived, not simulated), as the client's own simulation found it.
    expect(deposit.prepared.expectedBalanceChanges).toMatchObject({
      asset: { amount: (-amount).toString() },
      sol: { lamports: deposit.preview.changes.lamports.toString() },
    });

    const requested = shares / 2n;
    await expectEveryAttackRefused(
      "initiate",
      wallet,
      (attacked) => client.withdraw({ wallet: owner, sharesAmount: requested.toString() }, attacked),
      { operation: "initiate", shares: requested },
    );
    // The honest request through the pages' flow this time.
    const initiate = await pagesFlow(wallet.publicKey, { operation: "initiate", shares: requested }, signer);
    expect(signer.calls).toBe(2);
    expect(initiate.preview.changes).toMatchObject({ asset: 0n, shares: -requested });

    await waitFor(
      async () => ((await client.withdrawalStatus(owner)).canClaimNow ? true : undefined),
      30_000,
    );
    await expectEveryAttackRefused("claim", wallet, (attacked) => client.claim({ wallet: owner }, attacked), {
      operation: "claim",
    });
    const claim = await client.claim({ wallet: owner }, signer);
    expect(signer.calls).toBe(3);
    expect(claim.recorded.activity.kind).toBe("claim");
    expect(claim.preview.changes.asset).toBeGreaterThan(0n);
    expect(claim.preview.changes.shares).toBe(0n);
  }, 180_000);

  // The cancel of a pending request: each attack refused before signing (the shares returned to a
  // stranger's account among them), then the honest cancel returns the escrowed shares.
  it("is refused before signing on a cancel, and the honest cancel returns the shares", async () => {
    const client = clientFor();
    const wallet = await harness.fundedWallet(1_000n * USDC);
    const owner = wallet.publicKey.toBase58();
    const signer = countingSigner(wallet);
    const deposit = await client.deposit({ wallet: owner, amount: (100n * USDC).toString() }, signer);
    const shares = BigInt(deposit.recorded.activity.shares.amount);
    await client.withdraw({ wallet: owner, sharesAmount: shares.toString() }, signer);
    expect(signer.calls).toBe(2);
    const escrowed = await balancesOf(wallet.publicKey);
    expect(escrowed.shares).toBe("0");

    await expectEveryAttackRefused(
      "cancel",
      wallet,
      (attacked) => client.cancelWithdrawal({ wallet: owner }, attacked),
      { operation: "cancel" },
    );
    const cancel = await client.cancelWithdrawal({ wallet: owner }, signer);
    expect(signer.calls).toBe(3);
    // Back: the shares less the prime vault's 10 bps exit fee, rounded up and burned.
    const back = shares - (shares * 10n + 9_999n) / 10_000n;
    expect(cancel.recorded.activity).toMatchObject({ kind: "cancel", shares: { amount: back.toString() } });
    expect(cancel.preview.changes).toMatchObject({ asset: 0n, shares: back });
    expect(cancel.prepared.expectedBalanceChanges).toMatchObject({
      asset: { amount: "0" },
      shares: { amount: back.toString() },
    });
    expect((await balancesOf(wallet.publicKey)).shares).toBe(back.toString());
    expect(await client.withdrawalStatus(owner)).toMatchObject({
      hasPendingWithdrawal: false,
      pendingShares: "0",
    });
  }, 180_000);

  it("refuses a deposit's guard below the preview less 50 bps, with its numbers; the honest one sits at it", async () => {
    const client = clientFor();
    const wallet = await harness.fundedWallet(100n * USDC);
    const owner = wallet.publicKey.toBase58();
    const signer = countingSigner(wallet);
    const before = await balancesOf(wallet.publicKey);
    try {
      for (const attack of ["guard-removed", "guard-below-bound"] as const) {
        gateway.rewrite = { attack, operation: "deposit", wallet: wallet.publicKey };
        const error = await client
          .deposit({ wallet: owner, amount: (40n * USDC).toString() }, signer)
          .catch((thrown: unknown) => thrown);
        expect(error, attack).toBeInstanceOf(TransactionCheckError);
        const { code, context } = error as TransactionCheckError;
        expect(code, attack).toBe("MIN_SHARES_OUT_TOO_LOW");
        // 40 USDC shows about 40,000 shares less the NAV's growth; the bound is that less 50 bps.
        const estimated = BigInt(String(context.estimated));
        const bound = (estimated * 9_950n) / 10_000n;
        expect(estimated).toBeGreaterThan(39_000_000_000n);
        expect(context, attack).toMatchObject({
          expected: bound.toString(),
          found: attack === "guard-removed" ? "0" : (bound - 1n).toString(),
          maxSlippageBps: 50,
        });
      }
    } finally {
      gateway.rewrite = null;
    }
    expect(signer.calls).toBe(0);
    expect(await balancesOf(wallet.publicKey)).toEqual(before);

    const honest = await client.deposit({ wallet: owner, amount: (40n * USDC).toString() }, signer);
    expect(signer.calls).toBe(1);
    const estimated = BigInt(honest.prepared.details.estimatedSharesReceived.amount);
    expect(honest.preview.verified).toMatchObject({ estimatedShares: estimated, maxSlippageBps: 50 });
    // The builder's guard is its own estimate less DEPOSIT_SLIPPAGE_BPS (50): exactly the client's bound.
    expect(honest.preview.verified.args.min_shares_out).toBe(((estimated * 9_950n) / 10_000n).toString());
  }, 90_000);

  it("refuses a compute-unit price above the cap the caller set, and takes one at the cap", async () => {
    const wallet = await harness.fundedWallet(100n * USDC);
    const owner = wallet.publicKey.toBase58();
    gateway.rewrite = { attack: "inflated-price", operation: "deposit", wallet: wallet.publicKey };
    const generous = createVaultClient({
      baseUrl: gateway.url,
      apiKey,
      vaultId: harness.vaultId,
      rpc: harness.connection,
      maxComputeUnitPriceMicroLamports: 5_000_000,
    });
    const signer = countingSigner(wallet);
    try {
      const deposit = await generous.deposit({ wallet: owner, uiAmount: 10 }, signer);
      expect(deposit.preview.verified.computeUnitPriceMicroLamports).toBe(5_000_000);
      expect(signer.calls).toBe(1);
      const strict = createVaultClient({
        baseUrl: gateway.url,
        apiKey,
        vaultId: harness.vaultId,
        rpc: harness.connection,
        maxComputeUnitPriceMicroLamports: 4_999_999,
      });
      const error = await strict
        .deposit({ wallet: owner, uiAmount: 10 }, signer)
        .catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(TransactionCheckError);
      expect(error).toMatchObject({
        code: "COMPUTE_PRICE_TOO_HIGH",
        context: { expected: 4_999_999, found: 5_000_000 },
      });
      expect(signer.calls).toBe(1);
    } finally {
      gateway.rewrite = null;
    }
  }, 90_000);
});

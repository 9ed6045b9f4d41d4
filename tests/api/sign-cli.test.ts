// npm run sign: the curl walkthrough's last step. A build answer piped in is checked against the flags
// with the typed client's own check, simulated, signed with the keypair file and confirmed; an answer
// that is not what the flags ask for (or a deposit whose guard is below its own preview less 50 bps) is
// refused before anything is signed.
import { mkdtempSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import type { Keypair } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { findAssociatedTokenAddress } from "../../lib/chain/spl-token";
import { runSignCli } from "../../lib/operator/sign-cli";
import { TransactionCheckError } from "../../lib/vault/operations/transaction-check-error";
import { USDC, startApiHarness, type ApiHarness, type HttpResult } from "./harness";

let harness: ApiHarness;
let key: string;

beforeAll(async () => {
  harness = await startApiHarness();
  key = (await harness.createKey({ scope: "write" })).secret;
}, 180_000);

afterAll(async () => {
  await harness?.close();
});

function keypairFile(wallet: Keypair): string {
  const path = join(mkdtempSync(join(process.cwd(), "node_modules", ".cache-sign-")), "wallet.json");
  writeFileSync(path, JSON.stringify(Array.from(wallet.secretKey)));
  return path;
}

async function buildDeposit(wallet: Keypair, amount: string): Promise<HttpResult> {
  return harness.request("POST", `/api/vault/${harness.vaultId}/deposit`, {
    key,
    body: { wallet: wallet.publicKey.toBase58(), amount },
  });
}

async function sign(wallet: Keypair, answer: HttpResult, flags: string[]): Promise<string[]> {
  const lines: string[] = [];
  await runSignCli(
    [
      "--keypair",
      keypairFile(wallet),
      "--vault",
      harness.vaultId,
      "--url",
      harness.localnet.rpcUrl,
      ...flags,
    ],
    async () => answer.text,
    (line) => lines.push(line),
    {},
  );
  return lines;
}

describe("npm run sign", () => {
  it("checks, simulates, signs and confirms a deposit built by the API, printing its signature", async () => {
    const wallet = await harness.fundedWallet(500n * USDC);
    const answer = await buildDeposit(wallet, "250000000");
    expect(answer.status, answer.text).toBe(200);
    const lines = await sign(wallet, answer, ["--deposit", "250"]);
    expect(lines).toContain("signing…");
    expect(lines.find((line) => line.startsWith("checked;"))).toMatch(
      /: asset -250\.00, shares \+250\.00, SOL -0\.00\d+$/,
    );
    const signature = lines.find((line) => line.startsWith("confirmed: "))?.slice("confirmed: ".length) ?? "";
    expect(signature).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/);
    const status = await harness.connection.getSignatureStatus(signature);
    expect(status.value?.err).toBeNull();
    const recorded = await harness.request("POST", "/api/history", {
      key,
      body: { wallet: wallet.publicKey.toBase58(), vault_id: harness.vaultId, signature },
    });
    expect(recorded.status, recorded.text).toBe(200);
  });

  it("signs a deposit with a partner fee only up to --max-partner-fee-bps, and says the fee", async () => {
    const partner = (await harness.fundedWallet(0n)).publicKey;
    const partnerKey = (
      await harness.createKey({ scope: "write", partner: { wallet: partner.toBase58(), feeBps: 25 } })
    ).secret;
    const wallet = await harness.fundedWallet(500n * USDC);
    const build = () =>
      harness.request("POST", `/api/vault/${harness.vaultId}/deposit`, {
        key: partnerKey,
        body: { wallet: wallet.publicKey.toBase58(), amount: "100000000" },
      });
    // Without the flag a partner fee is refused, and so is one above it.
    await expect(sign(wallet, await build(), ["--deposit", "100"])).rejects.toMatchObject({
      code: "PARTNER_FEE_TOO_HIGH",
    });
    await expect(
      sign(wallet, await build(), ["--deposit", "100", "--max-partner-fee-bps", "24"]),
    ).rejects.toMatchObject({ code: "PARTNER_FEE_TOO_HIGH", context: { expected: 24, found: "25" } });
    const lines = await sign(wallet, await build(), ["--deposit", "100", "--max-partner-fee-bps", "25"]);
    // The wallet pays the whole 100 (the fee included) and gets shares for 99.75.
    expect(lines.find((line) => line.startsWith("checked;"))).toMatch(
      new RegExp(
        `: asset -100\\.00, shares \\+99\\.\\d+, SOL -0\\.00\\d+, of it a partner fee of 25 bps to ${partner.toBase58()}$`,
      ),
    );
    const balance = await harness.connection.getTokenAccountBalance(
      findAssociatedTokenAddress(partner, harness.localnet.addresses.usdcMint),
    );
    expect(balance.value.amount).toBe("250000");
  });

  it("refuses an answer that is not what the flags ask for, before signing", async () => {
    const wallet = await harness.fundedWallet(500n * USDC);
    const answer = await buildDeposit(wallet, "250000000");
    const usdcAccount = findAssociatedTokenAddress(wallet.publicKey, harness.localnet.addresses.usdcMint);
    const before = await harness.connection.getTokenAccountBalance(usdcAccount);
    // Built for 250, asked to sign 100: the amount does not match.
    const refused = sign(wallet, answer, ["--deposit", "100"]);
    await expect(refused).rejects.toBeInstanceOf(TransactionCheckError);
    await expect(refused).rejects.toMatchObject({ code: "WRONG_AMOUNT" });
    // The guard held to the answer's own preview: a preview 1% above what the guard allows (the guard
    // sits 50 bps below the estimate), or none at all, is refused.
    const envelope = answer.body as { data: { details: { estimatedSharesReceived: { amount: string } } } };
    const shown = BigInt(envelope.data.details.estimatedSharesReceived.amount);
    const withPreview = (details: unknown): HttpResult => {
      const text = JSON.stringify({ ...envelope, data: { ...envelope.data, details } });
      return { ...answer, text };
    };
    const raised = withPreview({ estimatedSharesReceived: { amount: ((shown * 101n) / 100n).toString() } });
    await expect(sign(wallet, raised, ["--deposit", "250"])).rejects.toMatchObject({
      code: "MIN_SHARES_OUT_TOO_LOW",
      context: { found: ((shown * 9_950n) / 10_000n).toString() },
    });
    await expect(sign(wallet, withPreview(undefined), ["--deposit", "250"])).rejects.toMatchObject({
      code: "MISSING_SHARE_ESTIMATE",
    });
    const after = await harness.connection.getTokenAccountBalance(usdcAccount);
    expect(after.value.amount).toBe(before.value.amount);
  });

  it("signs a cancel only as --cancel: the same answer signed as a claim is refused, unsigned", async () => {
    const wallet = await harness.fundedWallet(500n * USDC);
    const owner = wallet.publicKey.toBase58();
    await sign(wallet, await buildDeposit(wallet, "100000000"), ["--deposit", "100"]);
    const withdrawPath = `/api/vault/${harness.vaultId}/withdraw`;
    const requested = await harness.request("POST", withdrawPath, {
      key,
      body: { wallet: owner, sharesAmount: "40000000000" },
    });
    await sign(wallet, requested, ["--withdraw", "40000000000"]);
    const answer = await harness.request("POST", withdrawPath, {
      key,
      body: { wallet: owner, action: "cancel" },
    });
    expect(answer.status, answer.text).toBe(200);
    // A claim would open the wallet's asset account, not its share account: refused at that instruction.
    const asClaim = sign(wallet, answer, ["--claim"]);
    await expect(asClaim).rejects.toBeInstanceOf(TransactionCheckError);
    await expect(asClaim).rejects.toMatchObject({ code: "WRONG_ACCOUNT", context: { account: "account" } });
    const lines = await sign(wallet, answer, ["--cancel"]);
    // 40 vUSDC back less the prime vault's 10 bps exit fee (0.04 vUSDC, burned).
    expect(lines.find((line) => line.startsWith("checked;"))).toMatch(/: asset 0\.00, shares \+39\.96, SOL /);
    const status = await harness.request("GET", `${withdrawPath}?wallet=${owner}`, { key });
    expect((status.body as { data: { hasPendingWithdrawal: boolean } }).data.hasPendingWithdrawal).toBe(
      false,
    );
  });

  it("says what is wrong with its input", async () => {
    const wallet = await harness.fundedWallet(0n);
    const empty = { status: 200, headers: new Headers(), body: null, text: "not json" } satisfies HttpResult;
    await expect(sign(wallet, empty, ["--deposit", "1"])).rejects.toThrow(/standard input is not JSON/);
    await expect(sign(wallet, empty, ["--deposit", "1", "--claim"])).rejects.toThrow(/exactly one of/);
    await expect(sign(wallet, empty, ["--claim", "--cancel"])).rejects.toThrow(/exactly one of/);
    await expect(sign(wallet, empty, ["--deposit", "1,5"])).rejects.toThrow(/positive amount/);
  });
});

// Issue 28's held exit, taken the way a holder would: the manager strikes a NAV every day and never
// stages (its keeper acts only when the test calls it), so a holder's request waits; `npm run vault -- stage` says when the hatch opens and sends
// nothing before it; once the request has waited the silence period (the chain's clock moved by the
// test), the holder stages it with its own key and claims through the API, paid in full.
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import type { Keypair } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { findAssociatedTokenAddress, tokenAccountAmount } from "../../lib/chain/spl-token";
import { writeKeypairFile } from "../../lib/operator/keypair-file";
import { runVaultCli } from "../../lib/operator/vault-cli";
import { DEFAULT_SILENCE_SECONDS } from "../../lib/vault/model/manager-silence";
import { decodeReceiptState, decodeVaultState } from "../../lib/vault/program/accounts";
import { findReceipt } from "../../lib/vault/program/addresses";
import { USDC, dataOf, startApiHarness, type ApiHarness } from "../api/harness";

let harness: ApiHarness;
let key: string;
let holder: Keypair;
let holderFile: string;
const lines: string[] = [];
const out = (line: string): void => {
  lines.push(line);
};

async function assetBalance(): Promise<bigint> {
  const vault = decodeVaultState(
    (await harness.connection.getAccountInfo(vaultAddress()))?.data ?? new Uint8Array(),
  );
  const account = await harness.connection.getAccountInfo(
    findAssociatedTokenAddress(holder.publicKey, vault.assetMint),
  );
  return account === null ? 0n : (tokenAccountAmount(account.owner, account.data) ?? 0n);
}

function vaultAddress() {
  const vault = harness.localnet.addresses.vaults.find(
    (entry) => entry.vault.toBase58() === harness.flexVaultId,
  );
  if (vault === undefined) throw new Error("no flex vault");
  return vault.vault;
}

async function build(body: Record<string, unknown>): Promise<string> {
  const data = dataOf(
    await harness.request("POST", `/api/vault/${harness.flexVaultId}/withdraw`, {
      key,
      body: { wallet: holder.publicKey.toBase58(), ...body },
    }),
  );
  return harness.signAndSend(String(data.transaction), holder);
}

beforeAll(async () => {
  harness = await startApiHarness({ localnet: { keeper: { enabled: true, scheduled: false } } });
  key = (await harness.createKey({ scope: "write" })).secret;
  holder = await harness.fundedWallet(1_000n * USDC);
  holderFile = join(await mkdtemp(join(tmpdir(), "hatch-")), "holder.json");
  await writeKeypairFile(holderFile, holder);
}, 180_000);

afterAll(async () => {
  await harness?.close();
});

describe("a holder whose manager never stages", () => {
  it("stages its own request once it waited the silence period, then claims it in full", async () => {
    const deposit = dataOf(
      await harness.request("POST", `/api/vault/${harness.flexVaultId}/deposit`, {
        key,
        body: { wallet: holder.publicKey.toBase58(), amount: (1_000n * USDC).toString() },
      }),
    );
    await harness.signAndSend(String(deposit.transaction), holder);
    const vault = decodeVaultState(
      (await harness.connection.getAccountInfo(vaultAddress()))?.data ?? new Uint8Array(),
    );
    const shares = await (async () => {
      const account = await harness.connection.getAccountInfo(
        findAssociatedTokenAddress(holder.publicKey, vault.shareMint),
      );
      return account === null ? 0n : (tokenAccountAmount(account.owner, account.data) ?? 0n);
    })();
    await build({ action: "initiate", sharesAmount: shares.toString() });
    const before = await assetBalance();
    const url = ["--url", harness.localnet.rpcUrl, "--keypair", holderFile];

    // The manager strikes every day and never stages: for six days the hatch stays shut, and the
    // command says until when.
    const keeper = harness.localnet.keeper;
    if (keeper === null) throw new Error("the keeper is not running");
    const days = DEFAULT_SILENCE_SECONDS / 86_400;
    for (let day = 1; day < days; day += 1) {
      harness.localnet.chain.advanceClock(86_400);
      expect(await keeper.strikeNav(vaultAddress())).not.toBeNull();
      await expect(runVaultCli(["stage", vaultAddress().toBase58(), ...url, "--yes"], out)).rejects.toThrow(
        /has waited \d+ s unfunded; anyone may stage it from \d{4}-\d\d-\d\dT/,
      );
    }
    // The claim is refused: nothing is funded.
    const early = await harness.request("POST", `/api/vault/${harness.flexVaultId}/withdraw`, {
      key,
      body: { wallet: holder.publicKey.toBase58(), action: "claim" },
    });
    expect(early.status).toBe(409);

    // Past the silence period after the request (the manager struck on every one of its days), the
    // holder stages with its own key.
    harness.localnet.chain.advanceClock(86_400);
    expect(await keeper.strikeNav(vaultAddress())).not.toBeNull();
    lines.length = 0;
    await runVaultCli(["stage", vaultAddress().toBase58(), ...url, "--yes"], out);
    expect(lines.some((line) => /signature/i.test(line) || /sent/i.test(line))).toBe(true);
    const receipt = decodeReceiptState(
      (await harness.connection.getAccountInfo(findReceipt(vaultAddress(), holder.publicKey)))?.data ??
        new Uint8Array(),
    );
    const staged = decodeVaultState(
      (await harness.connection.getAccountInfo(vaultAddress()))?.data ?? new Uint8Array(),
    );
    expect(staged.queueFunded).toBeGreaterThanOrEqual(receipt.queueEnd);

    await build({ action: "claim" });
    const paid = (await assetBalance()) - before;
    console.log(
      `hatch: ${shares} shares requested, staged by the holder on day ${days}, claim paid ${paid} raw`,
    );
    // The flex vault charges no fee: the holder gets its 1,000 USDC back at the NAV struck since (a
    // week of the keeper's yield on top, at most a raw unit of rounding below).
    expect(paid).toBeGreaterThanOrEqual(1_000n * USDC - 1n);
    expect(paid).toBeLessThan(1_010n * USDC);
  }, 300_000);
});

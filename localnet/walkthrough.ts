// The demo flow against a running localnet, with @solana/web3.js only: airdrop SOL, take USDC from
// the faucet, deposit into the default vault, request a withdrawal, wait for the keeper to make it
// claimable, and see it delivered (the local keeper claims for the owner) or, with deliveries off
// (`--keeper-deliver 0`), claim it. Run `npm run localnet`, then `npx tsx localnet/walkthrough.ts`
// (`--addresses-file <path>` if the localnet writes its addresses elsewhere).
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";

import {
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  Transaction,
  type TransactionInstruction,
} from "@solana/web3.js";
import { z } from "zod";

import { parseCommandLineOrExit } from "../lib/cli/args";
import { decodeReceiptState, decodeVaultState } from "../lib/vault/program/accounts";
import { findReceipt } from "../lib/vault/program/addresses";
import {
  buildClaimWithdrawalInstruction,
  buildDepositInstruction,
  buildRequestWithdrawalInstruction,
} from "../lib/vault/program/instructions";
import { connectionRpc, sendAndConfirm } from "../lib/vault/send/send-transaction";
import { REPO_ROOT } from "./config";
import {
  buildCreateAssociatedTokenAccountIdempotentInstruction,
  findAssociatedTokenAddress,
} from "../lib/chain/spl-token";

const addressesSchema = z.object({
  rpcUrl: z.string(),
  wsUrl: z.string(),
  faucetUrl: z.string(),
  asset: z.object({ mint: z.string() }),
  vaults: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      authority: z.string(),
      shareMint: z.string(),
      reserve: z.string(),
      escrow: z.string(),
    }),
  ),
  defaultVaultId: z.string().nullable(),
});

const DEPOSIT = 1_000_000_000n;
/** 400 shares: the share mint has the asset's 6 decimals plus the program's offset of 3. */
const WITHDRAW_SHARES = 400_000_000_000n;

function step(text: string): void {
  console.log(`${new Date().toISOString().slice(11, 19)}  ${text}`);
}

async function main(): Promise<void> {
  const { values } = parseCommandLineOrExit(
    "walkthrough",
    "Usage: npx tsx localnet/walkthrough.ts [--addresses-file <path>]",
    process.argv.slice(2),
    { "addresses-file": { type: "string" } },
  );
  const path = resolve(values["addresses-file"] ?? resolve(REPO_ROOT, "localnet/.state/addresses.json"));
  const addresses = addressesSchema.parse(JSON.parse(await readFile(path, "utf8")));
  const vaultEntry = addresses.vaults.find((vault) => vault.id === addresses.defaultVaultId);
  if (vaultEntry === undefined) {
    throw new Error("The localnet has no demo vault (is programs/vault/vault.so built?)");
  }
  const vault = {
    vault: new PublicKey(vaultEntry.id),
    authority: new PublicKey(vaultEntry.authority),
    shareMint: new PublicKey(vaultEntry.shareMint),
    reserve: new PublicKey(vaultEntry.reserve),
    escrow: new PublicKey(vaultEntry.escrow),
  };
  const mint = new PublicKey(addresses.asset.mint);
  const connection = new Connection(addresses.rpcUrl, {
    commitment: "confirmed",
    wsEndpoint: addresses.wsUrl,
  });
  const wallet = Keypair.generate();
  const usdc = findAssociatedTokenAddress(wallet.publicKey, mint);
  const shares = findAssociatedTokenAddress(wallet.publicKey, vault.shareMint);
  const receipt = findReceipt(vault.vault, wallet.publicKey);

  const send = async (label: string, instructions: TransactionInstruction[]): Promise<void> => {
    const latest = await connection.getLatestBlockhash();
    const transaction = new Transaction({
      feePayer: wallet.publicKey,
      recentBlockhash: latest.blockhash,
    }).add(...instructions);
    transaction.sign(wallet);
    const result = await sendAndConfirm(
      connectionRpc(connection),
      transaction.serialize(),
      latest.lastValidBlockHeight,
      { programs: instructions.map((instruction) => instruction.programId.toBase58()) },
    );
    if (result.status !== "confirmed") {
      throw new Error(
        `${label} ${result.status === "expired" ? "expired before it landed" : `failed: ${result.failure.description}`}`,
      );
    }
    step(`${label}: ${result.signature}`);
  };

  step(`wallet ${wallet.publicKey.toBase58()}, vault ${vaultEntry.name} (${vaultEntry.id})`);
  const airdrop = await connection.requestAirdrop(wallet.publicKey, 2 * LAMPORTS_PER_SOL);
  await connection.confirmTransaction({ signature: airdrop, ...(await connection.getLatestBlockhash()) });
  step(`airdropped 2 SOL: ${airdrop}`);

  const faucet = await fetch(addresses.faucetUrl, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ wallet: wallet.publicKey.toBase58(), amount: DEPOSIT.toString() }),
  });
  if (!faucet.ok) {
    throw new Error(`The faucet refused: ${faucet.status} ${await faucet.text()}`);
  }
  step(`faucet gave 1,000 USDC: ${JSON.stringify(await faucet.json())}`);
  for (;;) {
    if ((await connection.getAccountInfo(usdc)) !== null) {
      break;
    }
    await new Promise((done) => setTimeout(done, 200));
  }

  await send("deposited 1,000 USDC", [
    buildCreateAssociatedTokenAccountIdempotentInstruction(
      wallet.publicKey,
      wallet.publicKey,
      vault.shareMint,
    ),
    buildDepositInstruction(
      {
        depositor: wallet.publicKey,
        vault: vault.vault,
        authority: vault.authority,
        shareMint: vault.shareMint,
        reserve: vault.reserve,
        depositorAsset: usdc,
        depositorShares: shares,
      },
      { amount: DEPOSIT, minSharesOut: 0n },
    ),
  ]);
  // The request accepts the fee the vault charges now, and no higher one.
  const { feeBps } = decodeVaultState(
    (await connection.getAccountInfo(vault.vault))?.data ?? new Uint8Array(),
  );
  await send("requested a withdrawal of 400 shares", [
    buildRequestWithdrawalInstruction(
      { owner: wallet.publicKey, vault: vault.vault, receipt, ownerShares: shares, escrow: vault.escrow },
      { shares: WITHDRAW_SHARES, maxFeeBps: feeBps },
    ),
  ]);

  const request = decodeReceiptState((await connection.getAccountInfo(receipt))?.data ?? new Uint8Array());
  const before = BigInt((await connection.getTokenAccountBalance(usdc)).value.amount);
  const received = async (): Promise<bigint> =>
    BigInt((await connection.getTokenAccountBalance(usdc)).value.amount) - before;
  // The keeper's claim closes the receipt and pays the wallet, which signs nothing.
  const delivered = async (words: string): Promise<boolean> => {
    if ((await connection.getAccountInfo(receipt)) !== null) {
      return false;
    }
    step(`${words}: received ${await received()} raw USDC units for ${WITHDRAW_SHARES} shares`);
    return true;
  };
  const waitingSince = Date.now();
  for (;;) {
    if (
      await delivered(`delivered by the keeper after ${Math.round((Date.now() - waitingSince) / 1000)} s`)
    ) {
      process.exit(0);
    }
    const state = decodeVaultState((await connection.getAccountInfo(vault.vault))?.data ?? new Uint8Array());
    const navPassed = state.navSequence > request.navFloor;
    const funded = state.queueFunded >= request.queueEnd;
    if (navPassed && funded) {
      step(`claimable after ${Math.round((Date.now() - waitingSince) / 1000)} s (NAV #${state.navSequence})`);
      break;
    }
    await new Promise((done) => setTimeout(done, 1_000));
  }

  try {
    await send("claimed", [
      buildClaimWithdrawalInstruction({
        owner: wallet.publicKey,
        vault: vault.vault,
        authority: vault.authority,
        receipt,
        shareMint: vault.shareMint,
        escrow: vault.escrow,
        reserve: vault.reserve,
        ownerAsset: usdc,
      }),
    ]);
  } catch (error) {
    // The keeper's delivery landed first: the claim found no receipt.
    if (await delivered("delivered by the keeper before the claim")) {
      process.exit(0);
    }
    throw error;
  }
  step(`received ${await received()} raw USDC units for ${WITHDRAW_SHARES} shares`);
  process.exit(0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

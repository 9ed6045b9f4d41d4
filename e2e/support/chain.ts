// Setting up wallets from the test itself, as an operator would: the localnet faucet over HTTP, and
// SOL moved out of a wallet to leave it unable to pay fees; and the keeper's NAV strikes, watched.
import { Connection, Keypair, PublicKey, SystemProgram, Transaction } from "@solana/web3.js";

import { decodeVaultState } from "../../lib/vault/program/accounts";

export const USDC = 1_000_000n;

async function confirmed(connection: Connection, signature: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const { value } = await connection.getSignatureStatuses([signature]);
    const status = value[0];
    if (status?.err !== null && status?.err !== undefined) {
      throw new Error(`Transaction ${signature} failed: ${JSON.stringify(status.err)}`);
    }
    if (status?.confirmationStatus === "confirmed" || status?.confirmationStatus === "finalized") {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`Transaction ${signature} was not confirmed in 30 s`);
}

/** USDC (raw units) and, for a wallet without SOL, 1 SOL from the faucet. */
export async function fundFromFaucet(
  faucetUrl: string,
  rpcUrl: string,
  wallet: string,
  usdc: bigint,
): Promise<void> {
  const response = await fetch(faucetUrl, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ wallet, amount: usdc.toString() }),
  });
  const body = (await response.json()) as { signature?: string; error?: string };
  if (!response.ok || body.signature === undefined) {
    throw new Error(`The faucet refused: ${response.status} ${body.error ?? ""}`);
  }
  await confirmed(new Connection(rpcUrl, "confirmed"), body.signature);
}

/** Moves every lamport but the fee out of the wallet (its token accounts stay). */
export async function drainSol(rpcUrl: string, wallet: Keypair): Promise<void> {
  const connection = new Connection(rpcUrl, "confirmed");
  const lamports = await connection.getBalance(wallet.publicKey);
  const { blockhash } = await connection.getLatestBlockhash();
  const transaction = new Transaction({ feePayer: wallet.publicKey, recentBlockhash: blockhash }).add(
    SystemProgram.transfer({
      fromPubkey: wallet.publicKey,
      toPubkey: Keypair.generate().publicKey,
      lamports: lamports - 5_000,
    }),
  );
  transaction.sign(wallet);
  await confirmed(connection, await connection.sendRawTransaction(transaction.serialize()));
}

/**
 * Pauses the chain as the app's server and the browser reach it (the world's proxy in front of its RPC
 * and WebSocket: open connections cut, new ones taken and never answered), as a stalled node would be;
 * the keeper and the faucet go on behind it. `resumeChain` forwards again.
 */
export async function pauseChain(controlUrl: string): Promise<void> {
  await chainControl(controlUrl, "pause");
}

export async function resumeChain(controlUrl: string): Promise<void> {
  await chainControl(controlUrl, "resume");
}

async function chainControl(controlUrl: string, action: "pause" | "resume"): Promise<void> {
  const response = await fetch(`${controlUrl}/${action}`, { method: "POST" });
  if (response.status !== 204) {
    throw new Error(`The chain's proxy did not ${action}: HTTP ${response.status}`);
  }
}

/**
 * Waits for the keeper's next NAV strike on a vault (its nav_sequence moving on). A withdrawal
 * requested right after it becomes claimable only at the strike after, a whole NAV interval away: the
 * time a test has to act on it as pending (cancel it) before the keeper can deliver it.
 */
export async function nextNavStrike(rpcUrl: string, vault: string, timeoutMs: number): Promise<void> {
  const connection = new Connection(rpcUrl, "confirmed");
  const address = new PublicKey(vault);
  const sequence = async (): Promise<bigint> =>
    decodeVaultState((await connection.getAccountInfo(address))?.data ?? new Uint8Array()).navSequence;
  const before = await sequence();
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if ((await sequence()) > before) {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`No NAV strike on ${vault} within ${timeoutMs} ms`);
}

// A partner's whole flow against the API, as a short TypeScript client: build → deserialize → sign →
// send → confirm → record, for a deposit, a withdrawal request and its claim.
//   API_KEY=vk_… npx tsx examples/partner-client.ts
// API_URL (default http://127.0.0.1:3000), RPC_URL (default http://127.0.0.1:8899) and VAULT_ID
// (default: the localnet's default vault) can be set.
import { readFileSync } from "node:fs";

import { Connection, Keypair, VersionedTransaction } from "@solana/web3.js";

const API_URL = process.env.API_URL ?? "http://127.0.0.1:3000";
const RPC_URL = process.env.RPC_URL ?? "http://127.0.0.1:8899";
const API_KEY = process.env.API_KEY ?? "";
const VAULT_ID =
  process.env.VAULT_ID ??
  (JSON.parse(readFileSync("localnet/.state/addresses.json", "utf8")) as { defaultVaultId: string })
    .defaultVaultId;

type Envelope<T> = { success: true; data: T } | { success: false; error: string; code?: string };

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${API_URL}${path}`, {
    method,
    headers: { Authorization: `Bearer ${API_KEY}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const envelope = (await response.json()) as Envelope<T>;
  if (!envelope.success) {
    throw new Error(`${method} ${path}: ${response.status} ${envelope.code ?? ""} ${envelope.error}`);
  }
  return envelope.data;
}

const connection = new Connection(RPC_URL, "confirmed");
const wallet = Keypair.generate();
const owner = wallet.publicKey.toBase58();

/** Deserialize, sign, send and confirm a built transaction; returns its signature. */
async function signSendConfirm(built: {
  transaction: string;
  lastValidBlockHeight: number;
}): Promise<string> {
  const transaction = VersionedTransaction.deserialize(Buffer.from(built.transaction, "base64"));
  transaction.sign([wallet]);
  const signature = await connection.sendTransaction(transaction);
  const blockhash = transaction.message.recentBlockhash;
  const result = await connection.confirmTransaction(
    { signature, blockhash, lastValidBlockHeight: built.lastValidBlockHeight },
    "confirmed",
  );
  if (result.value.err !== null) {
    throw new Error(`transaction failed: ${JSON.stringify(result.value.err)}`);
  }
  return signature;
}

/** Record a confirmed signature so the activity feed shows it (idempotent). */
async function record(signature: string): Promise<void> {
  const { activity } = await api<{ activity: { kind: string } }>("POST", "/api/history", {
    wallet: owner,
    vault_id: VAULT_ID,
    signature,
  });
  console.log(`recorded ${activity.kind} ${signature}`);
}

interface Built {
  transaction: string;
  lastValidBlockHeight: number;
  message: string;
}

async function main(): Promise<void> {
  // Test SOL and USDC from the localnet's faucet.
  await fetch(`${RPC_URL}/faucet`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ wallet: owner, amount: "500000000" }),
  });

  const deposit = await api<Built>("POST", `/api/vault/${VAULT_ID}/deposit`, {
    wallet: owner,
    uiAmount: 250,
  });
  console.log(deposit.message);
  await record(await signSendConfirm(deposit));

  const initiate = await api<Built & { action: string }>("POST", `/api/vault/${VAULT_ID}/withdraw`, {
    wallet: owner,
    // 100 shares: shares have the asset's decimals plus 3.
    sharesAmount: "100000000000",
  });
  console.log(initiate.message);
  await record(await signSendConfirm(initiate));

  for (;;) {
    const status = await api<{ canClaimNow: boolean; estimate: unknown; progress: unknown }>(
      "GET",
      `/api/vault/${VAULT_ID}/withdraw?wallet=${owner}`,
    );
    console.log("pending:", JSON.stringify({ estimate: status.estimate, progress: status.progress }));
    if (status.canClaimNow) {
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 5_000));
  }

  // No action given: the API sees the claimable withdrawal and builds the claim.
  const claim = await api<Built & { action: string }>("POST", `/api/vault/${VAULT_ID}/withdraw`, {
    wallet: owner,
  });
  console.log(claim.action, claim.message);
  await record(await signSendConfirm(claim));

  const feed = await api<{ activity: { kind: string; assets: { uiAmount: number } }[] }>(
    "GET",
    `/api/history?wallet=${owner}&vault_id=${VAULT_ID}`,
  );
  console.log(feed.activity.map((entry) => `${entry.kind} ${entry.assets.uiAmount}`).join("\n"));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

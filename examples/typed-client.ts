// Deposit, withdraw and claim through the typed client (lib/client), with a fresh wallet on the local chain.
//   API_KEY=vk_… npx tsx examples/typed-client.ts    (API_URL, RPC_URL, VAULT_ID as in partner-client.ts)
import { readFileSync } from "node:fs";

import { Keypair, type VersionedTransaction } from "@solana/web3.js";
import { createVaultClient } from "vault-gateway/client";

const rpc = process.env.RPC_URL ?? "http://127.0.0.1:8899";
const localnet = process.env.LOCALNET_ADDRESSES_FILE ?? "localnet/.state/addresses.json";
const vaultId = process.env.VAULT_ID ?? JSON.parse(readFileSync(localnet, "utf8")).defaultVaultId;
const baseUrl = process.env.API_URL ?? "http://127.0.0.1:3000";
const client = createVaultClient({ baseUrl, apiKey: process.env.API_KEY ?? "", vaultId, rpc });
const keypair = Keypair.generate(); // in production the user's wallet is the signer
const wallet = keypair.publicKey.toBase58();
const sign = async (transaction: VersionedTransaction) => (transaction.sign([keypair]), transaction);
const signer = { publicKey: keypair.publicKey, signTransaction: sign };
const json = { "Content-Type": "application/json" }; // the faucet: test USDC and SOL
await fetch(`${rpc}/faucet`, { method: "POST", headers: json, body: JSON.stringify({ wallet }) });

const deposit = await client.deposit({ wallet, uiAmount: 250 }, signer);
console.log(`deposit  ${deposit.signature}: ${deposit.prepared.message}`);
const sharesAmount = deposit.recorded.activity.shares.amount;
const request = await client.withdraw({ wallet, sharesAmount }, signer);
console.log(`withdraw ${request.signature}: ${request.prepared.message}`);
while (!(await client.withdrawalStatus(wallet)).canClaimNow)
  await new Promise((done) => setTimeout(done, 2_000));
const claim = await client.claim({ wallet }, signer);
console.log(`claim    ${claim.signature}: ${claim.prepared.message}`);

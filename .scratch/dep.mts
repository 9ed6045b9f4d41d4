import { readFileSync } from "node:fs";
import { Keypair, LAMPORTS_PER_SOL } from "@solana/web3.js";
import { startTestLocalnet, connect, fundedWallet } from "/work/wt/ops/localnet/testing";
import { ChainClient } from "/work/wt/ops/lib/operator/chain-client";
import { deployProgram } from "/work/wt/ops/lib/operator/deploy";
const net = await startTestLocalnet();
const conn = connect(net);
const payer = await fundedWallet(conn, 100 * LAMPORTS_PER_SOL);
const program = Keypair.generate();
const client = new ChainClient(net.rpcUrl);
const bytes = new Uint8Array(readFileSync("/work/wt/ops/programs/vault/vault.so"));
try {
const r = await deployProgram({ client, payer, authority: payer, programId: program.publicKey, programKeypair: program, programBytes: bytes, log: console.log });
console.log(r);
const r2 = await deployProgram({ client, payer, authority: payer, programId: program.publicKey, programKeypair: program, programBytes: bytes, log: console.log });
console.log(r2.action);
const acc = await conn.getAccountInfo(program.publicKey); console.log(acc?.executable, acc?.owner.toBase58());
} catch (e) { console.error(e); }
await net.stop(); process.exit(0);

import { readFileSync } from "node:fs";
import { Keypair } from "@solana/web3.js";
import { startTestLocalnet } from "/work/wt/ops/localnet/testing";
import { ChainClient } from "/work/wt/ops/lib/operator/chain-client";
import { deployProgram } from "/work/wt/ops/lib/operator/deploy";
import { readKeypairFile } from "/work/wt/ops/lib/operator/keypair-file";
const net = await startTestLocalnet({ empty: true });
const payer = await readKeypairFile(net.empty!.payerKeypairFile);
const program = Keypair.generate();
const client = new ChainClient(net.rpcUrl);
const bytes = new Uint8Array(readFileSync("/work/wt/ops/programs/vault/vault.so"));
await deployProgram({ client, payer, authority: payer, programId: program.publicKey, programKeypair: program, programBytes: bytes });
const larger = new Uint8Array(bytes.length + 3000); larger.set(bytes);
try { await deployProgram({ client, payer, authority: payer, programId: program.publicKey, programKeypair: program, programBytes: larger, log: console.log }); } catch (e: any) { console.log(e.message, e.logs); }
await net.stop(); process.exit(0);

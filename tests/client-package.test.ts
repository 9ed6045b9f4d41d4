// The typed client as partners get it: packages/client built (scripts/build-client-package.ts), packed
// with npm pack, unpacked alone into an empty project beside only its two dependencies, and run by
// plain Node, no TypeScript loader: from ESM it refuses a lying gateway's transfer of the wallet's USDC
// and of its SOL before the signer is asked, then deposits, requests a withdrawal and claims through
// the real API on the local chain; from CommonJS it refuses the same lies. A consumer's TypeScript
// (nodenext, ESM and CommonJS) compiles against its declarations.
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { buildClientPackage } from "../scripts/build-client-package";
import { USDC, startApiHarness, type ApiHarness } from "./api/harness";

const run = promisify(execFile);
const ROOT = resolve(fileURLToPath(new URL("..", import.meta.url)));

let project: string;
let harness: ApiHarness;

/** The lying gateway and the signer that counts, shared by both module systems' scripts. */
const LIAR = `
const { Keypair, PublicKey, SystemProgram, TransactionInstruction, TransactionMessage, VersionedTransaction, Connection } = web3;
const env = process.env;
const connection = new Connection(env.RPC_URL, { commitment: "confirmed", wsEndpoint: env.WS_URL });
const wallet = Keypair.fromSecretKey(Uint8Array.from(JSON.parse(env.WALLET)));
const stranger = Keypair.generate().publicKey;
const TOKEN = new PublicKey("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA");
const ATA = new PublicKey("ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL");
const ata = (owner, mint) => PublicKey.findProgramAddressSync([owner.toBuffer(), TOKEN.toBuffer(), mint.toBuffer()], ATA)[0];
const signer = { calls: 0, publicKey: wallet.publicKey, async signTransaction(tx) { signer.calls += 1; tx.sign([wallet]); return tx; } };
async function lie(kind) {
  const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash();
  const mint = new PublicKey(env.USDC_MINT);
  const data = Buffer.alloc(9); data[0] = 3; data.writeBigUInt64LE(100000000n, 1);
  const instruction = kind === "usdc"
    ? new TransactionInstruction({ programId: TOKEN, data, keys: [
        { pubkey: ata(wallet.publicKey, mint), isSigner: false, isWritable: true },
        { pubkey: ata(stranger, mint), isSigner: false, isWritable: true },
        { pubkey: wallet.publicKey, isSigner: true, isWritable: false } ] })
    : SystemProgram.transfer({ fromPubkey: wallet.publicKey, toPubkey: stranger, lamports: 1000000000 });
  const message = new TransactionMessage({ payerKey: wallet.publicKey, recentBlockhash: blockhash, instructions: [instruction] }).compileToV0Message();
  return { transaction: Buffer.from(new VersionedTransaction(message).serialize()).toString("base64"), lastValidBlockHeight, message: "Deposit", details: {} };
}
async function refusals(createVaultClient, TransactionCheckError) {
  const out = [];
  for (const kind of ["usdc", "sol"]) {
    const liar = createVaultClient({ baseUrl: "http://liar.invalid", apiKey: "vk_test_x", vaultId: env.VAULT, rpc: connection,
      fetch: async () => new Response(JSON.stringify({ success: true, data: await lie(kind) }), { headers: { "Content-Type": "application/json" } }) });
    const error = await liar.deposit({ wallet: wallet.publicKey.toBase58(), uiAmount: 100 }, signer).catch((thrown) => thrown);
    out.push({ kind, refused: error instanceof TransactionCheckError, code: error && error.code, program: error && error.context && error.context.program });
  }
  return out;
}
`;

const ESM_SCRIPT = `import * as web3 from "@solana/web3.js";
import { createVaultClient, TransactionCheckError } from "@vault-gateway/client";
${LIAR}
const lies = await refusals(createVaultClient, TransactionCheckError);
const callsAfterLies = signer.calls;
const owner = wallet.publicKey.toBase58();
const client = createVaultClient({ baseUrl: env.API_URL, apiKey: env.API_KEY, vaultId: env.VAULT, rpc: connection });
const deposit = await client.deposit({ wallet: owner, uiAmount: 100 }, signer);
const shares = deposit.recorded.activity.shares.amount;
const request = await client.withdraw({ wallet: owner, sharesAmount: shares }, signer);
const deadline = Date.now() + 60000;
while (!(await client.withdrawalStatus(owner)).canClaimNow) {
  if (Date.now() > deadline) throw new Error("never claimable");
  await new Promise((done) => setTimeout(done, 500));
}
const claim = await client.claim({ wallet: owner }, signer);
console.log(JSON.stringify({ lies, callsAfterLies, calls: signer.calls,
  kinds: [deposit.recorded.activity.kind, request.recorded.activity.kind, claim.recorded.activity.kind],
  depositAsset: deposit.preview.changes.asset.toString(), requestShares: request.preview.changes.shares.toString(), shares }));
`;

const CJS_SCRIPT = `const web3 = require("@solana/web3.js");
const { createVaultClient, TransactionCheckError } = require("@vault-gateway/client");
${LIAR}
refusals(createVaultClient, TransactionCheckError).then((lies) => console.log(JSON.stringify({ lies, calls: signer.calls })));
`;

const CONSUMER = `import { createVaultClient, TransactionCheckError, type VerifiedTransaction } from "@vault-gateway/client";
const client = createVaultClient({ baseUrl: "https://vaults.example", apiKey: "vk_test_x", vaultId: "v", rpc: "http://127.0.0.1:8899" });
export const deposit: typeof client.deposit = client.deposit;
export function codeOf(error: unknown): string | null {
  return error instanceof TransactionCheckError ? error.code : null;
}
export const fee = (verified: VerifiedTransaction): bigint => verified.maxFeeLamports;
`;

async function node(script: string, env: Record<string, string>): Promise<unknown> {
  const { stdout } = await run(process.execPath, [script], {
    cwd: project,
    env: { ...process.env, NODE_OPTIONS: "", ...env },
    timeout: 150_000,
  });
  const lastLine = stdout.trim().split("\n").at(-1) ?? "";
  return JSON.parse(lastLine);
}

beforeAll(async () => {
  project = await mkdtemp(join(tmpdir(), "client-package-"));
  const built = await buildClientPackage();
  expect(built.inputs.filter((input) => /^(lib\/web\/|components\/|app\/)/.test(input))).toEqual([]);
  const { stdout } = await run("npm", ["pack", "--json", "--pack-destination", project], {
    cwd: join(ROOT, "packages/client"),
  });
  const [packed] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[];
  if (packed === undefined) {
    throw new Error("npm pack packed nothing");
  }
  expect(packed.files.map((file) => file.path).filter((path) => !path.startsWith("dist/"))).toEqual(
    expect.arrayContaining(["package.json", "README.md"]),
  );
  expect(
    packed.files.every(
      (file) => file.path.startsWith("dist/") || ["package.json", "README.md"].includes(file.path),
    ),
  ).toBe(true);
  const installed = join(project, "node_modules/@vault-gateway/client");
  await mkdir(installed, { recursive: true });
  await run("tar", ["-xzf", join(project, packed.filename), "-C", installed, "--strip-components=1"]);
  // Its dependencies, and nothing else of this repository's node_modules.
  const manifest = JSON.parse(await readFile(join(installed, "package.json"), "utf8")) as {
    dependencies: Record<string, string>;
  };
  expect(Object.keys(manifest.dependencies).sort()).toEqual(["@solana/web3.js", "openapi-fetch"]);
  await mkdir(join(project, "node_modules/@solana"), { recursive: true });
  for (const dependency of Object.keys(manifest.dependencies)) {
    await symlink(join(ROOT, "node_modules", dependency), join(project, "node_modules", dependency));
  }
  await writeFile(join(project, "package.json"), JSON.stringify({ name: "consumer", private: true }));
  await writeFile(join(project, "flow.mjs"), ESM_SCRIPT);
  await writeFile(join(project, "lies.cjs"), CJS_SCRIPT);
  await writeFile(join(project, "consumer.mts"), CONSUMER);
  await writeFile(join(project, "consumer.cts"), CONSUMER);
  harness = await startApiHarness({
    localnet: { keeper: { enabled: true, navIntervalSeconds: 2, stageIntervalSeconds: 1 } },
  });
}, 300_000);

afterAll(async () => {
  await harness?.close();
  if (project !== undefined) {
    await rm(project, { recursive: true, force: true });
  }
});

async function scriptEnv(): Promise<Record<string, string>> {
  const wallet = await harness.fundedWallet(1_000n * USDC);
  return {
    RPC_URL: harness.localnet.rpcUrl,
    WS_URL: harness.localnet.wsUrl,
    API_URL: harness.url,
    API_KEY: (await harness.createKey({ scope: "write" })).secret,
    VAULT: harness.vaultId,
    USDC_MINT: harness.localnet.addresses.usdcMint.toBase58(),
    WALLET: JSON.stringify(Array.from(wallet.secretKey)),
  };
}

const REFUSED = [
  {
    kind: "usdc",
    refused: true,
    code: "UNEXPECTED_PROGRAM",
    program: "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA",
  },
  { kind: "sol", refused: true, code: "UNEXPECTED_PROGRAM", program: "11111111111111111111111111111111" },
];

describe("the client package, installed alone", () => {
  it("from plain Node ESM refuses a lying gateway before signing, then deposits, withdraws and claims through the API", async () => {
    const result = await node("flow.mjs", await scriptEnv());
    expect(result).toMatchObject({
      lies: REFUSED,
      callsAfterLies: 0,
      calls: 3,
      kinds: ["deposit", "initiate", "claim"],
      depositAsset: (-100n * USDC).toString(),
    });
    const { shares, requestShares } = result as { shares: string; requestShares: string };
    expect(requestShares).toBe(`-${shares}`);
  }, 200_000);

  it("from CommonJS refuses the same lies before signing", async () => {
    expect(await node("lies.cjs", await scriptEnv())).toEqual({ lies: REFUSED, calls: 0 });
  }, 60_000);

  it("types a consumer's ESM and CommonJS TypeScript (nodenext)", async () => {
    const tsc = join(ROOT, "node_modules/.bin/tsc");
    const options = ["--noEmit", "--strict", "--skipLibCheck", "--module", "nodenext", "--target", "es2022"];
    const types = ["--types", "node", "--typeRoots", join(ROOT, "node_modules/@types")];
    await expect(
      run(tsc, [...options, ...types, "consumer.mts", "consumer.cts"], { cwd: project }),
    ).resolves.toBeDefined();
  }, 120_000);
});

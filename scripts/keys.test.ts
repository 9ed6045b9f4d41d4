// npm run keys: the command line is read whole and strictly before the store is opened, so a flag it
// does not know (issue 31: `--scop write`) or a partner half-named (`--partner-wallet X` alone) is
// refused rather than ignored into a plain read key.
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { Keypair, type PublicKey } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { findAssociatedTokenAddress } from "../lib/chain/spl-token";
import { HelpRequested, UsageError } from "../lib/cli/args";
import { createIndexer } from "../lib/server/indexer";
import { REPO_ROOT } from "../localnet/config";
import { startApiHarness, type ApiHarness } from "../tests/api/harness";
import { parseKeysCommandLine } from "./keys";

const VAULT = "11111111111111111111111111111112";
const WALLET = "So11111111111111111111111111111111111111112";

describe("parseKeysCommandLine", () => {
  it("reads the documented create options as before", () => {
    expect(
      parseKeysCommandLine(
        [
          "create",
          "--name",
          "Acme read",
          "--scope",
          "read",
          "--vault",
          VAULT,
          "--wallet",
          WALLET,
          "--rpm",
          "60",
        ],
        120,
      ),
    ).toEqual({
      command: "create",
      options: {
        name: "Acme read",
        scope: "read",
        vaults: [VAULT],
        wallet: WALLET,
        rpm: 60,
        environment: "live",
        partner: null,
      },
    });
    expect(
      parseKeysCommandLine(
        ["create", "--name=Acme", "--scope", "write", "--vault", VAULT, "--vault", WALLET, "--test"],
        120,
      ),
    ).toEqual({
      command: "create",
      options: {
        name: "Acme",
        scope: "write",
        vaults: [VAULT, WALLET],
        wallet: null,
        rpm: 120,
        environment: "test",
        partner: null,
      },
    });
    expect(
      parseKeysCommandLine(
        [
          "create",
          "--name",
          "Acme",
          "--scope",
          "write",
          "--partner-wallet",
          WALLET,
          "--partner-fee-bps",
          "25",
        ],
        120,
      ),
    ).toMatchObject({ options: { scope: "write", partner: { wallet: WALLET, feeBps: 25 } } });
    expect(parseKeysCommandLine(["list"], 120)).toEqual({ command: "list" });
    expect(parseKeysCommandLine(["revoke", "key_abc"], 120)).toEqual({ command: "revoke", id: "key_abc" });
  });

  it.each([
    [
      ["create", "--name", "Acme", "--scope", "write", "--partner-wallet", WALLET],
      "--partner-wallet and --partner-fee-bps go together",
    ],
    [
      ["create", "--name", "Acme", "--partner-wallet", "X", "--partner-fee-bps", "25"],
      "--partner-wallet: must be a wallet address",
    ],
    [
      ["create", "--name", "Acme", "--partner-wallet", WALLET, "--partner-fee-bps", "2.5"],
      `--partner-fee-bps must be an integer from 1 to 500; got "2.5"`,
    ],
    [
      ["create", "--name", "Acme", "--partner-wallet", WALLET, "--partner-fee-bps", "501"],
      `--partner-fee-bps must be an integer from 1 to 500; got "501"`,
    ],
    [["create", "--name", "Acme", "--partner-walet", WALLET], "Unknown option '--partner-walet'"],
    [["create", "--name", "Acme", "--scop", "write"], "Unknown option '--scop'"],
    [["create", "--name"], "Option '--name <value>' argument missing"],
    [["create", "--name", "Acme", "--rpm", "ten"], `--rpm must be an integer from 1 to 1000000; got "ten"`],
    [["create", "--name", "Acme", "--rpm", "0"], `--rpm must be an integer from 1 to 1000000; got "0"`],
    [["create", "--name", "Acme", "--scope", "admin"], "--scope: "],
    [["create", "--name", "Acme", "--vault", "nope"], "--vault: must be a vault address"],
    [["create", "--name", "Acme", "extra"], "unexpected argument 'extra'"],
    [["create"], "--name: "],
    [["list", "--all"], "Unknown option '--all'"],
    [["revoke"], "revoke needs a key id (key_…)"],
    [["revoke", "key_abc", "key_def"], "unexpected argument 'key_def'"],
    [["frobnicate"], "unknown command frobnicate"],
    [[], "name a command"],
  ])("refuses %j", (argv, reason) => {
    expect(() => parseKeysCommandLine(argv, 120)).toThrow(UsageError);
    expect(() => parseKeysCommandLine(argv, 120)).toThrow(reason);
  });

  it("answers --help with the usage", () => {
    expect(() => parseKeysCommandLine(["--help"], 120)).toThrow(HelpRequested);
    expect(() => parseKeysCommandLine(["create", "--help"], 120)).toThrow(HelpRequested);
  });
});

interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `npm run keys -- …` as a process, with these variables over the test's own. */
function runKeys(args: readonly string[], variables: Record<string, string>): Promise<Finished> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...variables };
  delete env.DATABASE_URL;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/keys.ts", ...args], {
      cwd: REPO_ROOT,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("as a process", () => {
  let directory = "";

  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  function keys(args: readonly string[]): Promise<Finished> {
    return runKeys(args, { PGLITE_DIR: directory });
  }

  it("`keys create --scop write` exits 2 with the reason and the usage, before opening the store", async () => {
    directory = await mkdtemp(join(tmpdir(), "keys-cli-"));
    const refused = await keys(["create", "--name", "Acme", "--scop", "write"]);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe("");
    const [reason, blank, usage] = refused.stderr.split("\n");
    expect(reason).toBe("keys: Unknown option '--scop'");
    expect(blank).toBe("");
    expect(usage).toBe("Usage:");
    expect(refused.stderr).toContain("npm run keys -- create --name <name> [--scope read|write]");

    // Refused before the store opened: the embedded database was never created, so no key was either.
    expect(await readdir(directory)).toEqual([]);
  });
});

// A partner's fee is paid into its associated token account for the vault's asset, and a deposit through
// its key is refused (PARTNER_ACCOUNT_MISSING) while that account does not exist: `keys create` says so
// at creation, on the local chain, with the app holding the store (the directory of vaults it indexed).
describe("keys create with a partner, on the local chain", () => {
  let harness: ApiHarness;
  let storeDirectory = "";

  beforeAll(async () => {
    storeDirectory = await mkdtemp(join(tmpdir(), "keys-partner-"));
    // The app holds the embedded database the CLI reaches through it, even where DATABASE_URL is set
    // (CI): an empty value is an unset one, so both use PGLITE_DIR.
    harness = await startApiHarness({ env: { PGLITE_DIR: storeDirectory, DATABASE_URL: "" } });
  }, 180_000);

  afterAll(async () => {
    await harness?.close();
    await rm(storeDirectory, { recursive: true, force: true });
  });

  function createPartnerKey(partner: string, extra: readonly string[] = []): Promise<Finished> {
    return runKeys(
      [
        "create",
        "--name",
        `partner ${partner}`,
        "--scope",
        "write",
        "--partner-wallet",
        partner,
        "--partner-fee-bps",
        "25",
        ...extra,
      ],
      {
        PGLITE_DIR: storeDirectory,
        RPC_URL: harness.localnet.rpcUrl,
        LOCALNET_ADDRESSES_FILE: harness.localnet.config.addressesFile,
      },
    );
  }

  async function storedKey(name: string) {
    return (await harness.context.store.keys.list()).find((key) => key.name === name);
  }

  const WARNING = "keys: warning:";

  /** The one warning about the partner's USDC account, and the vaults it names (in any order). */
  async function expectWarnedOf(created: Finished, partner: PublicKey, vaults: readonly string[]) {
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/^vk_live_[1-9A-HJ-NP-Za-km-z]+$/m);
    const mint = harness.localnet.addresses.usdcMint;
    const warnings = created.stderr.split("\n").filter((line) => line.startsWith(WARNING));
    expect(warnings).toHaveLength(1);
    const [warning = ""] = warnings;
    const named = / into (.+) are refused /.exec(warning)?.[1]?.split(", ");
    expect([...(named ?? [])].sort()).toEqual([...vaults].sort());
    expect(warning.replace(/ into .+ are refused /, " into … are refused ")).toBe(
      `${WARNING} the partner ${partner.toBase58()} has no token account for USDC (mint ${mint.toBase58()}): ` +
        `its associated token account ${findAssociatedTokenAddress(partner, mint).toBase58()} does not exist, ` +
        `so deposits through this key into … are refused (PARTNER_ACCOUNT_MISSING) until it ` +
        `does. The key is created; open the account by sending the partner any amount of USDC from a wallet, ` +
        `or with \`spl-token create-account ${mint.toBase58()} --owner ${partner.toBase58()} --fee-payer <keypair file>\``,
    );
    expect(created.stderr).not.toContain("not checked");
    // The key stands: the partner may open its account later.
    expect((await storedKey(`partner ${partner.toBase58()}`))?.partner).toEqual({
      wallet: partner.toBase58(),
      feeBps: 25,
    });
  }

  /** Created with nothing said on stderr. */
  async function expectSilent(created: Finished, partner: string) {
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/^vk_live_[1-9A-HJ-NP-Za-km-z]+$/m);
    expect(created.stderr).toBe("");
    expect((await storedKey(`partner ${partner}`))?.partner?.wallet).toBe(partner);
  }

  it("before the app has indexed a vault, reads the protocol's vaults from the chain", async () => {
    expect(await harness.context.store.indexer.vaults()).toEqual([]);
    const every = harness.localnet.addresses.vaults.map(({ vault }) => vault.toBase58());

    const unopened = Keypair.generate().publicKey;
    await expectWarnedOf(await createPartnerKey(unopened.toBase58()), unopened, every);

    // The faucet opens the wallet's USDC account.
    const opened = (await harness.fundedWallet(0n)).publicKey.toBase58();
    await expectSilent(await createPartnerKey(opened), opened);
  });

  it("reads the vaults from the app's directory once indexed, restricted to the key's own", async () => {
    const indexer = createIndexer(harness.context, { intervalMs: 60_000 });
    try {
      await indexer.runOnce();
    } finally {
      await indexer.stop();
    }
    const directory = (await harness.context.store.indexer.vaults()).map((row) => row.vault);
    expect(directory).toEqual(expect.arrayContaining([harness.vaultId, harness.flexVaultId]));

    const unopened = Keypair.generate().publicKey;
    await expectWarnedOf(await createPartnerKey(unopened.toBase58()), unopened, directory);
    const restricted = Keypair.generate().publicKey;
    await expectWarnedOf(
      await createPartnerKey(restricted.toBase58(), ["--vault", harness.flexVaultId]),
      restricted,
      [harness.flexVaultId],
    );
    const opened = (await harness.fundedWallet(0n)).publicKey.toBase58();
    await expectSilent(await createPartnerKey(opened, ["--vault", harness.vaultId]), opened);

    // A --vault that is no vault of the protocol: said, not checked, the key created all the same.
    const stray = Keypair.generate().publicKey.toBase58();
    const strayKey = await createPartnerKey(Keypair.generate().publicKey.toBase58(), ["--vault", stray]);
    expect(strayKey.code).toBe(0);
    expect(strayKey.stderr).toContain(`keys: ${stray}: not a vault of the protocol`);
    expect(strayKey.stderr).not.toContain(WARNING);
  });

  it("says the check was skipped when the chain does not answer, and creates the key", async () => {
    // A port nothing listens on: the chain's connection is refused.
    const closed = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, "127.0.0.1", () => {
        const address = server.address();
        server.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0));
      });
    });
    const partner = Keypair.generate().publicKey.toBase58();
    const created = await runKeys(
      [
        "create",
        "--name",
        `partner ${partner}`,
        "--scope",
        "write",
        "--partner-wallet",
        partner,
        "--partner-fee-bps",
        "25",
      ],
      {
        PGLITE_DIR: storeDirectory,
        RPC_URL: `http://127.0.0.1:${closed}`,
        LOCALNET_ADDRESSES_FILE: harness.localnet.config.addressesFile,
      },
    );
    expect(created.code).toBe(0);
    expect(created.stderr).toBe(
      `keys: the chain at http://127.0.0.1:${closed} did not answer; the partner fee is checked against the 500 bps ceiling only, and the partner's token accounts are not checked\n`,
    );
    expect((await storedKey(`partner ${partner}`))?.partner?.wallet).toBe(partner);
  });
});

// npm run keys: the command line is read whole and strictly before the store is opened, so a flag it
// does not know (issue 31: `--scop write`) or a partner half-named (`--partner-wallet X` alone) is
// refused rather than ignored into a plain read key.
import { spawn } from "node:child_process";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { HelpRequested, UsageError } from "../lib/cli/args";
import { REPO_ROOT } from "../localnet/config";
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

describe("as a process", () => {
  let directory = "";

  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  function keys(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const env: NodeJS.ProcessEnv = { ...process.env, PGLITE_DIR: directory };
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

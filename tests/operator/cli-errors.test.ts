// Every operator command's refusals: a missing or broken keypair file, a bad URL or address, an
// unknown vault or protocol, a keypair that is not the vault's manager or the protocol's admin, a bad
// value, a hand-over nobody proposed. In process each is an
// OperatorError naming the problem; as a process, one line on stderr and exit code 1.
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { Keypair } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { OperatorError } from "../../lib/operator/errors";
import { writeKeypairFile } from "../../lib/operator/keypair-file";
import { runProtocolCli } from "../../lib/operator/protocol-cli";
import { runVaultCli } from "../../lib/operator/vault-cli";
import type { LocalnetHandle } from "../../localnet/localnet";
import { devKeypair } from "../../localnet/keys";
import { startTestLocalnet } from "../../localnet/testing";
import { runScript, startScript } from "./processes";

let localnet: LocalnetHandle;
let directory: string;
let strangerFile: string;
let managerFile: string;
let adminFile: string;
const lines: string[] = [];
const out = (line: string): void => {
  lines.push(line);
};

beforeAll(async () => {
  localnet = await startTestLocalnet();
  directory = await mkdtemp(join(tmpdir(), "operator-cli-"));
  strangerFile = join(directory, "stranger.json");
  managerFile = join(directory, "manager.json");
  await writeKeypairFile(strangerFile, Keypair.generate());
  await writeKeypairFile(managerFile, devKeypair("manager"));
  adminFile = join(directory, "admin.json");
  await writeKeypairFile(adminFile, devKeypair("protocol-admin"));
  await writeFile(join(directory, "not-json.json"), "hello");
  await writeFile(join(directory, "short.json"), "[1,2,3]");
  const corrupt = Array.from(Keypair.generate().secretKey);
  corrupt[40] = ((corrupt[40] ?? 0) + 1) % 256;
  await writeFile(join(directory, "corrupt.json"), JSON.stringify(corrupt));
});

afterAll(async () => {
  await localnet.stop();
});

describe("vault commands refuse bad input", () => {
  const vault = (): string => localnet.addresses.vaults[0]?.vault.toBase58() ?? "";
  const url = (): string[] => ["--url", localnet.rpcUrl];

  it.each([
    [["frobnicate"], /unknown command "frobnicate"/],
    [["show", "not-an-address"], /<vault> is not a base58 address/],
    [["show"], /<vault> is required/],
    [["pause", "--keypair", "/nonexistent/key.json"], /<vault> is required/],
    [["create", "--bogus", "1"], /Unknown option '--bogus'/],
  ])("%j", async (argv, message) => {
    await expect(runVaultCli([...argv, ...url()], out)).rejects.toThrow(message);
  });

  it("names a missing, non-JSON, short or corrupt keypair file", async () => {
    for (const [file, message] of [
      ["/nonexistent/key.json", /keypair file \/nonexistent\/key.json does not exist/],
      [join(directory, "not-json.json"), /is not JSON/],
      [join(directory, "short.json"), /is not a Solana CLI keypair/],
      [join(directory, "corrupt.json"), /its public key does not match/],
    ] as const) {
      await expect(runVaultCli(["pause", vault(), "--keypair", file, ...url()], out)).rejects.toThrow(
        message,
      );
    }
  });

  it("refuses an unknown vault, an account that is not one, and a keypair that is not the manager", async () => {
    const unknown = Keypair.generate().publicKey.toBase58();
    await expect(runVaultCli(["show", unknown, ...url()], out)).rejects.toThrow(`no vault at ${unknown}`);
    const mint = localnet.addresses.usdcMint.toBase58();
    await expect(runVaultCli(["show", mint, ...url()], out)).rejects.toThrow(/is not a vault of program/);
    await expect(runVaultCli(["pause", vault(), "--keypair", strangerFile, ...url()], out)).rejects.toThrow(
      /not the manager of/,
    );
  });

  it("refuses bad values and a no-op change, and sends nothing without --yes", async () => {
    for (const [argv, message] of [
      [["config", vault(), "--fee-bps", "10001"], /--fee-bps must be 0–10000/],
      [["config", vault(), "--hourly-cap", "12.5"], /--hourly-cap must be a whole number/],
      [["config", vault(), "--name", "x".repeat(33)], /--name must be 1–32 bytes/],
      [["config", vault(), "--fee-bps", "10"], /nothing to change/],
      [["create", "--asset-mint", vault(), "--name", "X", "--manager", vault()], /is not a token mint/],
    ] as const) {
      await expect(runVaultCli([...argv, "--keypair", managerFile, ...url()], out)).rejects.toThrow(message);
    }
    lines.length = 0;
    await runVaultCli(["pause", vault(), "--keypair", managerFile, ...url()], out);
    expect(lines).toContain("  paused: false -> true");
    expect(lines).toContain("  not sent: pass --yes to send it");
    await expect(runVaultCli(["resume", vault(), "--keypair", managerFile, ...url()], out)).rejects.toThrow(
      /nothing to change/,
    );
  });

  it("stage: names a missing request and an account that is not a receipt, and sends nothing", async () => {
    lines.length = 0;
    await expect(runVaultCli(["stage", vault(), "--keypair", strangerFile, ...url()], out)).rejects.toThrow(
      /has no pending withdrawal in .*: name one with --receipt <address>/,
    );
    await expect(
      runVaultCli(["stage", vault(), "--receipt", vault(), "--keypair", strangerFile, ...url()], out),
    ).rejects.toThrow(/is an account of the program but not a withdrawal receipt/);
    const nobody = Keypair.generate().publicKey.toBase58();
    await expect(
      runVaultCli(["stage", vault(), "--receipt", nobody, "--keypair", strangerFile, ...url()], out),
    ).rejects.toThrow(`no withdrawal receipt at ${nobody}`);
    expect(lines).toEqual([]);
  });

  it("create needs the protocol's admin and a manager; the hand-over needs a proposal", async () => {
    const mint = localnet.addresses.usdcMint.toBase58();
    const manager = devKeypair("manager").publicKey.toBase58();
    const protocol = localnet.addresses.protocol.toBase58();
    const create = ["create", "--asset-mint", mint, "--name", "X", ...url()];
    await expect(runVaultCli([...create, "--keypair", adminFile], out)).rejects.toThrow(
      /--manager is required/,
    );
    // The stranger created no protocol; naming the real one, it is not its admin.
    await expect(
      runVaultCli([...create, "--manager", manager, "--keypair", strangerFile], out),
    ).rejects.toThrow(/no protocol at .* create it with npm run protocol -- init/);
    await expect(
      runVaultCli([...create, "--manager", manager, "--protocol", protocol, "--keypair", strangerFile], out),
    ).rejects.toThrow(/not the admin of protocol/);
    lines.length = 0;
    await runVaultCli([...create, "--manager", manager, "--keypair", adminFile], out);
    expect(lines).toContain(`  protocol:  -> ${protocol}`);
    expect(lines).toContain("  not sent: pass --yes to send it");

    const stranger = Keypair.generate().publicKey.toBase58();
    await expect(
      runVaultCli(["set-manager", vault(), "--manager", stranger, "--keypair", strangerFile, ...url()], out),
    ).rejects.toThrow(/neither the manager of .* nor its protocol's admin/);
    await expect(
      runVaultCli(["set-manager", vault(), "--manager", manager, "--keypair", adminFile, ...url()], out),
    ).rejects.toThrow(/already manages/);
    await expect(
      runVaultCli(["set-manager", vault(), "--keypair", managerFile, ...url()], out),
    ).rejects.toThrow(/--manager is required/);
    await expect(
      runVaultCli(["accept-manager", vault(), "--keypair", strangerFile, ...url()], out),
    ).rejects.toThrow(/no manager is proposed/);
    // The admin may propose too; the proposal is only simulated here.
    lines.length = 0;
    await runVaultCli(["set-manager", vault(), "--manager", stranger, "--keypair", adminFile, ...url()], out);
    expect(lines).toContain(`  pending_manager: 11111111111111111111111111111111 -> ${stranger}`);
  });

  it("all are OperatorErrors (one line, exit 1 from the command)", async () => {
    await expect(runVaultCli(["show", "x", ...url()], out)).rejects.toBeInstanceOf(OperatorError);
  });
});

describe("protocol commands refuse bad input", () => {
  const url = (): string[] => ["--url", localnet.rpcUrl];
  const protocol = (): string => localnet.addresses.protocol.toBase58();

  it.each([
    [["frobnicate"], /unknown command "frobnicate"/],
    [["show", "not-an-address"], /<protocol> is not a base58 address/],
    [["show"], /name the protocol/],
    [["init", "--max-gain-bps", "10", "--max-loss-bps", "10"], /--min-interval is required/],
    [
      ["init", "--max-gain-bps", "10001", "--max-loss-bps", "1", "--min-interval", "1"],
      /--max-gain-bps must be 0–10000/,
    ],
    [["init", "--max-gain-bps", "1", "--max-loss-bps", "1", "--min-interval", "-1"], /--min-interval/],
    [["set-bounds", "--bogus"], /Unknown option '--bogus'/],
    [["accept-admin"], /<protocol> is required/],
  ])("%j", async (argv, message) => {
    await expect(runProtocolCli([...argv, ...url()], out)).rejects.toThrow(message);
  });

  it("refuses an unknown protocol, a vault for one, a keypair that is not the admin, and a no-op", async () => {
    const unknown = Keypair.generate().publicKey.toBase58();
    await expect(runProtocolCli(["show", unknown, ...url()], out)).rejects.toThrow(
      `no protocol at ${unknown}`,
    );
    const vault = localnet.addresses.vaults[0]?.vault.toBase58() ?? "";
    await expect(runProtocolCli(["show", vault, ...url()], out)).rejects.toThrow(/not a protocol/);
    const signed = (...argv: string[]): Promise<void> => runProtocolCli([...argv, ...url()], out);
    await expect(
      signed("set-bounds", protocol(), "--max-gain-bps", "1", "--keypair", strangerFile),
    ).rejects.toThrow(/not the admin of protocol/);
    await expect(
      signed("set-bounds", "--max-gain-bps", "1", "--keypair", adminFile),
    ).resolves.toBeUndefined();
    await expect(signed("set-bounds", "--keypair", adminFile)).rejects.toThrow(/needs --max-gain-bps/);
    lines.length = 0;
    await signed("show", protocol());
    const gain = /max gain per strike\s+(\d+) bps/.exec(lines.join("\n"))?.[1] ?? "";
    await expect(signed("set-bounds", "--max-gain-bps", gain, "--keypair", adminFile)).rejects.toThrow(
      /nothing to change/,
    );
    await expect(
      signed(
        "init",
        "--max-gain-bps",
        "1",
        "--max-loss-bps",
        "1",
        "--min-interval",
        "1",
        "--keypair",
        adminFile,
      ),
    ).rejects.toThrow(/already created protocol/);
  });

  it("the admin hand-over: only the admin proposes, only the proposed admin accepts", async () => {
    const stranger = Keypair.generate().publicKey.toBase58();
    const signed = (...argv: string[]): Promise<void> => runProtocolCli([...argv, ...url()], out);
    await expect(
      signed("set-admin", protocol(), "--admin", stranger, "--keypair", strangerFile),
    ).rejects.toThrow(/not the admin of protocol/);
    await expect(
      signed(
        "set-admin",
        "--admin",
        devKeypair("protocol-admin").publicKey.toBase58(),
        "--keypair",
        adminFile,
      ),
    ).rejects.toThrow(/is already the admin/);
    await expect(signed("accept-admin", protocol(), "--keypair", strangerFile)).rejects.toThrow(
      /no admin is proposed/,
    );
    lines.length = 0;
    await signed("set-admin", "--admin", stranger, "--keypair", adminFile);
    expect(lines).toContain(`  pending_admin: 11111111111111111111111111111111 -> ${stranger}`);
    expect(lines).toContain("  not sent: pass --yes to send it");
  });
});

describe("as processes: one line on stderr, exit code 1", () => {
  it.each([
    [
      "scripts/vault.ts",
      ["show", "11111111111111111111111111111111", "--url", "http://127.0.0.1:1"],
      /^vault: The chain is unreachable/,
    ],
    ["scripts/program-deploy.ts", ["--url", "http://127.0.0.1:1"], /^program:deploy: --keypair is required$/],
    [
      "scripts/program-deploy.ts",
      ["--url", "ftp://x", "--keypair", "k.json"],
      /^program:deploy: --url must be an http\(s\) URL/,
    ],
    [
      "scripts/keeper.ts",
      ["--url", "http://127.0.0.1:1", "--keypair", "/nonexistent.json", "--nav-source", "simulated:5"],
      /^keeper: manager keypair file \/nonexistent.json does not exist$/,
    ],
    [
      "scripts/protocol.ts",
      ["show", "11111111111111111111111111111111", "--url", "http://127.0.0.1:1"],
      /^protocol: The chain is unreachable/,
    ],
    ["scripts/protocol.ts", ["init", "--url", "http://127.0.0.1:1"], /^protocol: --max-gain-bps is required/],
  ] as const)(
    "%s %j",
    async (script, argv, message) => {
      const result = await runScript(script, argv, { RPC_URL: "", CLUSTER: "" });
      expect(result.code).toBe(1);
      const errorLines = result.stderr.trimEnd().split("\n");
      expect(errorLines).toHaveLength(1);
      expect(errorLines[0]).toMatch(message);
    },
    60_000,
  );

  it("keeper: a bad --nav-source", async () => {
    const result = await runScript("scripts/keeper.ts", [
      "--url",
      localnet.rpcUrl,
      "--keypair",
      strangerFile,
      "--nav-source",
      "nonsense",
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toMatch(
      /^keeper: --nav-source must be simulated:<apy>, file:<path> or an http\(s\) URL/,
    );
  }, 60_000);

  it.each([
    [
      ["--check-url", "ws://127.0.0.1:8900"],
      /^keeper: --check-url must be an http\(s\) RPC URL; got "ws:\/\/127\.0\.0\.1:8900"$/,
    ],
  ] as const)(
    "keeper: %j",
    async (flags, message) => {
      const result = await runScript("scripts/keeper.ts", [
        "--url",
        localnet.rpcUrl,
        "--keypair",
        strangerFile,
        "--nav-source",
        "simulated:5",
        "--vault",
        "11111111111111111111111111111111",
        ...flags,
      ]);
      expect(result.code).toBe(1);
      expect(result.stderr.trim()).toMatch(message);
    },
    60_000,
  );

  it.each([
    [["--deliver-max", "ten"], /^keeper: --deliver-max must be a whole number; got "ten"$/],
    [["--check-max-slot-lag", "1.5"], /^keeper: --check-max-slot-lag must be a whole number; got "1\.5"$/],
    [["--delivr-max", "3"], /^keeper: Unknown option '--delivr-max'$/],
  ] as const)(
    "keeper refuses the command line %j with its usage, exit code 2",
    async (flags, message) => {
      const result = await runScript("scripts/keeper.ts", [
        "--url",
        localnet.rpcUrl,
        "--keypair",
        strangerFile,
        "--nav-source",
        "simulated:5",
        "--vault",
        "11111111111111111111111111111111",
        ...flags,
      ]);
      expect(result.code).toBe(2);
      const [reason, blank, usage] = result.stderr.split("\n");
      expect(reason).toMatch(message);
      expect(blank).toBe("");
      expect(usage).toMatch(/^Usage: npm run keeper -- --url <rpc>/);
    },
    60_000,
  );

  it("keeper: says at start whether a second RPC checks its strikes and whether it delivers", async () => {
    const args = ["--url", localnet.rpcUrl, "--keypair", managerFile, "--nav-source", "simulated:5"];
    const vault = ["--vault", localnet.addresses.vaults[0]?.vault.toBase58() ?? ""];
    const alone = startScript("scripts/keeper.ts", [...args, ...vault], { KEEPER_CHECK_RPC_URL: "" });
    try {
      expect(await alone.waitForLine(/second-RPC check/, 30_000)).toMatch(
        /the second-RPC check is off \(no KEEPER_CHECK_RPC_URL or --check-url\): strikes trust http:\/\/127\.0\.0\.1:\d+ alone$/,
      );
      expect(await alone.waitForLine(/delivering/)).toMatch(
        /delivering up to 10 claimable withdrawals per vault and pass$/,
      );
    } finally {
      await alone.stop();
    }
    const checked = startScript("scripts/keeper.ts", [...args, ...vault, "--deliver-max", "0"], {
      KEEPER_CHECK_RPC_URL: localnet.rpcUrl,
      KEEPER_CHECK_MAX_SLOT_LAG: "10",
    });
    try {
      expect(await checked.waitForLine(/strikes only when/, 30_000)).toMatch(
        /strikes only when http:\/\/127\.0\.0\.1:\d+ reads the same vault assets \(at most 10 slots apart\)$/,
      );
      expect(await checked.waitForLine(/delivering/)).toMatch(/delivering no claims \(--deliver-max 0\)/);
    } finally {
      await checked.stop();
    }
  }, 90_000);
});

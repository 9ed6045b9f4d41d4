// `npm run protocol -- pause-vault` against the local chain: only the protocol's admin holds a vault's
// pause (up to 30 days ahead), the manager's resume is then refused by the program, and --lift ends it.
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { Keypair } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { writeKeypairFile } from "../../lib/operator/keypair-file";
import { parsePauseUntil, runProtocolCli } from "../../lib/operator/protocol-cli";
import { runVaultCli } from "../../lib/operator/vault-cli";
import { decodeVaultState } from "../../lib/vault/program/accounts";
import type { LocalnetHandle } from "../../localnet/localnet";
import { devKeypair } from "../../localnet/keys";
import { startTestLocalnet } from "../../localnet/testing";

let localnet: LocalnetHandle;
let adminFile: string;
let managerFile: string;
let strangerFile: string;
const lines: string[] = [];
const out = (line: string): void => {
  lines.push(line);
};

beforeAll(async () => {
  localnet = await startTestLocalnet();
  const directory = await mkdtemp(join(tmpdir(), "operator-pause-"));
  adminFile = join(directory, "admin.json");
  managerFile = join(directory, "manager.json");
  strangerFile = join(directory, "stranger.json");
  await writeKeypairFile(adminFile, devKeypair("protocol-admin"));
  await writeKeypairFile(managerFile, devKeypair("manager"));
  await writeKeypairFile(strangerFile, Keypair.generate());
});

afterAll(async () => {
  await localnet.stop();
});

describe("protocol pause-vault", () => {
  const vault = (): string => localnet.addresses.vaults[0]?.vault.toBase58() ?? "";
  const url = (): string[] => ["--url", localnet.rpcUrl];
  const protocol = (...argv: string[]) => runProtocolCli([...argv, ...url()], out);
  const state = () => {
    const account = localnet.chain.getAccount(vault());
    if (account === null) throw new Error("the vault is gone");
    return decodeVaultState(Buffer.from(account.data));
  };

  it("reads --until as unix seconds or an ISO time with its zone", () => {
    expect(parsePauseUntil("1764547200")).toBe(1_764_547_200n);
    expect(parsePauseUntil("2025-12-01T00:00:00Z")).toBe(1_764_547_200n);
    expect(parsePauseUntil("2025-12-01T01:00:00+01:00")).toBe(1_764_547_200n);
    expect(() => parsePauseUntil("2025-12-01")).toThrow(/ISO 8601 time with its zone/);
    expect(() => parsePauseUntil("tomorrow")).toThrow(/--until must be/);
  });

  it("refuses bad input and a keypair that is not the admin", async () => {
    const soon = String(Math.floor(Date.now() / 1000) + 86_400);
    await expect(protocol("pause-vault", vault(), "--keypair", adminFile)).rejects.toThrow(
      /either --until .* or --lift/,
    );
    await expect(
      protocol("pause-vault", vault(), "--until", soon, "--lift", "--keypair", adminFile),
    ).rejects.toThrow(/either --until .* or --lift/);
    await expect(protocol("pause-vault", "--until", soon, "--keypair", adminFile)).rejects.toThrow(
      /<vault> is required/,
    );
    const past = String(Math.floor(Date.now() / 1000) - 60);
    await expect(protocol("pause-vault", vault(), "--until", past, "--keypair", adminFile)).rejects.toThrow(
      /not in the future/,
    );
    const tooFar = String(Math.floor(Date.now() / 1000) + 31 * 86_400);
    await expect(protocol("pause-vault", vault(), "--until", tooFar, "--keypair", adminFile)).rejects.toThrow(
      /more than 30 days ahead/,
    );
    await expect(
      protocol("pause-vault", vault(), "--until", soon, "--keypair", strangerFile),
    ).rejects.toThrow(/not the admin of protocol/);
    await expect(protocol("pause-vault", vault(), "--lift", "--keypair", adminFile)).rejects.toThrow(
      /nothing to lift/,
    );
  });

  it("holds the pause 20 days (simulated first), the manager cannot resume it, and --lift ends it", async () => {
    const until = BigInt(Math.floor(Date.now() / 1000) + 20 * 86_400);
    const iso = new Date(Number(until) * 1000).toISOString();
    lines.length = 0;
    await protocol("pause-vault", vault(), "--until", iso, "--keypair", adminFile);
    expect(lines).toContain(`  pause: not paused -> paused until ${iso} by the protocol admin`);
    expect(lines).toContain("  not sent: pass --yes to send it");
    expect(state().paused).toBe(false);

    await protocol("pause-vault", vault(), "--until", iso, "--keypair", adminFile, "--yes");
    expect(state()).toMatchObject({ paused: true, pauseUntil: until, adminPaused: true });

    // The manager's resume is the program's to refuse: 6000 Unauthorized, in the simulation.
    await expect(runVaultCli(["resume", vault(), "--keypair", managerFile, ...url()], out)).rejects.toThrow(
      /Unauthorized|6000/,
    );

    lines.length = 0;
    await protocol("pause-vault", vault(), "--lift", "--keypair", adminFile, "--yes");
    expect(lines).toContain(`  pause: paused until ${iso} by the protocol admin -> not paused (lifted now)`);
    expect(state()).toMatchObject({ paused: false, adminPaused: false });
  });
});

// `npm run vault -- config` against the local chain: a change that hurts holders is printed as
// scheduled, with the time the program stored for it; an easing change applies at once.
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { writeKeypairFile } from "../../lib/operator/keypair-file";
import { runVaultCli } from "../../lib/operator/vault-cli";
import type { LocalnetHandle } from "../../localnet/localnet";
import { devKeypair } from "../../localnet/keys";
import { startTestLocalnet } from "../../localnet/testing";

let localnet: LocalnetHandle;
let managerFile: string;
const lines: string[] = [];
const out = (line: string): void => {
  lines.push(line);
};

beforeAll(async () => {
  localnet = await startTestLocalnet();
  const directory = await mkdtemp(join(tmpdir(), "operator-config-"));
  managerFile = join(directory, "manager.json");
  await writeKeypairFile(managerFile, devKeypair("manager"));
});

afterAll(async () => {
  await localnet.stop();
});

describe("vault config", () => {
  const vault = (): string => localnet.addresses.vaults[0]?.vault.toBase58() ?? "";
  const run = (...argv: string[]) =>
    runVaultCli([...argv, "--keypair", managerFile, "--url", localnet.rpcUrl], out);

  it("prints a fee raise as scheduled, and when it applies: 72 h after it lands, by the chain's clock", async () => {
    lines.length = 0;
    await run("config", vault(), "--fee-bps", "1000");
    expect(lines).toContain("  fee_bps: 10 -> 1000 (scheduled, after the notice)");
    expect(
      lines.some((line) =>
        /^ {2}would schedule fee_bps: applying 259200 s after it lands, about \d{4}-/.test(line),
      ),
    ).toBe(true);

    lines.length = 0;
    await run("config", vault(), "--fee-bps", "1000", "--yes");
    const scheduled = lines.find((line) => line.startsWith("  scheduled fee_bps: "));
    const at = /applies at (\S+)$/.exec(scheduled ?? "")?.[1] ?? "";
    expect(scheduled).toMatch(
      /^ {2}scheduled fee_bps: fee 1000 bps, min withdrawal \d+ shares, caps hourly \d+, daily \d+; applies at /,
    );
    const delay = Date.parse(at) / 1000 - Date.now() / 1000;
    expect(delay).toBeGreaterThan(259_200 - 600);
    expect(delay).toBeLessThanOrEqual(259_200 + 1);

    // The fee in force is still 10 bps; show prints the pending config beside it.
    lines.length = 0;
    await runVaultCli(["show", vault(), "--url", localnet.rpcUrl], out);
    expect(lines).toContain("  fee                  10 bps");
    expect(
      lines.some((line) => line.startsWith("  pending config       fee 1000 bps,") && line.endsWith(at)),
    ).toBe(true);
  }, 120_000);

  it("applies a fee cut at once and withdraws the pending raise", async () => {
    lines.length = 0;
    await run("config", vault(), "--fee-bps", "5", "--yes");
    expect(lines).toContain("  fee_bps: 10 -> 5");
    expect(lines.some((line) => line.includes("scheduled"))).toBe(false);
    lines.length = 0;
    await runVaultCli(["show", vault(), "--url", localnet.rpcUrl], out);
    expect(lines).toContain("  fee                  5 bps");
    expect(lines.some((line) => line.includes("pending config"))).toBe(false);
  }, 120_000);
});

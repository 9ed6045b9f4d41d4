// npm run bench:program — compute units of each vault instruction in LiteSVM, against the targets.
// Each measured transaction holds only the instruction itself: token accounts (ATAs) are created in
// earlier transactions. Exits non-zero when a target is missed or an instruction fails.
import { TestChain, type TransactionOutcome } from "./tests/harness";
import { TestVault } from "./tests/vault-fixture";

interface Measurement {
  instruction: string;
  computeUnits: bigint;
  target: bigint | null;
}

const TARGETS: Record<string, bigint> = {
  "deposit (first)": 10_000n,
  "deposit (subsequent)": 10_000n,
  request_withdrawal: 10_000n,
  claim_withdrawal: 12_000n,
};

function measured(instruction: string, outcome: TransactionOutcome): Measurement {
  if (!outcome.ok) {
    throw new Error(`${instruction} failed: ${outcome.err?.description}\n${outcome.logs.join("\n")}`);
  }
  return { instruction, computeUnits: outcome.computeUnits, target: TARGETS[instruction] ?? null };
}

function measureAll(): Measurement[] {
  const chain = TestChain.create();
  // Fee and caps set, so the fee and window arithmetic run as they would in production.
  const settings = {
    name: "Bench vault",
    feeBps: 25,
    minWithdrawalShares: 1n,
    hourlyCap: 10n ** 12n,
    dailyCap: 10n ** 13n,
  };
  const { vault, outcome: initialized } = TestVault.create(chain, settings);
  const alice = vault.addMember(10_000_000n);
  const bob = vault.addMember(10_000_000n);

  const measurements = [measured("initialize_vault", initialized)];
  measurements.push(measured("deposit (first)", vault.deposit(alice, 5_000_000n)));
  measurements.push(measured("deposit (subsequent)", vault.deposit(bob, 3_000_000n)));
  measurements.push(measured("request_withdrawal", vault.requestWithdrawal(alice, 2_000_000n)));
  measurements.push(measured("update_nav", vault.updateNav(123_456n, 0n)));
  measurements.push(measured("stage_withdrawals", vault.stageWithdrawals(2_000_000n)));
  measurements.push(measured("claim_withdrawal", vault.claimWithdrawal(alice)));
  measurements.push(measured("update_config", vault.updateConfig({ feeBps: 30, hourlyCap: 10n ** 11n })));
  return measurements;
}

function formatTable(measurements: readonly Measurement[]): string {
  const rows = measurements.map(({ instruction, computeUnits, target }) => [
    instruction,
    computeUnits.toLocaleString("en-US"),
    target === null ? "—" : `≤ ${target.toLocaleString("en-US")}`,
    target === null ? "" : computeUnits <= target ? "ok" : "MISSED",
  ]);
  const header = ["instruction", "compute units", "target", "status"];
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]?.length ?? 0)),
  );
  const line = (cells: string[]): string =>
    cells
      .map((cell, column) =>
        column === 1 ? cell.padStart(widths[column] ?? 0) : cell.padEnd(widths[column] ?? 0),
      )
      .join("  ")
      .trimEnd();
  return [line(header), line(widths.map((width) => "-".repeat(width))), ...rows.map(line)].join("\n");
}

const measurements = measureAll();
console.log(formatTable(measurements));
const missed = measurements.filter(({ computeUnits, target }) => target !== null && computeUnits > target);
if (missed.length > 0) {
  console.error(`\nCompute-unit targets missed: ${missed.map((entry) => entry.instruction).join(", ")}`);
  process.exitCode = 1;
}

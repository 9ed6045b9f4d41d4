// The IDL is the contract between the program and TypeScript: its discriminators, errors and sizes are
// checked from first principles, then every instruction, account and event goes through the coder
// against the built program.
import { createHash } from "node:crypto";

import { describe, expect, it } from "vitest";

import { VAULT_ERRORS, vaultErrorFromCode } from "../../../lib/vault/errors";
import { VAULT_EVENT_NAMES, decodeVaultEvents, type VaultEventName } from "../../../lib/vault/events";
import {
  VAULT_ACCOUNT_SIZE,
  VAULT_INSTRUCTION_NAMES,
  WITHDRAWAL_RECEIPT_ACCOUNT_SIZE,
  vaultCoder,
  vaultIdl,
} from "../../../lib/vault/idl";
import { TestChain, type TransactionOutcome } from "./harness";
import { TestVault } from "./vault-fixture";

function anchorDiscriminator(preimage: string): number[] {
  return [...createHash("sha256").update(preimage).digest().subarray(0, 8)];
}

describe("the vault IDL", () => {
  it("names exactly the seven instructions lib/vault builds", () => {
    expect(vaultIdl.instructions.map((instruction) => instruction.name).sort()).toEqual(
      [...VAULT_INSTRUCTION_NAMES].sort(),
    );
  });

  it.each(vaultIdl.instructions.map((instruction) => [instruction.name, instruction.discriminator] as const))(
    "instruction %s has discriminator sha256('global:<name>')[..8]",
    (name, discriminator) => {
      expect(discriminator).toEqual(anchorDiscriminator(`global:${name}`));
    },
  );

  it.each(vaultIdl.accounts.map((account) => [account.name, account.discriminator] as const))(
    "account %s has discriminator sha256('account:<Name>')[..8]",
    (name, discriminator) => {
      expect(discriminator).toEqual(anchorDiscriminator(`account:${name}`));
    },
  );

  it.each(vaultIdl.events.map((event) => [event.name, event.discriminator] as const))(
    "event %s has discriminator sha256('event:<Name>')[..8]",
    (name, discriminator) => {
      expect(discriminator).toEqual(anchorDiscriminator(`event:${name}`));
    },
  );

  it("numbers its errors 6000, 6001, … without gaps or duplicates", () => {
    expect(VAULT_ERRORS.map((error) => error.code)).toEqual(
      VAULT_ERRORS.map((_error, position) => 6000 + position),
    );
    expect(new Set(VAULT_ERRORS.map((error) => error.name)).size).toBe(VAULT_ERRORS.length);
    expect(VAULT_ERRORS.at(-1)?.code).toBe(6021);
  });

  it("defines the withdrawal-cap errors exactly", () => {
    expect(vaultErrorFromCode(6020)).toEqual({
      code: 6020,
      name: "HourlyWithdrawalCapExceeded",
      message: "The hourly net-withdrawal cap would be exceeded",
    });
    expect(vaultErrorFromCode(6021)).toEqual({
      code: 6021,
      name: "DailyWithdrawalCapExceeded",
      message: "The daily net-withdrawal cap would be exceeded",
    });
    expect(vaultErrorFromCode(6022)).toBeUndefined();
  });

  it("lays out the accounts at the README's sizes", () => {
    expect(VAULT_ACCOUNT_SIZE).toBe(441);
    expect(WITHDRAWAL_RECEIPT_ACCOUNT_SIZE).toBe(129);
  });

  it("declares an event type for every event lib/vault decodes", () => {
    expect(vaultIdl.events.map((event) => event.name).sort()).toEqual([...VAULT_EVENT_NAMES].sort());
  });
});

describe("the IDL against the built program", () => {
  function expectOk(outcome: TransactionOutcome): TransactionOutcome {
    expect(outcome.err, outcome.logs.join("\n")).toBeNull();
    return outcome;
  }

  it("executes every instruction encoded by the coder, and every account and event it writes decodes", () => {
    const chain = TestChain.create();
    const seenEvents = new Set<VaultEventName>();
    const executed = new Set<string>();
    const record = (outcome: TransactionOutcome): void => {
      for (const event of decodeVaultEvents(outcome.logs)) {
        seenEvents.add(event.name);
      }
    };
    const expectVaultDecodes = (vault: TestVault): void => {
      const raw = chain.readAccount(vault.key);
      expect(raw?.data.length).toBe(VAULT_ACCOUNT_SIZE);
      expect(vault.state().manager.equals(vault.manager.publicKey)).toBe(true);
    };

    const { vault, outcome: initialized } = TestVault.create(chain, { feeBps: 25 });
    record(expectOk(initialized));
    executed.add("initialize_vault");
    expectVaultDecodes(vault);

    const member = vault.addMember(1_000_000n);
    const steps: [string, () => TransactionOutcome][] = [
      ["deposit", () => vault.deposit(member, 1_000_000n)],
      ["request_withdrawal", () => vault.requestWithdrawal(member, 400_000n)],
      ["update_nav", () => vault.updateNav(0n, 0n)],
      ["stage_withdrawals", () => vault.stageWithdrawals(400_000n)],
      ["claim_withdrawal", () => vault.claimWithdrawal(member)],
      ["update_config", () => vault.updateConfig({ feeBps: 10, paused: false })],
    ];
    for (const [name, step] of steps) {
      record(expectOk(step()));
      executed.add(name);
      expectVaultDecodes(vault);
      if (name === "request_withdrawal") {
        expect(chain.readAccount(member.receipt)?.data.length).toBe(WITHDRAWAL_RECEIPT_ACCOUNT_SIZE);
        expect(vault.receiptOf(member)?.owner.equals(member.publicKey)).toBe(true);
      }
    }

    expect([...executed].sort()).toEqual([...VAULT_INSTRUCTION_NAMES].sort());
    expect([...seenEvents].sort()).toEqual([...VAULT_EVENT_NAMES].sort());
  });

  it("builds instruction data the coder decodes back to the same instruction and arguments", () => {
    const chain = TestChain.create();
    const { vault } = TestVault.create(chain);
    const member = vault.addMember(10n);
    const decoded = vaultCoder.instruction.decode(Buffer.from(vault.depositInstruction(member, 7n, 3n).data));
    expect(decoded?.name).toBe("deposit");
    const args = Object.entries(decoded?.data ?? {}).map(([name, value]) => [name, String(value)]);
    expect(args).toEqual([
      ["amount", "7"],
      ["min_shares_out", "3"],
    ]);
  });
});

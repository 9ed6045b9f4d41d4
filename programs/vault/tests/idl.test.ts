// The IDL is the contract between the program and TypeScript: its discriminators, errors and sizes are
// checked from first principles, then every instruction, account and event goes through the coder
// against the built program.
import { createHash } from "node:crypto";

import { PublicKey } from "@solana/web3.js";
import { describe, expect, it } from "vitest";

import { VAULT_EVENT_NAMES } from "../../../lib/vault/program/events";
import {
  VAULT_ACCOUNT_SIZE,
  QUEUE_HOLES_ACCOUNT_SIZE,
  VAULT_INSTRUCTION_NAMES,
  WITHDRAWAL_RECEIPT_ACCOUNT_SIZE,
  vaultIdl,
} from "../../../lib/vault/program/idl";
import { VAULT_ERRORS, vaultErrorFromCode } from "../../../lib/vault/program/program-errors";
import { vaultCoder } from "../../../tests/fixtures/anchor-coder";
import idlJson from "../idl.json";
import { TestChain, type TransactionOutcome } from "./harness";
import { decodeProgramEvents } from "./program-client";
import { TestProtocol, TestVault } from "./vault-fixture";

/** What this change added to the IDL, beyond what lib/vault builds and decodes today. */
const PROTOCOL_INSTRUCTION_NAMES = [
  "initialize_protocol",
  "propose_admin",
  "accept_admin",
  "set_nav_bounds",
  "propose_manager",
  "accept_manager",
];
const PROTOCOL_EVENT_NAMES = [
  "ProtocolInitialized",
  "AdminProposed",
  "AdminAccepted",
  "NavBoundsUpdated",
  "ManagerProposed",
  "ManagerAccepted",
  "SurplusRetained",
];

function anchorDiscriminator(preimage: string): number[] {
  return [...createHash("sha256").update(preimage).digest().subarray(0, 8)];
}

describe("the vault IDL", () => {
  it("names the instructions lib/vault builds and the protocol's own", () => {
    expect(vaultIdl.instructions.map((instruction) => instruction.name).sort()).toEqual(
      [...new Set([...VAULT_INSTRUCTION_NAMES, ...PROTOCOL_INSTRUCTION_NAMES])].sort(),
    );
  });

  it("declares the protocol PDA and the vault PDA under it", () => {
    const seedsOf = (instruction: string, account: string): unknown =>
      (idlJson.instructions.find((candidate) => candidate.name === instruction)?.accounts ?? []).find(
        (candidate) => candidate.name === account,
      );
    expect(seedsOf("initialize_protocol", "protocol")).toMatchObject({
      pda: {
        seeds: [
          { kind: "const", value: [...Buffer.from("protocol")] },
          { kind: "account", path: "creator" },
        ],
      },
    });
    expect(seedsOf("initialize_vault", "vault")).toMatchObject({
      pda: {
        seeds: [
          { kind: "const", value: [...Buffer.from("vault")] },
          { kind: "account", path: "protocol" },
          { kind: "arg", path: "index" },
        ],
      },
    });
    expect(seedsOf("initialize_vault", "admin")).toEqual({ name: "admin", signer: true });
    expect(seedsOf("update_nav", "protocol")).toEqual({ name: "protocol" });
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
    expect(VAULT_ERRORS.at(-1)?.code).toBe(6035);
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
    expect(vaultErrorFromCode(6022)?.name).toBe("NavGainAboveBound");
    expect(vaultErrorFromCode(6023)?.name).toBe("NavLossAboveBound");
    expect(vaultErrorFromCode(6024)?.name).toBe("NavStrikeTooSoon");
    expect(vaultErrorFromCode(6025)?.name).toBe("VaultIndexMismatch");
    expect(vaultErrorFromCode(6026)?.name).toBe("FeeAboveMaximum");
    expect(vaultErrorFromCode(6027)?.name).toBe("NavGainAboveRate");
    expect(vaultErrorFromCode(6028)?.name).toBe("NavLossAboveRate");
    expect(vaultErrorFromCode(6029)?.name).toBe("QueueHolesFull");
    expect(vaultErrorFromCode(6030)?.name).toBe("CapBelowFloor");
    expect(vaultErrorFromCode(6031)?.name).toBe("NoConfigDue");
    expect(vaultErrorFromCode(6032)?.name).toBe("PauseCooldown");
    expect(vaultErrorFromCode(6033)?.name).toBe("NotAssociatedTokenAccount");
    expect(vaultErrorFromCode(6034)?.name).toBe("SmallRequestCannotLeaveQueue");
    expect(vaultErrorFromCode(6035)?.name).toBe("PartnerFeeAboveMaximum");
    expect(vaultErrorFromCode(6036)).toBeUndefined();
  });

  it("lays out the accounts at the README's sizes", () => {
    expect(VAULT_ACCOUNT_SIZE).toBe(514);
    expect(WITHDRAWAL_RECEIPT_ACCOUNT_SIZE).toBe(132);
    expect(vaultCoder.accounts.size("Protocol")).toBe(185);
    expect(QUEUE_HOLES_ACCOUNT_SIZE).toBe(298);
  });

  it("declares an event type for every event lib/vault decodes and the protocol's own", () => {
    expect(vaultIdl.events.map((event) => event.name).sort()).toEqual(
      [...new Set([...VAULT_EVENT_NAMES, ...PROTOCOL_EVENT_NAMES])].sort(),
    );
  });
});

describe("the IDL against the built program", () => {
  function expectOk(outcome: TransactionOutcome): TransactionOutcome {
    expect(outcome.err, outcome.logs.join("\n")).toBeNull();
    return outcome;
  }

  it("executes every instruction encoded by the coder, and every account and event it writes decodes", () => {
    const chain = TestChain.create();
    const seenEvents = new Set<string>();
    const executed = new Set<string>();
    const record = (outcome: TransactionOutcome): void => {
      for (const event of decodeProgramEvents(outcome.logs)) {
        seenEvents.add(event.name);
      }
    };
    const expectVaultDecodes = (vault: TestVault): void => {
      const raw = chain.readAccount(vault.key);
      expect(raw?.data.length).toBe(VAULT_ACCOUNT_SIZE);
      expect(vault.state().manager.equals(vault.manager.publicKey)).toBe(true);
      expect(vault.registration().protocol.equals(vault.protocol.key)).toBe(true);
    };

    const { protocol, outcome: created } = TestProtocol.create(chain);
    record(expectOk(created));
    executed.add("initialize_protocol");
    expect(protocol.state().admin.equals(protocol.admin.publicKey)).toBe(true);

    const { vault, outcome: initialized } = TestVault.create(chain, { feeBps: 25 }, { protocol });
    record(expectOk(initialized));
    executed.add("initialize_vault");
    expectVaultDecodes(vault);

    const member = vault.addMember(1_000_000n);
    const partner = vault.addPartner();
    const nextManager = chain.createFundedKeypair();
    const nextAdmin = chain.createFundedKeypair();
    const steps: [string, () => TransactionOutcome][] = [
      ["deposit", () => vault.deposit(member, 1_000_000n)],
      // Every share: the claim empties the vault and retains the fee as surplus.
      ["request_withdrawal", () => vault.requestWithdrawal(member, 1_000_000_000n)],
      // The cancel burns the 25 bps fee in shares (2,500,000 of them); the rest come back.
      ["cancel_withdrawal", () => vault.cancelWithdrawal(member)],
      ["request_withdrawal", () => vault.requestWithdrawal(member, 997_500_000n)],
      ["update_nav", () => vault.updateNav(0n, 0n)],
      ["stage_withdrawals", () => vault.stageWithdrawals(1_000_000_000n)],
      ["claim_withdrawal", () => vault.claimWithdrawal(member)],
      ["set_max_partner_fee", () => protocol.setMaxPartnerFee(50)],
      // 100,000 at 25 bps: 250 to the partner's ATA, 99,750 deposited.
      ["deposit_with_partner_fee", () => vault.depositWithPartnerFee(member, partner, 100_000n, 25)],
      // 25 → 30 bps hurts holders: scheduled (ConfigScheduled), applied by anyone 3 days later.
      ["update_config", () => vault.updateConfig({ feeBps: 30, paused: false })],
      [
        "apply_config",
        () => {
          chain.warpBy(259_200n);
          return vault.applyConfig();
        },
      ],
      [
        "set_vault_periods",
        () => vault.setVaultPeriods({ configNoticeSeconds: 86_400, silenceSeconds: 86_400 }),
      ],
      ["set_admin_pause", () => vault.setAdminPause(chain.now() + 86_400n)],
      [
        "set_nav_bounds",
        () =>
          protocol.setNavBounds({
            maxGainBps: 5,
            maxLossBps: 100,
            minNavIntervalSeconds: 30,
            maxAnnualGainBps: 10_000,
            maxDailyLossBps: 1_000,
          }),
      ],
      [
        "propose_manager",
        () =>
          chain.send(
            [vault.proposeManagerInstruction(vault.manager.publicKey, nextManager.publicKey)],
            [vault.manager],
          ),
      ],
      [
        "accept_manager",
        () => chain.send([vault.acceptManagerInstruction(nextManager.publicKey)], [nextManager]),
      ],
      [
        "propose_admin",
        () => chain.send([protocol.proposeAdminInstruction(nextAdmin.publicKey)], [protocol.admin]),
      ],
      ["accept_admin", () => chain.send([protocol.acceptAdminInstruction(nextAdmin.publicKey)], [nextAdmin])],
    ];
    for (const [name, step] of steps) {
      record(expectOk(step()));
      executed.add(name);
      expect(chain.readAccount(vault.key)?.data.length).toBe(VAULT_ACCOUNT_SIZE);
      if (name === "request_withdrawal") {
        expect(chain.readAccount(member.receipt)?.data.length).toBe(WITHDRAWAL_RECEIPT_ACCOUNT_SIZE);
        expect(vault.receiptOf(member)?.owner.equals(member.publicKey)).toBe(true);
        expect(vault.receiptFeeOf(member)).toBe(25);
      }
    }
    expect(vault.state().manager.equals(nextManager.publicKey)).toBe(true);
    expect(protocol.state()).toMatchObject({
      admin: nextAdmin.publicKey,
      pendingAdmin: PublicKey.default,
      maxGainBps: 5,
      maxLossBps: 100,
      minNavIntervalSeconds: 30,
      vaultCount: 1n,
      maxPartnerFeeBps: 50,
    });
    expect(chain.tokenBalance(partner.assetAccount)).toBe(250n);

    expect([...executed].sort()).toEqual(vaultIdl.instructions.map((instruction) => instruction.name).sort());
    expect([...seenEvents].sort()).toEqual(vaultIdl.events.map((event) => event.name).sort());
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

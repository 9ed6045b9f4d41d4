// Property test: random operation sequences run on the program and on the BigInt model in model.ts;
// after every step the outcome (success, or the exact custom error) and the whole observable state
// (vault fields, receipts, share supply, reserve, escrow, wallet balances) must agree.
import { describe, expect, it } from "vitest";
import type { Keypair } from "@solana/web3.js";

import type { VaultState, ReceiptState } from "../../../lib/vault/program/accounts";
import { findQueueHoles } from "../../../lib/vault/program/addresses";
import { QUEUE_HOLES_ACCOUNT_SIZE } from "../../../lib/vault/program/idl";
import { TestChain, type TransactionOutcome } from "./harness";
import {
  CONFIG_NOTICE_SECONDS,
  MAX_MIN_WITHDRAWAL_SHARES,
  MAX_ADMIN_PAUSE_SECONDS,
  MAX_PAUSE_SECONDS,
  MAX_PARTNER_FEE_BPS,
  U64_MAX,
  applyDueConfig,
  applyOperation,
  configEases,
  currentConfig,
  initializeModel,
  partnerFee,
  pausedAt,
  SILENCE_SECONDS,
  stagingSilent,
  sharesForDeposit,
  strikeLimits,
  valueOfShares,
  valueOfSharesRoundedUp,
  withdrawalFee,
  type ConfigUpdateInput,
  type ModelOperation,
  type ModelReceipt,
  type ModelState,
  type ModelVault,
  type ModelWallet,
} from "./model";
import { SeededRandom } from "./seeded-random";
import { buildMintToInstruction } from "../../../lib/chain/spl-token";
import { decodeProgramEvents } from "./program-client";
import { OPEN_NAV_BOUNDS, TestVault, type Member, type Partner, type VaultSettings } from "./vault-fixture";

const SEEDS = 20;
const STEPS_PER_SEED = 60;
const WALLETS = 6;
/** Partners the runs' deposit_with_partner_fee pays (two, so one holder deposits through both). */
const PARTNERS = 2;
const HOUR = 3600n;
const DAY = 86_400n;

function randomSettings(random: SeededRandom): VaultSettings {
  return {
    name: `Vault ${random.integer(1000)}`,
    feeBps: random.chance(0.2) ? 0 : random.integer(1001),
    minWithdrawalShares: random.chance(0.5) ? 0n : random.bigintBetween(1n, 5_000n),
    hourlyCap: random.chance(0.4) ? 0n : random.bigintBetween(200_000n, 3_000_000n),
    dailyCap: random.chance(0.4) ? 0n : random.bigintBetween(500_000n, 8_000_000n),
  };
}

function randomName(random: SeededRandom): string {
  const length = random.weighted([
    [0, 1],
    [random.integer(32) + 1, 8],
    [32, 1],
    [33 + random.integer(2), 1],
  ] as const);
  return Array.from({ length }, () => String.fromCharCode(97 + random.integer(26))).join("");
}

function nextBoundary(now: bigint, length: bigint): bigint {
  return now - (now % length) + length;
}

/** The shares a deposit would mint, or 0 when the model refuses it. */
function previewShares(vault: ModelVault, amount: bigint): bigint {
  try {
    return sharesForDeposit(vault, amount);
  } catch {
    return 0n;
  }
}

/** The next operation, biased towards boundaries the model says are interesting. */
function randomOperation(random: SeededRandom, state: ModelState, now: bigint): ModelOperation {
  const { vault } = state;
  // A request not yet funded with another behind it: cancelling it leaves a hole in the queue.
  const unfundedInside = (candidate: ModelWallet): boolean =>
    candidate.receipt !== null &&
    candidate.receipt.queueStart > vault.queueFunded &&
    candidate.receipt.queueEnd < vault.queueTail;
  const waitedTheSilence = (candidate: ModelWallet): boolean =>
    candidate.receipt !== null &&
    candidate.receipt.queueEnd > vault.queueFunded &&
    now >= candidate.receipt.requestedAt + SILENCE_SECONDS;
  const kind = random.weighted([
    ["deposit", 25],
    ["depositWithPartnerFee", 12],
    ["setMaxPartnerFee", 2],
    ["requestWithdrawal", 30],
    ["claimWithdrawal", 15],
    ["cancelWithdrawal", state.wallets.some(unfundedInside) ? 40 : 4],
    ["updateNav", 10],
    ["stageWithdrawals", 12],
    // Strangers try the hatch mostly once a request has waited the silence period.
    ["stageWithdrawalsByStranger", state.wallets.some(waitedTheSilence) ? 40 : 4],
    ["updateConfig", 6],
    ["setAdminPause", 2],
    ["receiveYield", 4],
    ["warp", 8],
  ] as const);
  // Mostly a wallet for which the operation can succeed, sometimes any wallet.
  const walletWhere = (fits: (wallet: ModelWallet) => boolean): number => {
    const fitting = state.wallets.flatMap((wallet, index) => (fits(wallet) ? [index] : []));
    return fitting.length > 0 && random.chance(0.85) ? random.pick(fitting) : random.integer(WALLETS);
  };
  const holdingsOf = (wallet: number): ModelWallet =>
    state.wallets[wallet] ?? { assets: 0n, shares: 0n, receipt: null };
  switch (kind) {
    case "deposit": {
      const wallet = walletWhere((candidate) => candidate.assets > 0n);
      const holdings = holdingsOf(wallet);
      // Never more than the wallet holds: the token program's own refusal is not the vault's semantics.
      const amount = random.weighted([
        [0n, 1],
        [holdings.assets < 3n ? holdings.assets : random.bigintBetween(1n, 3n), 2],
        [holdings.assets === 0n ? 0n : random.bigintBetween(1n, holdings.assets), 14],
        [holdings.assets, 1],
      ] as const);
      const expectedShares = previewShares(vault, amount);
      const minSharesOut = random.weighted([
        [0n, 15],
        [expectedShares, 3],
        [expectedShares + 1n, 2],
      ] as const);
      return { kind, wallet, amount, minSharesOut };
    }
    case "depositWithPartnerFee": {
      const wallet = walletWhere((candidate) => candidate.assets > 0n);
      const holdings = holdingsOf(wallet);
      // Amounts where rounding shows (below 10000 / bps the fee is 0), and any amount the wallet holds.
      const amount = random.weighted([
        [0n, 1],
        [
          holdings.assets === 0n
            ? 0n
            : random.bigintBetween(1n, holdings.assets < 400n ? holdings.assets : 400n),
          3,
        ],
        [holdings.assets === 0n ? 0n : random.bigintBetween(1n, holdings.assets), 12],
        [holdings.assets, 1],
      ] as const);
      // Mostly within the protocol's maximum, at it, just above it, 0, or at and above the ceiling.
      const maximum = state.maxPartnerFeeBps;
      const feeBps = random.weighted([
        [maximum === 0 ? 0 : 1 + random.integer(maximum), 10],
        [maximum, 3],
        [maximum + 1, 2],
        [0, 1],
        [MAX_PARTNER_FEE_BPS + 1 + random.integer(10_000), 1],
      ] as const);
      const netShares = previewShares(vault, amount - partnerFee(amount, feeBps));
      // The shares of the gross amount are what a depositor who forgot the fee would ask for.
      const minSharesOut = random.weighted([
        [0n, 12],
        [netShares, 3],
        [netShares + 1n, 2],
        [previewShares(vault, amount), 1],
      ] as const);
      return { kind, wallet, partner: random.integer(PARTNERS), amount, minSharesOut, feeBps };
    }
    case "setMaxPartnerFee": {
      const maxPartnerFeeBps = random.weighted([
        [random.integer(MAX_PARTNER_FEE_BPS + 1), 6],
        [MAX_PARTNER_FEE_BPS, 2],
        [MAX_PARTNER_FEE_BPS + 1, 1],
        [0, 1],
        [65_535, 1],
      ] as const);
      return { kind, maxPartnerFeeBps, byAdmin: random.chance(0.8) };
    }
    case "requestWithdrawal": {
      const wallet = walletWhere((candidate) => candidate.receipt === null && candidate.shares > 0n);
      const holdings = holdingsOf(wallet);
      const belowMinimum = vault.minWithdrawalShares > 0n ? vault.minWithdrawalShares - 1n : 0n;
      const shares = random.weighted([
        [0n, 1],
        [belowMinimum < holdings.shares ? belowMinimum : holdings.shares, 2],
        [holdings.shares === 0n ? 0n : random.bigintBetween(1n, holdings.shares), 14],
        [holdings.shares, 6],
      ] as const);
      // Mostly the fee the holder was shown; sometimes a fee raised since then, or any fee at all.
      const maxFeeBps = random.weighted([
        [vault.feeBps, 12],
        [vault.feeBps > 0 ? vault.feeBps - 1 : 0, 2],
        [random.integer(1001), 2],
        [65_535, 1],
      ] as const);
      return { kind, wallet, shares, maxFeeBps };
    }
    case "claimWithdrawal":
      return { kind, wallet: walletWhere((candidate) => candidate.receipt !== null) };
    case "cancelWithdrawal": {
      // Often a request inside the queue and not yet funded: the case that leaves a hole.
      const fits = random.chance(0.6) && state.wallets.some(unfundedInside) ? unfundedInside : null;
      return {
        kind,
        wallet: walletWhere(fits ?? ((candidate) => candidate.receipt !== null)),
      };
    }
    case "updateNav": {
      // Mostly within the bounds (per strike and over time), often right at them, sometimes beyond.
      const limits = strikeLimits(vault, state.bounds, now);
      const gain = random.weighted([
        [0n, 8],
        [limits.gain === 0n ? 0n : random.bigintBetween(1n, limits.gain), 7],
        [limits.gain, 4],
        [limits.gain + 1n, 2],
        // Paper gains far beyond the bounds: refused, whatever the key.
        [vault.totalAssets * 10n + 1_000n, 1],
      ] as const);
      const loss = random.weighted([
        [0n, 10],
        [limits.loss === 0n ? 0n : random.bigintBetween(1n, limits.loss), 6],
        [limits.loss, 2],
        [limits.loss + 1n, 2],
        [vault.totalAssets + gain + 1n, 1],
      ] as const);
      return { kind, gain, loss };
    }
    case "stageWithdrawalsByStranger": {
      // Mostly naming the oldest receipt not wholly funded (the head of the queue), sometimes another
      // wallet or none.
      const waiting = state.wallets
        .flatMap((wallet, index) =>
          wallet.receipt !== null && wallet.receipt.queueEnd > vault.queueFunded
            ? [[index, wallet.receipt] as const]
            : [],
        )
        .sort(([, a], [, b]) => (a.requestId < b.requestId ? -1 : 1));
      const oldest = waiting[0]?.[0] ?? null;
      const head = random.weighted([
        [oldest, 8],
        [random.integer(WALLETS), 2],
        [null, 1],
      ] as const);
      return { kind, maxShares: random.chance(0.8) ? U64_MAX : random.bigintBetween(1n, 1_000_000n), head };
    }
    case "stageWithdrawals": {
      const queued = vault.queueTail - vault.queueFunded;
      const maxShares = random.weighted([
        [0n, 1],
        [U64_MAX, 5],
        // Part of the queue, so requests wait unfunded behind funded ones (where cancels leave holes).
        [random.bigintBetween(1n, queued + 10n), 9],
      ] as const);
      return { kind, maxShares };
    }
    case "updateConfig": {
      const update: ConfigUpdateInput = {};
      if (random.chance(0.4)) {
        update.feeBps = random.chance(0.15) ? 1001 + random.integer(100) : random.integer(1001);
      }
      if (random.chance(0.3)) {
        update.minWithdrawalShares = random.weighted([
          [0n, 5],
          [random.bigintBetween(1n, 5_000n), 5],
          [MAX_MIN_WITHDRAWAL_SHARES, 1],
          [MAX_MIN_WITHDRAWAL_SHARES + 1n, 1],
        ] as const);
      }
      if (random.chance(0.4)) {
        update.hourlyCap = random.chance(0.4) ? 0n : random.bigintBetween(100_000n, 3_000_000n);
      }
      if (random.chance(0.4)) {
        update.dailyCap = random.weighted([
          [0n, 4],
          [random.bigintBetween(300_000n, 8_000_000n), 6],
          // Below the floor (1% of NAV) once the vault holds more than 100,000.
          [random.bigintBetween(1n, 1_000n), 1],
        ] as const);
      }
      // Pausing is rare and short-lived, so paused vaults do not starve the rest of the run.
      if (vault.paused ? random.chance(0.8) : random.chance(0.3)) {
        update.paused = !vault.paused && random.chance(0.5);
      }
      if (random.chance(0.2)) {
        update.name = randomName(random);
      }
      return { kind, update };
    }
    case "setAdminPause": {
      // Mostly a hold within the 30 days or a lift; sometimes past the bound, sometimes not the admin.
      const until = random.weighted([
        [now + random.bigintBetween(1n, MAX_ADMIN_PAUSE_SECONDS), 4],
        [now + MAX_ADMIN_PAUSE_SECONDS, 1],
        [now + MAX_ADMIN_PAUSE_SECONDS + 1n, 1],
        [0n, 4],
        [now, 1],
      ] as const);
      return { kind, until, byAdmin: random.chance(0.85) };
    }
    case "receiveYield":
      return { kind, amount: random.bigintBetween(1n, 200_000n) };
    case "warp": {
      // The hatch's boundary: the oldest receipt not wholly funded reaching the silence period (a
      // second before, or at it), whatever the manager struck or staged meanwhile.
      const waitingSince = state.wallets
        .flatMap((wallet) =>
          wallet.receipt !== null && wallet.receipt.queueEnd > vault.queueFunded
            ? [wallet.receipt.requestedAt]
            : [],
        )
        .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))[0];
      const hatchAt =
        waitingSince !== undefined && waitingSince + SILENCE_SECONDS > now
          ? waitingSince + SILENCE_SECONDS
          : now + 1n;
      const target = random.weighted([
        [hatchAt - 1n > now ? hatchAt - 1n : now + 1n, 1],
        [hatchAt, 4],
        [now + random.bigintBetween(1n, 600n), 4],
        [nextBoundary(now, HOUR) - 1n, 1],
        [nextBoundary(now, HOUR), 2],
        [nextBoundary(now, DAY) - 1n, 1],
        [nextBoundary(now, DAY), 1],
        [now + random.bigintBetween(HOUR, 10n * HOUR), 1],
        // A day or more without a strike: the most the bounds over time let one strike catch up.
        [now + DAY + random.bigintBetween(0n, DAY), 1],
        // Through a config's notice (3 days), and rarely through the manager's silence (7 days).
        [now + 3n * DAY + random.bigintBetween(0n, DAY), 1],
        [now + 7n * DAY + random.bigintBetween(0n, DAY), 1],
      ] as const);
      return { kind, seconds: target - now };
    }
  }
}

/**
 * Anyone's close_queue_holes after a step, drawn from its own stream (`random`) so the main sequence of
 * operations is the one it was before close_queue_holes existed: mostly once staging or a cancel has
 * emptied the list, sometimes while holes remain or with no list; mostly naming the payer it records.
 */
function randomClose(random: SeededRandom, state: ModelState): ModelOperation | null {
  const chance = state.holes === null ? 0.03 : state.holes.length === 0 ? 0.7 : 0.15;
  if (!random.chance(chance)) return null;
  const recorded = state.holesPayer !== null && state.holesPayer >= 0 ? state.holesPayer : null;
  const payer = recorded !== null && random.chance(0.8) ? recorded : random.integer(WALLETS);
  return { kind: "closeQueueHoles", payer };
}

const EVENT_OF: Partial<Record<ModelOperation["kind"], string>> = {
  deposit: "Deposited",
  depositWithPartnerFee: "Deposited",
  setMaxPartnerFee: "MaxPartnerFeeUpdated",
  requestWithdrawal: "WithdrawalRequested",
  claimWithdrawal: "WithdrawalClaimed",
  cancelWithdrawal: "WithdrawalCancelled",
  updateNav: "NavUpdated",
  stageWithdrawals: "WithdrawalsStaged",
  stageWithdrawalsByStranger: "WithdrawalsStaged",
  updateConfig: "ConfigUpdated",
  setAdminPause: "ConfigUpdated",
};

function memberAt(members: readonly Member[], index: number): Member {
  const member = members[index];
  if (member === undefined) {
    throw new Error(`No member ${index}`);
  }
  return member;
}

const strangers = new WeakMap<TestVault, Keypair>();

/** One funded wallet per vault that is neither its manager nor a holder: who uses the silence hatch. */
function stranger(vault: TestVault): Keypair {
  let keypair = strangers.get(vault);
  if (keypair === undefined) {
    keypair = vault.chain.createFundedKeypair();
    strangers.set(vault, keypair);
  }
  return keypair;
}

/** Runs the operation on the chain; null for operations that send no vault instruction. */
function execute(
  vault: TestVault,
  members: readonly Member[],
  partners: readonly Partner[],
  operation: ModelOperation,
): TransactionOutcome | null {
  const { chain } = vault;
  switch (operation.kind) {
    case "deposit":
      return vault.deposit(memberAt(members, operation.wallet), operation.amount, operation.minSharesOut);
    case "depositWithPartnerFee": {
      const partner = partners[operation.partner];
      if (partner === undefined) throw new Error(`No partner ${operation.partner}`);
      return vault.depositWithPartnerFee(
        memberAt(members, operation.wallet),
        partner,
        operation.amount,
        operation.feeBps,
        { minSharesOut: operation.minSharesOut },
      );
    }
    case "setMaxPartnerFee":
      return vault.protocol.setMaxPartnerFee(
        operation.maxPartnerFeeBps,
        operation.byAdmin ? vault.protocol.admin : vault.manager,
      );
    case "requestWithdrawal":
      return vault.requestWithdrawal(
        memberAt(members, operation.wallet),
        operation.shares,
        operation.maxFeeBps,
      );
    case "claimWithdrawal":
      return vault.claimWithdrawal(memberAt(members, operation.wallet));
    case "cancelWithdrawal":
      return vault.cancelWithdrawal(memberAt(members, operation.wallet));
    case "updateNav":
      return vault.updateNav(operation.gain, operation.loss);
    case "stageWithdrawals":
      return vault.stageWithdrawals(operation.maxShares);
    case "stageWithdrawalsByStranger":
      return vault.stageWithdrawalsBy(
        stranger(vault),
        operation.maxShares,
        operation.head === null ? undefined : memberAt(members, operation.head),
      );
    case "updateConfig":
      return vault.updateConfig(operation.update);
    case "setAdminPause":
      return vault.setAdminPause(operation.until, operation.byAdmin ? vault.protocol.admin : vault.manager);
    case "receiveYield":
      chain.sendOrThrow(
        [
          buildMintToInstruction(
            chain.assetMint,
            vault.addresses.reserve,
            chain.mintAuthority.publicKey,
            operation.amount,
          ),
        ],
        [chain.mintAuthority],
      );
      return null;
    case "warp":
      chain.warpBy(operation.seconds);
      return null;
    case "closeQueueHoles":
      return vault.closeQueueHoles(memberAt(members, operation.payer).publicKey);
  }
}

function projectVault(vault: TestVault, account: VaultState): ModelVault {
  return {
    paused: account.paused,
    name: account.name,
    feeBps: account.feeBps,
    minWithdrawalShares: account.minWithdrawalShares,
    hourlyCap: account.hourlyCap,
    dailyCap: account.dailyCap,
    totalAssets: account.totalAssets,
    totalShares: account.totalShares,
    navSequence: account.navSequence,
    navUpdatedAt: account.navUpdatedAt,
    hourlyWindowStart: account.hourlyWindowStart,
    hourlyUsed: account.hourlyUsed,
    dailyWindowStart: account.dailyWindowStart,
    dailyUsed: account.dailyUsed,
    queueTail: account.queueTail,
    queueFunded: account.queueFunded,
    queueClaimed: account.queueClaimed,
    nextRequestId: account.nextRequestId,
    pendingRequests: account.pendingRequests,
    surplusAssets: vault.registration().surplusAssets,
    pendingFeeBps: account.pendingFeeBps,
    pendingMinWithdrawalShares: account.pendingMinWithdrawalShares,
    pendingHourlyCap: account.pendingHourlyCap,
    pendingDailyCap: account.pendingDailyCap,
    pendingEffectiveAt: account.pendingEffectiveAt,
    stagedAt: account.stagedAt,
    pauseUntil: account.pauseUntil,
    adminPaused: account.adminPaused,
  };
}

function projectReceipt(account: ReceiptState | null, feeBps: number | null): ModelReceipt | null {
  if (account === null || feeBps === null) {
    return null;
  }
  const { shares, assetsAtRequest, navFloor, requestId, requestedAt, queueStart, queueEnd, lastHolderExit } =
    account;
  return {
    shares,
    assetsAtRequest,
    navFloor,
    requestId,
    requestedAt,
    queueStart,
    queueEnd,
    feeBps,
    lastHolderExit,
  };
}

/** The member the hole list records as its payer (-1 for anyone else); null while there is no list. */
function holesPayerIndex(vault: TestVault, members: readonly Member[]): number | null {
  if (vault.queueHoles() === null) return null;
  const payer = vault.queueHolesPayer();
  return members.findIndex((member) => member.publicKey.equals(payer));
}

/**
 * The hole list's rent: the list exists exactly while the model has one, holding exactly the rent of
 * its 330 bytes (nobody takes from it or adds to it), and a close returns every lamport of it to the
 * wallet that paid it.
 */
function expectHoleListRent(
  vault: TestVault,
  state: ModelState,
  context: string,
  close?: { payerLamportsBefore: bigint; payerLamportsAfter: bigint },
): void {
  const rent = vault.chain.rentExemptBalance(QUEUE_HOLES_ACCOUNT_SIZE);
  const list = vault.chain.readAccount(findQueueHoles(vault.key));
  expect(
    list === null ? null : list.lamports,
    `${context}\nthe hole list's lamports (${state.holes?.length ?? "no"} holes)`,
  ).toBe(state.holes === null ? null : rent);
  if (close !== undefined) {
    expect(
      close.payerLamportsAfter - close.payerLamportsBefore,
      `${context}\nthe rent back to the list's payer`,
    ).toBe(rent);
  }
}

function observedState(
  vault: TestVault,
  members: readonly Member[],
  partners: readonly Partner[],
): ModelState {
  const { chain } = vault;
  const protocol = vault.protocol.state();
  return {
    bounds: {
      maxGainBps: protocol.maxGainBps,
      maxLossBps: protocol.maxLossBps,
      minNavIntervalSeconds: protocol.minNavIntervalSeconds,
      maxAnnualGainBps: protocol.maxAnnualGainBps,
      maxDailyLossBps: protocol.maxDailyLossBps,
    },
    vault: projectVault(vault, vault.state()),
    holes: vault.queueHoles(),
    holesPayer: holesPayerIndex(vault, members),
    reserve: vault.reserveBalance(),
    escrow: vault.escrowBalance(),
    shareSupply: vault.shareSupply(),
    wallets: members.map((member) => ({
      assets: chain.tokenBalance(member.assetAccount),
      shares: chain.tokenBalance(member.shareAccount),
      receipt: projectReceipt(vault.receiptOf(member), vault.receiptFeeOf(member)),
    })),
    maxPartnerFeeBps: protocol.maxPartnerFeeBps,
    partners: partners.map((partner) => chain.tokenBalance(partner.assetAccount)),
  };
}

/** Every asset unit the wallets, the partners and the reserve hold. */
function assetsHeld(state: ModelState): bigint {
  const wallets = state.wallets.reduce((sum, wallet) => sum + wallet.assets, 0n);
  const partners = state.partners.reduce((sum, balance) => sum + balance, 0n);
  return wallets + partners + state.reserve;
}

/**
 * On the chain as observed (not the model): the assets are conserved (only yield from outside adds
 * any), and a deposit with a partner fee moves exactly floor(amount × bps / 10000) to its partner's
 * ATA, amount − fee to the reserve (and NAV), and nothing to any other partner.
 */
function expectAssetsConserved(
  before: ModelState,
  after: ModelState,
  operation: ModelOperation,
  succeeded: boolean,
  context: string,
): { feePaid: bigint } {
  const added = operation.kind === "receiveYield" ? operation.amount : 0n;
  expect(
    assetsHeld(after),
    `${context}
assets not conserved`,
  ).toBe(assetsHeld(before) + added);
  if (operation.kind !== "depositWithPartnerFee" || !succeeded) return { feePaid: 0n };
  const fee = partnerFee(operation.amount, operation.feeBps);
  expect(
    fee * 10_000n,
    `${context}
fee above the bps`,
  ).toBeLessThanOrEqual(operation.amount * BigInt(operation.feeBps));
  after.partners.forEach((balance, index) => {
    const gained = balance - (before.partners[index] ?? 0n);
    expect(
      gained,
      `${context}
partner ${index}'s ATA`,
    ).toBe(index === operation.partner ? fee : 0n);
  });
  expect(
    after.reserve - before.reserve,
    `${context}
reserve`,
  ).toBe(operation.amount - fee);
  expect(
    after.vault.totalAssets - before.vault.totalAssets,
    `${context}
total_assets`,
  ).toBe(operation.amount - fee);
  expect(
    (before.wallets[operation.wallet]?.assets ?? 0n) - (after.wallets[operation.wallet]?.assets ?? 0n),
    `${context}
depositor paid`,
  ).toBe(operation.amount);
  return { feePaid: fee };
}

/** What a wallet could redeem at the current NAV: its shares and those escrowed in its receipt. */
function redeemableValue(state: ModelState, wallet: ModelWallet): bigint {
  return valueOfShares(state.vault, wallet.shares + (wallet.receipt?.shares ?? 0n));
}

/**
 * No wallet's redeemable value rises except through a NAV gain or a fee another holder's exit or
 * cancel left behind; otherwise by at most one raw unit of rounding per operation (always in the vault's favour).
 * A depositor gains at most what he paid; a claimant receives at most what its shares were worth.
 */
function expectNoValueTaken(
  before: ModelState,
  after: ModelState,
  operation: ModelOperation,
  context: string,
): void {
  const sharedGain =
    (operation.kind === "updateNav" && operation.gain > 0n) ||
    // A claim's fee goes to the remaining holders, except the last holders' exit: its fee leaves NAV, so
    // nobody (a depositor who came in while it was queued) gains from it.
    (operation.kind === "claimWithdrawal" &&
      (before.wallets[operation.wallet]?.receipt?.feeBps ?? 0) > 0 &&
      before.wallets[operation.wallet]?.receipt?.lastHolderExit !== true) ||
    // A cancel's fee, burned in shares, stays with the holders.
    (operation.kind === "cancelWithdrawal" && (before.wallets[operation.wallet]?.receipt?.feeBps ?? 0) > 0);
  before.wallets.forEach((wallet, index) => {
    const next = after.wallets[index];
    if (next === undefined) return;
    const valueBefore = redeemableValue(before, wallet);
    const valueAfter = redeemableValue(after, next);
    const actor = "wallet" in operation && operation.wallet === index;
    if (actor && operation.kind === "deposit") {
      expect(
        valueAfter - valueBefore,
        `${context}\ndepositor ${index} gained more than paid`,
      ).toBeLessThanOrEqual(operation.amount);
    } else if (actor && operation.kind === "depositWithPartnerFee") {
      expect(
        valueAfter - valueBefore,
        `${context}\ndepositor ${index} gained more than it deposited after the partner's fee`,
      ).toBeLessThanOrEqual(operation.amount - partnerFee(operation.amount, operation.feeBps));
    } else if (actor && operation.kind === "claimWithdrawal") {
      expect(
        next.assets - wallet.assets,
        `${context}\nclaimant ${index} got more than its shares' value`,
      ).toBeLessThanOrEqual(valueBefore - valueAfter);
    } else if (!sharedGain) {
      expect(valueAfter, `${context}\nwallet ${index}'s value rose`).toBeLessThanOrEqual(valueBefore + 1n);
    }
  });
}

/**
 * A cancel costs what an honest exit of the same shares costs and moves no value between others: the
 * canceller holds its escrowed shares again less the receipt's fee in shares (rounded up), its value falls
 * by at most those shares' value, and nobody else's value falls (the burned fee stays with the holders).
 */
function expectCancelCostsTheFee(
  before: ModelState,
  after: ModelState,
  walletIndex: number,
  context: string,
): void {
  const canceller = before.wallets[walletIndex];
  const receipt = canceller?.receipt;
  const feeShares =
    receipt === null || receipt === undefined ? 0n : withdrawalFee(receipt.shares, receipt.feeBps);
  before.wallets.forEach((wallet, index) => {
    const next = after.wallets[index];
    if (next === undefined) return;
    const valueAfter = redeemableValue(after, next);
    const valueBefore = redeemableValue(before, wallet);
    if (index === walletIndex) {
      expect(valueAfter, `${context}\nthe canceller paid more than its fee`).toBeGreaterThanOrEqual(
        valueBefore - valueOfShares(before.vault, feeShares) - 1n,
      );
      if (
        feeShares > 0n &&
        receipt !== null &&
        receipt !== undefined &&
        receipt.shares < before.vault.totalShares
      ) {
        expect(valueAfter, `${context}\nthe cancel was free`).toBeLessThanOrEqual(valueBefore);
      }
    } else {
      expect(valueAfter, `${context}\nwallet ${index}'s value fell on a cancel`).toBeGreaterThanOrEqual(
        valueBefore,
      );
    }
  });
  expect(
    after.wallets[walletIndex]?.shares,
    `${context}\nthe cancelled shares less the fee did not come back`,
  ).toBe((canceller?.shares ?? 0n) + (receipt?.shares ?? 0n) - feeShares);
}

/**
 * After every step: the shares are conserved (supply = wallets + escrow, escrow = the open receipts),
 * the funded, unclaimed count is exactly the open receipts' funded shares (liabilities neither
 * understated nor inflated by holes), and the holes are disjoint, unfunded and inside the queue.
 */
function expectQueueAccounted(state: ModelState, context: string): void {
  const receipts = state.wallets.flatMap((wallet) => (wallet.receipt === null ? [] : [wallet.receipt]));
  const walletShares = state.wallets.reduce((sum, wallet) => sum + wallet.shares, 0n);
  const escrowed = receipts.reduce((sum, receipt) => sum + receipt.shares, 0n);
  expect(
    state.shareSupply,
    `${context}
share supply`,
  ).toBe(walletShares + state.escrow);
  expect(
    state.escrow,
    `${context}
escrow against the open receipts`,
  ).toBe(escrowed);
  expect(
    state.vault.totalShares,
    `${context}
total_shares against the supply`,
  ).toBe(state.shareSupply);
  const { queueFunded, queueClaimed, queueTail } = state.vault;
  const fundedOpen = receipts.reduce((sum, receipt) => {
    const top = queueFunded < receipt.queueEnd ? queueFunded : receipt.queueEnd;
    return sum + (top > receipt.queueStart ? top - receipt.queueStart : 0n);
  }, 0n);
  expect(
    queueFunded - queueClaimed,
    `${context}
funded, unclaimed shares`,
  ).toBe(fundedOpen);
  let previousEnd = queueFunded;
  for (const [start, end] of state.holes ?? []) {
    expect(
      start > previousEnd && end > start && end < queueTail,
      `${context}
hole ${start}..${end}`,
    ).toBe(true);
    expect(
      receipts.every((receipt) => receipt.queueEnd <= start || receipt.queueStart >= end),
      `${context}
hole ${start}..${end} overlaps a receipt`,
    ).toBe(true);
    previousEnd = end;
  }
}

/**
 * No holder's value falls because of a config change inside its notice period: right after an
 * update_config, the config requests are priced and capped with is, field by field, no worse for a
 * holder than the one in force before it (the due pending config, if any, counts as in force), and
 * whatever it scheduled waits the whole notice.
 */
/**
 * A manager's pause ends by itself within MAX_PAUSE_SECONDS of now, and one that starts now starts at
 * least MAX_PAUSE_SECONDS after the last one ended: the manager holds requests at most half the time.
 */
function expectPauseBounded(before: ModelState, after: ModelState, now: bigint, context: string): void {
  // The admin's pause in force is the admin's to bound (expectPauseHeldOnlyByTheAdmin).
  if (!pausedAt(after.vault, now) || after.vault.adminPaused) return;
  expect(after.vault.pauseUntil - now, `${context}\na pause lasts past its bound`).toBeLessThanOrEqual(
    MAX_PAUSE_SECONDS,
  );
  if (!pausedAt(before.vault, now) && before.vault.pauseUntil !== 0n) {
    expect(now, `${context}\na pause started inside the cooldown`).toBeGreaterThanOrEqual(
      before.vault.pauseUntil + MAX_PAUSE_SECONDS,
    );
  }
}

/** When the pause in force started, and when the admin last set one (for expectPauseHeldOnlyByTheAdmin). */
interface PauseClock {
  startedAt: bigint;
  adminSetAt: bigint;
}

/**
 * No pause is in force longer than MAX_PAUSE_SECONDS past its start unless the admin set it, and an
 * admin's pause never ends more than MAX_ADMIN_PAUSE_SECONDS after the admin set it.
 */
function expectPauseHeldOnlyByTheAdmin(
  before: ModelState,
  after: ModelState,
  operation: ModelOperation,
  now: bigint,
  clock: PauseClock,
  context: string,
): void {
  if (operation.kind === "setAdminPause" && operation.until > now) clock.adminSetAt = now;
  if (!pausedAt(after.vault, now)) return;
  if (!pausedAt(before.vault, now)) clock.startedAt = now;
  if (after.vault.adminPaused) {
    expect(
      after.vault.pauseUntil - clock.adminSetAt,
      `${context}
an admin's pause past 30 days`,
    ).toBeLessThanOrEqual(MAX_ADMIN_PAUSE_SECONDS);
  } else {
    expect(
      after.vault.pauseUntil - clock.startedAt,
      `${context}
a manager's pause past its bound`,
    ).toBeLessThanOrEqual(MAX_PAUSE_SECONDS);
  }
}

function expectNoConfigHurtInsideNotice(
  before: ModelState,
  after: ModelState,
  now: bigint,
  context: string,
): void {
  const inForce = structuredClone(before.vault);
  applyDueConfig(inForce, now);
  expect(
    configEases(currentConfig(inForce), currentConfig(after.vault)),
    `${context}\na config change hurt holders inside its notice`,
  ).toBe(true);
  if (
    after.vault.pendingEffectiveAt !== 0n &&
    after.vault.pendingEffectiveAt !== inForce.pendingEffectiveAt
  ) {
    expect(after.vault.pendingEffectiveAt, `${context}\nscheduled with less than the notice`).toBe(
      now + CONFIG_NOTICE_SECONDS,
    );
  }
}

/** Right after staging, the reserve holds what every funded, unclaimed receipt is worth (rounded up). */
function expectFundedReceiptsCovered(state: ModelState, context: string): void {
  const fundedUnclaimed = state.vault.queueFunded - state.vault.queueClaimed;
  expect(state.reserve, `${context}\nreserve below the funded receipts`).toBeGreaterThanOrEqual(
    valueOfSharesRoundedUp(state.vault, fundedUnclaimed),
  );
}

function describeOperation(operation: ModelOperation): string {
  return JSON.stringify(operation, (_key, value: unknown) =>
    typeof value === "bigint" ? `${value}n` : value,
  );
}

/** How the cancels of a run left the queue: settled or shrunk, holes made, holes staging passed. */
interface CancelCoverage {
  cancels: number;
  holesMade: number;
  holesPassed: number;
  /** Emptied hole lists closed, their rent back to the payer. */
  listsClosed: number;
}

/** How the admin's pauses were exercised: held, refused to a non-admin, refused to the manager's lift. */
interface AdminPauseCoverage {
  held: number;
  notAdmin: number;
  managerLiftRefused: number;
}

/** deposit_with_partner_fee and set_max_partner_fee as the runs exercised them. */
interface PartnerFeeCoverage {
  /** Deposits that paid their partner a fee. */
  paid: number;
  /** Deposits whose fee rounded down to 0 (amount × bps < 10,000). */
  roundedToZero: number;
  /** set_max_partner_fee calls that changed the maximum. */
  maximumSet: number;
  /** set_max_partner_fee signed by someone other than the admin (refused). */
  notAdmin: number;
}

interface HatchCoverage {
  /** A stranger staged because the named receipt waited the silence period (the manager not silent). */
  byWaitingReceipt: number;
  /** A stranger staged because the manager had not staged for the silence period. */
  bySilence: number;
  /** A stranger's staging refused (6000): nothing had waited long enough. */
  refused: number;
}

/**
 * The hatch holds: whenever the oldest receipt not wholly funded has waited the silence period, a
 * stranger's staging naming it is never refused as unauthorized (it may still find no idle assets).
 * No manager key, striking or staging dust, holds a request past the silence period.
 */
function expectHatchOpen(state: ModelState, now: bigint, context: string): void {
  const waiting = state.wallets
    .flatMap((wallet, index) =>
      wallet.receipt !== null && wallet.receipt.queueEnd > state.vault.queueFunded
        ? [{ index, receipt: wallet.receipt }]
        : [],
    )
    .sort((a, b) => (a.receipt.requestId < b.receipt.requestId ? -1 : 1));
  const oldest = waiting[0];
  if (oldest === undefined || now < oldest.receipt.requestedAt + SILENCE_SECONDS) return;
  const probe = applyOperation(
    state,
    { kind: "stageWithdrawalsByStranger", maxShares: U64_MAX, head: oldest.index },
    now,
  );
  expect(
    probe.ok ? null : probe.code,
    `${context}\nthe hatch stayed shut for a request waiting ${now - oldest.receipt.requestedAt} s`,
  ).not.toBe(6000);
}

function runSeed(seed: number): {
  steps: number;
  refusals: Map<number, number>;
  cancels: CancelCoverage;
  adminPauses: AdminPauseCoverage;
  hatch: HatchCoverage;
  partnerFees: PartnerFeeCoverage;
} {
  const partnerFees: PartnerFeeCoverage = { paid: 0, roundedToZero: 0, maximumSet: 0, notAdmin: 0 };
  const hatch: HatchCoverage = { byWaitingReceipt: 0, bySilence: 0, refused: 0 };
  const cancels: CancelCoverage = { cancels: 0, holesMade: 0, holesPassed: 0, listsClosed: 0 };
  const adminPauses: AdminPauseCoverage = { held: 0, notAdmin: 0, managerLiftRefused: 0 };
  const random = new SeededRandom(seed);
  const chain = TestChain.create({ startTime: 1_767_225_600n + random.bigintBetween(0n, DAY) });
  const settings = randomSettings(random);
  const walletAssets = Array.from({ length: WALLETS }, () => random.bigintBetween(100_000n, 5_000_000n));
  const initialized = initializeModel(settings, walletAssets, chain.now(), OPEN_NAV_BOUNDS, PARTNERS);
  if (!initialized.ok) {
    throw new Error("The random settings must be valid");
  }
  const { vault } = TestVault.create(chain, settings);
  const members = walletAssets.map((assets) => vault.addMember(assets));
  const partners = Array.from({ length: PARTNERS }, () => vault.addPartner());
  let model = initialized.state;
  expect(observedState(vault, members, partners), `seed ${seed} after initialize_vault`).toEqual(model);

  const refusals = new Map<number, number>();
  const pauseClock: PauseClock = { startedAt: 0n, adminSetAt: 0n };
  const trail: string[] = [];
  const closes = new SeededRandom(seed + 1_000_003);
  for (let step = 0; step < STEPS_PER_SEED; step += 1) {
    // The step's operation, then perhaps anyone's close of the hole list as the step left it.
    for (const pass of ["operation", "close"] as const) {
      const operation =
        pass === "operation" ? randomOperation(random, model, chain.now()) : randomClose(closes, model);
      if (operation === null) continue;
      trail.push(describeOperation(operation));
      const context = `seed ${seed}, step ${step}:\n${trail.join("\n")}`;
      const closePayer =
        operation.kind === "closeQueueHoles" ? memberAt(members, operation.payer).publicKey : null;
      const payerLamportsBefore = closePayer === null ? 0n : chain.lamportsOf(closePayer);
      const outcome = execute(vault, members, partners, operation);
      const predicted = applyOperation(model, operation, chain.now());
      if (operation.kind === "setAdminPause") {
        if (predicted.ok && operation.until > chain.now()) adminPauses.held += 1;
        if (!operation.byAdmin) adminPauses.notAdmin += 1;
      }
      if (operation.kind === "stageWithdrawalsByStranger") {
        if (predicted.ok) {
          if (stagingSilent(model.vault, chain.now())) hatch.bySilence += 1;
          else hatch.byWaitingReceipt += 1;
        } else if (predicted.code === 6000) {
          hatch.refused += 1;
        }
      }
      if (operation.kind === "updateConfig" && operation.update.paused === false && !predicted.ok) {
        if (predicted.code === 6000) adminPauses.managerLiftRefused += 1;
      }

      if (outcome !== null) {
        const detail = `${context}\n${outcome.err?.description ?? "succeeded"}\n${outcome.logs.join("\n")}`;
        if (predicted.ok) {
          expect(outcome.err, detail).toBeNull();
          const staged =
            (operation.kind !== "stageWithdrawals" && operation.kind !== "stageWithdrawalsByStranger") ||
            predicted.state.vault.queueFunded !== model.vault.queueFunded;
          const expectedEvent = EVENT_OF[operation.kind];
          const retained = predicted.state.vault.surplusAssets > model.vault.surplusAssets;
          const now = chain.now();
          const due = model.vault.pendingEffectiveAt !== 0n && now >= model.vault.pendingEffectiveAt;
          // A request applies a due config first (ConfigUpdated); an update touching the fee, minimum or
          // caps schedules (ConfigScheduled) or withdraws what was pending.
          const appliedByRequest = operation.kind === "requestWithdrawal" && due;
          const touches =
            operation.kind === "updateConfig" &&
            (operation.update.feeBps !== undefined ||
              operation.update.minWithdrawalShares !== undefined ||
              operation.update.hourlyCap !== undefined ||
              operation.update.dailyCap !== undefined);
          const scheduledEvent =
            touches &&
            (predicted.state.vault.pendingEffectiveAt !== 0n ||
              (model.vault.pendingEffectiveAt !== 0n && !due));
          expect(
            decodeProgramEvents(outcome.logs).map((event) => event.name),
            detail,
          ).toEqual([
            ...(appliedByRequest ? ["ConfigUpdated"] : []),
            ...(staged && expectedEvent !== undefined ? [expectedEvent] : []),
            ...(operation.kind === "depositWithPartnerFee" ? ["PartnerFeePaid"] : []),
            ...(scheduledEvent ? ["ConfigScheduled"] : []),
            ...(retained ? ["SurplusRetained"] : []),
          ]);
        } else {
          expect(outcome.err?.custom, detail).toBe(predicted.code);
          refusals.set(predicted.code, (refusals.get(predicted.code) ?? 0) + 1);
        }
      }
      if (predicted.ok) {
        expectNoValueTaken(model, predicted.state, operation, context);
        if (operation.kind === "requestWithdrawal") {
          // A receipt never records a fee above the one its holder accepted.
          expect(
            predicted.state.wallets[operation.wallet]?.receipt?.feeBps,
            `${context}\nreceipt fee above the holder's maximum`,
          ).toBeLessThanOrEqual(operation.maxFeeBps);
        }
        if (operation.kind === "stageWithdrawals") {
          expectFundedReceiptsCovered(predicted.state, context);
        }
        const holesBefore = model.holes?.length ?? 0;
        const holesAfter = predicted.state.holes?.length ?? 0;
        if (operation.kind === "stageWithdrawals" && holesAfter < holesBefore) {
          cancels.holesPassed += holesBefore - holesAfter;
        }
        if (operation.kind === "cancelWithdrawal") {
          cancels.cancels += 1;
          if (holesAfter > holesBefore) {
            cancels.holesMade += 1;
          }
          expectCancelCostsTheFee(model, predicted.state, operation.wallet, context);
          // The funded, unclaimed shares never grow on a cancel, and what the reserve must hold for them
          // grows at most by their part of the burned fee (it stays with every holder, queued ones too);
          // the reserve stays.
          const fundedShares = (state: ModelState): bigint =>
            state.vault.queueFunded - state.vault.queueClaimed;
          const heldBack = (state: ModelState): bigint =>
            valueOfSharesRoundedUp(state.vault, fundedShares(state));
          const receipt = model.wallets[operation.wallet]?.receipt;
          const feeValue =
            receipt === null || receipt === undefined
              ? 0n
              : valueOfSharesRoundedUp(model.vault, withdrawalFee(receipt.shares, receipt.feeBps));
          expect(fundedShares(predicted.state), `${context}\nfunded shares grew`).toBeLessThanOrEqual(
            fundedShares(model),
          );
          expect(
            heldBack(predicted.state),
            `${context}
  liabilities grew by more than the fee`,
          ).toBeLessThanOrEqual(heldBack(model) + feeValue + 1n);
          expect(predicted.state.reserve).toBe(model.reserve);
        }
        if (operation.kind === "updateConfig") {
          expectNoConfigHurtInsideNotice(model, predicted.state, chain.now(), context);
          expectPauseBounded(model, predicted.state, chain.now(), context);
        }
        expectPauseHeldOnlyByTheAdmin(model, predicted.state, operation, chain.now(), pauseClock, context);
      }
      if (operation.kind === "setMaxPartnerFee") {
        if (predicted.ok) partnerFees.maximumSet += 1;
        if (!operation.byAdmin) partnerFees.notAdmin += 1;
      }
      const observed = observedState(vault, members, partners);
      const { feePaid } = expectAssetsConserved(model, observed, operation, predicted.ok, context);
      if (operation.kind === "depositWithPartnerFee" && predicted.ok) {
        if (feePaid > 0n) partnerFees.paid += 1;
        else partnerFees.roundedToZero += 1;
      }
      if (predicted.ok) model = predicted.state;
      expect(observed, context).toEqual(model);
      expectQueueAccounted(model, context);
      expectHatchOpen(model, chain.now(), context);
      const closed = operation.kind === "closeQueueHoles" && predicted.ok && closePayer !== null;
      expectHoleListRent(
        vault,
        model,
        context,
        closed ? { payerLamportsBefore, payerLamportsAfter: chain.lamportsOf(closePayer) } : undefined,
      );
      if (closed) cancels.listsClosed += 1;
    }
  }
  return { steps: STEPS_PER_SEED, refusals, cancels, adminPauses, hatch, partnerFees };
}

describe("the program against the README model", () => {
  const refusalsSeen = new Map<number, number>();
  const cancelsSeen: CancelCoverage = { cancels: 0, holesMade: 0, holesPassed: 0, listsClosed: 0 };
  const adminPausesSeen: AdminPauseCoverage = { held: 0, notAdmin: 0, managerLiftRefused: 0 };
  const hatchSeen: HatchCoverage = { byWaitingReceipt: 0, bySilence: 0, refused: 0 };
  const partnerFeesSeen: PartnerFeeCoverage = { paid: 0, roundedToZero: 0, maximumSet: 0, notAdmin: 0 };

  it.each(Array.from({ length: SEEDS }, (_unused, seed) => seed + 1))("seed %i", (seed) => {
    const { refusals, cancels, adminPauses, hatch, partnerFees } = runSeed(seed);
    partnerFeesSeen.paid += partnerFees.paid;
    partnerFeesSeen.roundedToZero += partnerFees.roundedToZero;
    partnerFeesSeen.maximumSet += partnerFees.maximumSet;
    partnerFeesSeen.notAdmin += partnerFees.notAdmin;
    hatchSeen.byWaitingReceipt += hatch.byWaitingReceipt;
    hatchSeen.bySilence += hatch.bySilence;
    hatchSeen.refused += hatch.refused;
    adminPausesSeen.held += adminPauses.held;
    adminPausesSeen.notAdmin += adminPauses.notAdmin;
    adminPausesSeen.managerLiftRefused += adminPauses.managerLiftRefused;
    cancelsSeen.cancels += cancels.cancels;
    cancelsSeen.holesMade += cancels.holesMade;
    cancelsSeen.holesPassed += cancels.holesPassed;
    cancelsSeen.listsClosed += cancels.listsClosed;
    for (const [code, count] of refusals) {
      refusalsSeen.set(code, (refusalsSeen.get(code) ?? 0) + count);
    }
  });

  it("cancelled requests across the seeds, some into holes that staging then passed, and closed emptied lists", () => {
    expect(cancelsSeen.cancels).toBeGreaterThan(0);
    expect(cancelsSeen.holesMade).toBeGreaterThan(0);
    expect(cancelsSeen.holesPassed).toBeGreaterThan(0);
    expect(cancelsSeen.listsClosed).toBeGreaterThan(0);
  });

  it("held admin pauses, refused set_admin_pause to the manager and the manager's lift of the admin's pause", () => {
    expect(adminPausesSeen.held).toBeGreaterThan(0);
    expect(adminPausesSeen.notAdmin).toBeGreaterThan(0);
    expect(adminPausesSeen.managerLiftRefused).toBeGreaterThan(0);
  });

  it("let strangers stage through the hatch, by a waiting receipt and by the manager's silence, and refused them before", () => {
    expect(hatchSeen.byWaitingReceipt).toBeGreaterThan(0);
    expect(hatchSeen.bySilence).toBeGreaterThan(0);
    expect(hatchSeen.refused).toBeGreaterThan(0);
  });

  it("paid partner fees (some rounded to 0) and had the admin move the maximum, refusing others", () => {
    expect(partnerFeesSeen.paid).toBeGreaterThan(0);
    expect(partnerFeesSeen.roundedToZero).toBeGreaterThan(0);
    expect(partnerFeesSeen.maximumSet).toBeGreaterThan(0);
    expect(partnerFeesSeen.notAdmin).toBeGreaterThan(0);
  });

  it("exercised the semantic refusals across the seeds", () => {
    // The generator aims at these boundaries; a generator change that stops reaching them should fail.
    // 6016 (InsufficientLiquidity) is no longer among them: it came from paper gains of 10× NAV, which
    // the bounds over time now refuse (at most ~0.27% a day); instructions.test.ts covers it at claim
    // and at staging.
    for (const code of [
      6001, 6002, 6006, 6007, 6012, 6013, 6014, 6015, 6017, 6018, 6019, 6020, 6021, 6022, 6023, 6026, 6027,
      6028, 6030, 6035, 6036,
    ]) {
      expect(refusalsSeen.get(code) ?? 0, `error ${code}`).toBeGreaterThan(0);
    }
  });
});

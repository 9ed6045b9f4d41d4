// npm run vault -- create|show|config|pause|resume|stage … --url <rpc> --keypair <file> [--yes]
// Each command reads the vault, checks the keypair may do what is asked, prints the change, simulates
// it and sends it with --yes. Amounts are raw units of the asset (or shares), as the program keeps them.
import { PublicKey, SYSVAR_CLOCK_PUBKEY } from "@solana/web3.js";

import { decodeMint } from "../chain/spl-token";
import { decodeReceiptState, type VaultState, type ReceiptState } from "../vault/program/accounts";
import {
  deriveVaultAddresses,
  findProtocolAddress,
  findQueueHoles,
  findReceipt,
} from "../vault/program/addresses";
import { hatchOpensAt, stagingSilent } from "../vault/model/manager-silence";
import { VAULT_PROGRAM_ID } from "../vault/program/idl";
import { U64_MAX } from "../vault/model/token-amount";
import { hurtingFields, noticeSeconds, type ConfigField } from "../vault/model/pending-config";
import {
  buildAcceptManagerInstruction,
  buildInitializeVaultInstruction,
  buildProposeManagerInstruction,
  buildStageWithdrawalsInstruction,
  buildUpdateConfigInstruction,
  type ConfigUpdate,
} from "../vault/program/instructions";
import { readProtocolAccount, readVaultAccount, requireAdmin } from "./accounts";
import { parseFlags, requireFlag, commandLine, type OperatorEnv, type OptionsSpec } from "./cli";
import { OperatorError } from "./errors";
import { acceptSuccession, proposeSuccessor, type Authority } from "./handover";
import { commandContext, PLAN_FLAGS, printAccount, readContext, runPlan } from "./plan";
import type { Change, CommandContext } from "./plan";

export const VAULT_USAGE = `Usage: npm run vault -- <command> [options] --url <rpc> --keypair <file> [--yes]
  create --asset-mint <mint> --name <name> --manager <address> [--protocol <address>] [--fee-bps <bps>]
         [--min-withdrawal-shares <raw>] [--hourly-cap <raw>] [--daily-cap <raw>]
         (signed by the protocol's admin; --protocol defaults to the one the admin keypair created)
  show <vault>
  set-manager <vault> --manager <address>   (signed by the manager or the protocol's admin)
  accept-manager <vault>                    (signed by the proposed manager)
  config <vault> [--name <name>] [--fee-bps <bps>] [--min-withdrawal-shares <raw>] [--hourly-cap <raw>] [--daily-cap <raw>]
  pause <vault>
  resume <vault>
  stage <vault> [--receipt <address>]      (anyone, once a request has waited the silence period unfunded:
                                            funds the queue up to it; --receipt defaults to the signer's own)
Without --yes a command prints what it would change and simulates it; nothing is sent.`;

const CONFIG_FLAGS = {
  name: { type: "string" },
  "fee-bps": { type: "string" },
  "min-withdrawal-shares": { type: "string" },
  "hourly-cap": { type: "string" },
  "daily-cap": { type: "string" },
} as const satisfies OptionsSpec;

export function parseAddress(flag: string, text: string | undefined): PublicKey {
  const value = requireFlag(text, flag);
  try {
    const key = new PublicKey(value);
    if (key.toBase58() !== value) {
      throw new Error("not canonical");
    }
    return key;
  } catch {
    throw new OperatorError(`${flag} is not a base58 address: "${value}"`);
  }
}

export function parseRaw(flag: string, text: string): bigint {
  if (!/^\d+$/.test(text) || BigInt(text) > U64_MAX) {
    throw new OperatorError(`${flag} must be a whole number of raw units below 2^64; got "${text}"`);
  }
  return BigInt(text);
}

function parseFeeBps(text: string): number {
  if (!/^\d+$/.test(text) || Number(text) > 10_000) {
    throw new OperatorError(`--fee-bps must be 0–10000; got "${text}"`);
  }
  return Number(text);
}

function parseName(text: string): string {
  const bytes = Buffer.byteLength(text);
  if (text.trim() === "" || bytes > 32) {
    throw new OperatorError(`--name must be 1–32 bytes; got ${bytes}`);
  }
  return text;
}

function requireManager(context: CommandContext, address: PublicKey, vault: VaultState): void {
  if (!vault.manager.equals(context.signer.publicKey)) {
    throw new OperatorError(
      `--keypair is ${context.signer.publicKey.toBase58()}, not the manager of ${address.toBase58()} (${vault.manager.toBase58()})`,
    );
  }
}

export function describeVault(address: PublicKey, vault: VaultState): string[] {
  return [
    `vault ${address.toBase58()}  "${vault.name}"${vault.paused ? "  PAUSED" : ""}`,
    `  protocol             ${vault.protocol.toBase58()} (vault #${vault.index})`,
    `  manager              ${vault.manager.toBase58()}${vault.pendingManager.equals(PublicKey.default) ? "" : ` (proposed: ${vault.pendingManager.toBase58()})`}`,
    `  asset mint           ${vault.assetMint.toBase58()} (${vault.assetDecimals} decimals)`,
    `  share mint           ${vault.shareMint.toBase58()}`,
    `  reserve              ${vault.reserve.toBase58()}`,
    `  share decimals       ${vault.shareDecimals}`,
    `  total assets         ${vault.totalAssets}`,
    `  total shares         ${vault.totalShares}`,
    `  NAV                  #${vault.navSequence} at ${vault.navUpdatedAt > 0n ? new Date(Number(vault.navUpdatedAt) * 1000).toISOString() : "never"}`,
    `  fee                  ${vault.feeBps} bps`,
    `  min withdrawal       ${vault.minWithdrawalShares} shares`,
    `  caps                 hourly ${vault.hourlyCap}, daily ${vault.dailyCap} (0: none)`,
    `  queue                tail ${vault.queueTail}, funded ${vault.queueFunded}, claimed ${vault.queueClaimed}`,
    `  notice               ${noticeSeconds(vault)} s for changes that hurt holders`,
    ...(vault.pendingEffectiveAt === 0n ? [] : [`  pending config       ${describePending(vault)}`]),
  ];
}

function isoOf(seconds: bigint): string {
  return new Date(Number(seconds) * 1000).toISOString();
}

/** The scheduled config as stored: its values and when it applies (or that it already may). */
function describePending(vault: VaultState): string {
  return (
    `fee ${vault.pendingFeeBps} bps, min withdrawal ${vault.pendingMinWithdrawalShares} shares, ` +
    `caps hourly ${vault.pendingHourlyCap}, daily ${vault.pendingDailyCap}; applies at ${isoOf(vault.pendingEffectiveAt)}`
  );
}

const FIELD_NAMES: Record<ConfigField, string> = {
  feeBps: "fee_bps",
  minWithdrawalShares: "min_withdrawal_shares",
  hourlyCap: "hourly_cap",
  dailyCap: "daily_cap",
};

function configChanges(vault: VaultState, update: ConfigUpdate): Change[] {
  const changes: Change[] = [];
  const add = (field: string, from: string, to: string | undefined): void => {
    if (to !== undefined && to !== from) {
      changes.push({ field, from, to });
    }
  };
  // A change that hurts holders waits the vault's notice: the program schedules it (ConfigScheduled).
  const hurting = new Set(hurtingFields(vault, update));
  const when = (field: ConfigField, to: string | undefined): string | undefined =>
    to === undefined ? undefined : hurting.has(field) ? `${to} (scheduled, after the notice)` : to;
  add("name", vault.name, update.name);
  add("fee_bps", String(vault.feeBps), when("feeBps", update.feeBps?.toString()));
  add(
    "min_withdrawal_shares",
    vault.minWithdrawalShares.toString(),
    when("minWithdrawalShares", update.minWithdrawalShares?.toString()),
  );
  add("hourly_cap", vault.hourlyCap.toString(), when("hourlyCap", update.hourlyCap?.toString()));
  add("daily_cap", vault.dailyCap.toString(), when("dailyCap", update.dailyCap?.toString()));
  add("paused", String(vault.paused), update.paused?.toString());
  return changes;
}

async function create(argv: string[], out: (line: string) => void, env: OperatorEnv): Promise<void> {
  const { values, positionals } = parseFlags(argv, {
    ...PLAN_FLAGS,
    ...CONFIG_FLAGS,
    "asset-mint": { type: "string" },
    manager: { type: "string" },
    protocol: { type: "string" },
  });
  if (positionals.length > 0) {
    throw new OperatorError(`vault create takes no positional argument; got "${positionals[0] ?? ""}"`);
  }
  const assetMint = parseAddress("--asset-mint", values["asset-mint"]);
  const manager = parseAddress("--manager", values.manager);
  const name = parseName(requireFlag(values.name, "--name"));
  const feeBps = values["fee-bps"] === undefined ? 0 : parseFeeBps(values["fee-bps"]);
  const minWithdrawalShares =
    values["min-withdrawal-shares"] === undefined
      ? 0n
      : parseRaw("--min-withdrawal-shares", values["min-withdrawal-shares"]);
  const hourlyCap = values["hourly-cap"] === undefined ? 0n : parseRaw("--hourly-cap", values["hourly-cap"]);
  const dailyCap = values["daily-cap"] === undefined ? 0n : parseRaw("--daily-cap", values["daily-cap"]);
  const context = await commandContext(values, out, env);
  const mintAccount = await context.client.getAccount(assetMint);
  if (mintAccount === null || decodeMint(mintAccount.owner, mintAccount.data) === null) {
    throw new OperatorError(
      `--asset-mint ${assetMint.toBase58()} is not a token mint on ${context.cluster.name}`,
    );
  }
  const protocolAddress =
    values.protocol === undefined
      ? findProtocolAddress(context.signer.publicKey)
      : parseAddress("--protocol", values.protocol);
  const protocol = await readProtocolAccount(context, protocolAddress);
  requireAdmin(context, protocolAddress, protocol);
  // The program registers vaults in order: the next one is number vault_count.
  const index = protocol.vaultCount;
  const addresses = deriveVaultAddresses(protocolAddress, index);
  const args = { index, manager, name, feeBps, minWithdrawalShares, hourlyCap, dailyCap };
  await runPlan(
    context,
    `vault create ${addresses.vault.toBase58()}`,
    [
      { field: "vault", from: "(none)", to: `${addresses.vault.toBase58()} (index ${index})` },
      { field: "protocol", from: "", to: protocolAddress.toBase58() },
      { field: "name", from: "", to: name },
      { field: "asset_mint", from: "", to: assetMint.toBase58() },
      { field: "manager", from: "", to: manager.toBase58() },
      { field: "fee_bps", from: "", to: String(feeBps) },
      { field: "min_withdrawal_shares", from: "", to: minWithdrawalShares.toString() },
      { field: "hourly_cap", from: "", to: hourlyCap.toString() },
      { field: "daily_cap", from: "", to: dailyCap.toString() },
    ],
    [
      buildInitializeVaultInstruction(
        {
          payer: context.signer.publicKey,
          admin: context.signer.publicKey,
          protocol: protocolAddress,
          ...addresses,
          assetMint,
        },
        args,
      ),
    ],
  );
  printAccount(context, addresses.vault, [`vault ${addresses.vault.toBase58()}`]);
}

async function show(argv: string[], out: (line: string) => void, env: OperatorEnv): Promise<void> {
  const { values, positionals } = parseFlags(argv, { url: { type: "string" } });
  const address = parseAddress("<vault>", positionals[0]);
  const context = { ...readContext(values.url, env), out };
  printAccount(context, address, describeVault(address, await readVaultAccount(context, address)));
}

async function updateConfig(
  argv: string[],
  out: (line: string) => void,
  fixed: ConfigUpdate | null,
  env: OperatorEnv,
): Promise<void> {
  const { values, positionals } = parseFlags(
    argv,
    fixed === null ? { ...PLAN_FLAGS, ...CONFIG_FLAGS } : PLAN_FLAGS,
  );
  const address = parseAddress("<vault>", positionals[0]);
  const flags = values as Partial<Record<keyof typeof CONFIG_FLAGS, string>>;
  const update: ConfigUpdate = fixed ?? {
    name: flags.name === undefined ? undefined : parseName(flags.name),
    feeBps: flags["fee-bps"] === undefined ? undefined : parseFeeBps(flags["fee-bps"]),
    minWithdrawalShares:
      flags["min-withdrawal-shares"] === undefined
        ? undefined
        : parseRaw("--min-withdrawal-shares", flags["min-withdrawal-shares"]),
    hourlyCap: flags["hourly-cap"] === undefined ? undefined : parseRaw("--hourly-cap", flags["hourly-cap"]),
    dailyCap: flags["daily-cap"] === undefined ? undefined : parseRaw("--daily-cap", flags["daily-cap"]),
  };
  const context = await commandContext(values, out, env);
  const vault = await readVaultAccount(context, address);
  requireManager(context, address, vault);
  const changes = configChanges(vault, update);
  if (changes.length === 0) {
    throw new OperatorError(`nothing to change on ${address.toBase58()}: it already has those settings`);
  }
  const result = await runPlan(
    context,
    `vault ${fixed === null ? "config" : fixed.paused === true ? "pause" : "resume"} ${address.toBase58()}`,
    changes,
    [buildUpdateConfigInstruction({ manager: context.signer.publicKey, vault: address }, update)],
  );
  const hurting = hurtingFields(vault, update);
  if (hurting.length === 0) {
    return;
  }
  const names = hurting.map((field) => FIELD_NAMES[field]).join(", ");
  if (result.signature === null) {
    const about = BigInt(Math.floor(Date.now() / 1000) + noticeSeconds(vault));
    out(
      `  would schedule ${names}: applying ${noticeSeconds(vault)} s after it lands, about ${isoOf(about)}`,
    );
    return;
  }
  // What the program stored: the whole target and its effective time, by the chain's clock.
  const after = await readVaultAccount(context, address);
  out(`  scheduled ${names}: ${describePending(after)}`);
}

async function setManager(argv: string[], out: (line: string) => void, env: OperatorEnv): Promise<void> {
  const { values, positionals } = parseFlags(argv, { ...PLAN_FLAGS, manager: { type: "string" } });
  const address = parseAddress("<vault>", positionals[0]);
  const next = parseAddress("--manager", values.manager);
  const context = await commandContext(values, out, env);
  const vault = await readVaultAccount(context, address);
  const signer = context.signer.publicKey;
  if (!vault.manager.equals(signer)) {
    const protocol = await readProtocolAccount(context, vault.protocol);
    if (!protocol.admin.equals(signer)) {
      throw new OperatorError(
        `--keypair is ${signer.toBase58()}: neither the manager of ${address.toBase58()} (${vault.manager.toBase58()}) nor its protocol's admin (${protocol.admin.toBase58()})`,
      );
    }
  }
  if (vault.manager.equals(next)) {
    throw new OperatorError(`${next.toBase58()} already manages ${address.toBase58()}`);
  }
  await proposeSuccessor(
    context,
    managerOf(address, vault),
    next,
    buildProposeManagerInstruction({ proposer: signer, vault: address, protocol: vault.protocol }, next),
  );
}

function managerOf(address: PublicKey, vault: VaultState): Authority {
  return { cli: "vault", role: "manager", address, holder: vault.manager, pending: vault.pendingManager };
}

async function acceptManager(argv: string[], out: (line: string) => void, env: OperatorEnv): Promise<void> {
  const { values, positionals } = parseFlags(argv, PLAN_FLAGS);
  const address = parseAddress("<vault>", positionals[0]);
  const context = await commandContext(values, out, env);
  const vault = await readVaultAccount(context, address);
  await acceptSuccession(
    context,
    managerOf(address, vault),
    buildAcceptManagerInstruction({ newManager: context.signer.publicKey, vault: address }),
  );
}

/** The chain's clock (the Clock sysvar's unix_timestamp, bytes 32–40), which the program judges by. */
async function chainTimeMs(context: Pick<CommandContext, "client">): Promise<number> {
  const clock = await context.client.getAccount(SYSVAR_CLOCK_PUBKEY);
  if (clock === null || clock.data.length < 40) {
    throw new OperatorError("the RPC returned no Clock sysvar");
  }
  const view = new DataView(clock.data.buffer, clock.data.byteOffset, clock.data.byteLength);
  return Number(view.getBigInt64(32, true)) * 1000;
}

/**
 * A holder's way out when the manager holds the queue (issue 28): once a request has waited the vault's
 * silence period without being wholly funded, anyone may stage the queue up to it from the reserve's idle
 * assets; then the request can be claimed (by its owner, or delivered by anyone into the owner's account).
 */
async function stage(argv: string[], out: (line: string) => void, env: OperatorEnv): Promise<void> {
  const { values, positionals } = parseFlags(argv, { ...PLAN_FLAGS, receipt: { type: "string" } });
  const address = parseAddress("<vault>", positionals[0]);
  const context = await commandContext(values, out, env);
  const vault = await readVaultAccount(context, address);
  const signer = context.signer.publicKey;
  const receiptAddress =
    values.receipt === undefined ? findReceipt(address, signer) : parseAddress("--receipt", values.receipt);
  const account = await context.client.getAccount(receiptAddress);
  if (account === null || !account.owner.equals(VAULT_PROGRAM_ID)) {
    throw new OperatorError(
      values.receipt === undefined
        ? `${signer.toBase58()} has no pending withdrawal in ${address.toBase58()}: name one with --receipt <address>`
        : `no withdrawal receipt at ${receiptAddress.toBase58()}`,
    );
  }
  let receipt: ReceiptState;
  try {
    receipt = decodeReceiptState(account.data);
  } catch {
    throw new OperatorError(
      `${receiptAddress.toBase58()} is an account of the program but not a withdrawal receipt`,
    );
  }
  if (!receipt.vault.equals(address)) {
    throw new OperatorError(
      `${receiptAddress.toBase58()} is a request in ${receipt.vault.toBase58()}, not ${address.toBase58()}`,
    );
  }
  const opensAt = hatchOpensAt(vault, receipt);
  if (opensAt === null) {
    throw new OperatorError(`request ${receipt.requestId} is funded already: claim it`);
  }
  const nowMs = await chainTimeMs(context);
  const now = BigInt(Math.floor(nowMs / 1000));
  const byManager = vault.manager.equals(signer);
  if (!byManager && now < opensAt && !stagingSilent(vault, nowMs)) {
    throw new OperatorError(
      `request ${receipt.requestId} has waited ${now - receipt.requestedAt} s unfunded; anyone may stage it from ${isoOf(opensAt)} (the vault's silence period after the request)`,
    );
  }
  const shares = receipt.queueEnd - vault.queueFunded;
  await runPlan(
    context,
    `vault stage ${address.toBase58()} (request ${receipt.requestId})`,
    [
      {
        field: "queue_funded",
        from: vault.queueFunded.toString(),
        to: `up to ${receipt.queueEnd} (+${shares} shares, as the reserve's idle assets allow)`,
      },
    ],
    [
      buildStageWithdrawalsInstruction(
        {
          manager: signer,
          vault: address,
          reserve: vault.reserve,
          queueHoles: findQueueHoles(address),
          headReceipt: receiptAddress,
        },
        { maxShares: shares },
      ),
    ],
  );
}

export const runVaultCli = commandLine(VAULT_USAGE, {
  create,
  show,
  config: (rest, out, env) => updateConfig(rest, out, null, env),
  pause: (rest, out, env) => updateConfig(rest, out, { paused: true }, env),
  resume: (rest, out, env) => updateConfig(rest, out, { paused: false }, env),
  "set-manager": setManager,
  "accept-manager": acceptManager,
  stage,
});

// npm run protocol -- init|show|set-admin|accept-admin|set-bounds|pause-vault … --url <rpc> --keypair <file> [--yes]
// The protocol account above the vaults: its admin registers vaults and sets the bounds every NAV
// strike must keep. Like `npm run vault`, each command prints the change, simulates it, and sends it
// only with --yes.
import { PublicKey } from "@solana/web3.js";

import { PARTNER_FEE_CEILING_BPS } from "../vault/model/share-math";
import type { ProtocolState } from "../vault/program/accounts";
import { findProtocolAddress } from "../vault/program/addresses";
import {
  buildAcceptAdminInstruction,
  buildInitializeProtocolInstruction,
  buildProposeAdminInstruction,
  buildSetAdminPauseInstruction,
  buildSetMaxPartnerFeeInstruction,
  buildSetNavBoundsInstruction,
  DEFAULT_NAV_RATES,
  NAV_RATE_CEILINGS,
  type NavBounds,
} from "../vault/program/instructions";
import { readProtocolAccount, readVaultAccount, requireAdmin } from "./accounts";
import { parseFlags, requireFlag, commandLine, type OperatorEnv, type OptionsSpec } from "./cli";
import { OperatorError } from "./errors";
import { acceptSuccession, proposeSuccessor, type Authority } from "./handover";
import { commandContext, PLAN_FLAGS, printAccount, readContext, runPlan } from "./plan";
import type { Change, CommandContext } from "./plan";
import { parseAddress } from "./vault-cli";

export const PROTOCOL_USAGE = `Usage: npm run protocol -- <command> [options] --url <rpc> --keypair <file> [--yes]
  init --max-gain-bps <bps> --max-loss-bps <bps> --min-interval <seconds>
       (the keypair becomes the admin of the protocol at ["protocol", keypair])
  show [<protocol>]                          (default: the protocol --keypair created)
  set-bounds [<protocol>] [--max-gain-bps <bps>] [--max-loss-bps <bps>] [--min-interval <seconds>]
  set-admin [<protocol>] --admin <address>   (proposes; the new admin runs accept-admin)
  accept-admin <protocol>                    (signed by the proposed admin)
  pause-vault <vault> --until <ISO time|unix seconds> | --lift
       (the admin's pause: up to 30 days ahead, the manager cannot lift it; --lift ends any pause now)
  set-max-partner-fee [<protocol>] --max-bps <bps>
       (the most a deposit of the protocol's vaults may pay its partner, 0–${PARTNER_FEE_CEILING_BPS}; 0 turns partner fees off)
Bounds: a NAV strike may report at most max-gain-bps / max-loss-bps of the vault's total assets, and
at least min-interval seconds after the vault's previous strike. Without --yes a command prints what it
would change and simulates it; nothing is sent.`;

const BOUNDS_FLAGS = {
  "max-gain-bps": { type: "string" },
  "max-loss-bps": { type: "string" },
  "min-interval": { type: "string" },
  "max-annual-gain-bps": { type: "string" },
  "max-daily-loss-bps": { type: "string" },
} as const satisfies OptionsSpec;

function parseBps(flag: string, text: string, ceiling = 10_000): number {
  if (!/^\d+$/.test(text) || Number(text) > ceiling) {
    throw new OperatorError(`${flag} must be 0–${ceiling} bps; got "${text}"`);
  }
  return Number(text);
}

/** The rates over time a flag sets, or the default (init) / the current one (set-bounds). */
function parseRates(
  values: { "max-annual-gain-bps"?: string; "max-daily-loss-bps"?: string },
  fallback: { maxAnnualGainBps: number; maxDailyLossBps: number },
): { maxAnnualGainBps: number; maxDailyLossBps: number } {
  const gain = values["max-annual-gain-bps"];
  const loss = values["max-daily-loss-bps"];
  return {
    maxAnnualGainBps:
      gain === undefined
        ? fallback.maxAnnualGainBps
        : parseBps("--max-annual-gain-bps", gain, NAV_RATE_CEILINGS.maxAnnualGainBps),
    maxDailyLossBps:
      loss === undefined
        ? fallback.maxDailyLossBps
        : parseBps("--max-daily-loss-bps", loss, NAV_RATE_CEILINGS.maxDailyLossBps),
  };
}

function parseSeconds(flag: string, text: string): number {
  if (!/^\d+$/.test(text) || Number(text) > 0xffff_ffff) {
    throw new OperatorError(`${flag} must be whole seconds below 2^32; got "${text}"`);
  }
  return Number(text);
}

function requireNone(positionals: readonly string[], command: string, max: number): void {
  if (positionals.length > max) {
    throw new OperatorError(`protocol ${command}: unexpected argument "${positionals[max] ?? ""}"`);
  }
}

export function describeProtocol(address: PublicKey, protocol: ProtocolState): string[] {
  const pending = protocol.pendingAdmin.equals(PublicKey.default) ? "none" : protocol.pendingAdmin.toBase58();
  return [
    `protocol ${address.toBase58()}`,
    `  creator              ${protocol.creator.toBase58()}`,
    `  admin                ${protocol.admin.toBase58()}`,
    `  proposed admin       ${pending}`,
    `  max gain per strike  ${protocol.maxGainBps} bps`,
    `  max loss per strike  ${protocol.maxLossBps} bps`,
    `  min strike interval  ${protocol.minNavIntervalSeconds} s`,
    `  max gain over time   ${protocol.maxAnnualGainBps} bps a year`,
    `  max loss over time   ${protocol.maxDailyLossBps} bps a day`,
    `  max partner fee      ${protocol.maxPartnerFeeBps} bps`,
    `  vaults               ${protocol.vaultCount}`,
  ];
}

function boundsChanges(from: NavBounds | null, to: NavBounds): Change[] {
  const changes: Change[] = [];
  const add = (field: string, before: number | undefined, after: number): void => {
    if (before !== after) {
      changes.push({ field, from: before === undefined ? "" : String(before), to: String(after) });
    }
  };
  add("max_gain_bps", from?.maxGainBps, to.maxGainBps);
  add("max_loss_bps", from?.maxLossBps, to.maxLossBps);
  add("min_nav_interval_seconds", from?.minNavIntervalSeconds, to.minNavIntervalSeconds);
  add("max_annual_gain_bps", from?.maxAnnualGainBps, to.maxAnnualGainBps);
  add("max_daily_loss_bps", from?.maxDailyLossBps, to.maxDailyLossBps);
  return changes;
}

/** The protocol named by the positional argument, else the one the signer created. */
function protocolAddress(positionals: readonly string[], context: CommandContext): PublicKey {
  return positionals[0] === undefined
    ? findProtocolAddress(context.signer.publicKey)
    : parseAddress("<protocol>", positionals[0]);
}

async function init(argv: string[], out: (line: string) => void, env: OperatorEnv): Promise<void> {
  const { values, positionals } = parseFlags(argv, { ...PLAN_FLAGS, ...BOUNDS_FLAGS });
  requireNone(positionals, "init", 0);
  const need = (flag: "max-gain-bps" | "max-loss-bps" | "min-interval"): string => {
    const text = values[flag];
    if (text === undefined) {
      throw new OperatorError(`--${flag} is required: the bounds every NAV strike must keep`);
    }
    return text;
  };
  const bounds: NavBounds = {
    maxGainBps: parseBps("--max-gain-bps", need("max-gain-bps")),
    maxLossBps: parseBps("--max-loss-bps", need("max-loss-bps")),
    minNavIntervalSeconds: parseSeconds("--min-interval", need("min-interval")),
    ...parseRates(values, DEFAULT_NAV_RATES),
  };
  const context = await commandContext(values, out, env);
  const creator = context.signer.publicKey;
  const address = findProtocolAddress(creator);
  if ((await context.client.getAccount(address)) !== null) {
    throw new OperatorError(`${creator.toBase58()} already created protocol ${address.toBase58()}`);
  }
  await runPlan(
    context,
    `protocol init ${address.toBase58()}`,
    [
      { field: "protocol", from: "(none)", to: address.toBase58() },
      { field: "admin", from: "", to: creator.toBase58() },
      ...boundsChanges(null, bounds),
    ],
    [buildInitializeProtocolInstruction({ creator, protocol: address }, bounds)],
  );
  printAccount(context, address, [`protocol ${address.toBase58()}`]);
}

async function show(argv: string[], out: (line: string) => void, env: OperatorEnv): Promise<void> {
  const { values, positionals } = parseFlags(argv, { url: { type: "string" }, keypair: { type: "string" } });
  requireNone(positionals, "show", 1);
  const context = { ...readContext(values.url, env), out };
  let address: PublicKey;
  if (positionals[0] !== undefined) {
    address = parseAddress("<protocol>", positionals[0]);
  } else if (values.keypair !== undefined) {
    address = findProtocolAddress((await commandContext(values, out, env)).signer.publicKey);
  } else {
    throw new OperatorError("name the protocol: protocol show <protocol> (or --keypair of its creator)");
  }
  printAccount(context, address, describeProtocol(address, await readProtocolAccount(context, address)));
}

async function setBounds(argv: string[], out: (line: string) => void, env: OperatorEnv): Promise<void> {
  const { values, positionals } = parseFlags(argv, { ...PLAN_FLAGS, ...BOUNDS_FLAGS });
  requireNone(positionals, "set-bounds", 1);
  const gain = values["max-gain-bps"];
  const loss = values["max-loss-bps"];
  const interval = values["min-interval"];
  if (
    gain === undefined &&
    loss === undefined &&
    interval === undefined &&
    values["max-annual-gain-bps"] === undefined &&
    values["max-daily-loss-bps"] === undefined
  ) {
    throw new OperatorError(
      "set-bounds needs --max-gain-bps, --max-loss-bps, --min-interval, --max-annual-gain-bps or --max-daily-loss-bps",
    );
  }
  const context = await commandContext(values, out, env);
  const address = protocolAddress(positionals, context);
  const protocol = await readProtocolAccount(context, address);
  requireAdmin(context, address, protocol);
  const current: NavBounds = {
    maxGainBps: protocol.maxGainBps,
    maxLossBps: protocol.maxLossBps,
    minNavIntervalSeconds: protocol.minNavIntervalSeconds,
    maxAnnualGainBps: protocol.maxAnnualGainBps,
    maxDailyLossBps: protocol.maxDailyLossBps,
  };
  const next: NavBounds = {
    maxGainBps: gain === undefined ? current.maxGainBps : parseBps("--max-gain-bps", gain),
    maxLossBps: loss === undefined ? current.maxLossBps : parseBps("--max-loss-bps", loss),
    minNavIntervalSeconds:
      interval === undefined ? current.minNavIntervalSeconds : parseSeconds("--min-interval", interval),
    ...parseRates(values, current),
  };
  const changes = boundsChanges(current, next);
  if (changes.length === 0) {
    throw new OperatorError(`nothing to change on ${address.toBase58()}: it already has those bounds`);
  }
  await runPlan(context, `protocol set-bounds ${address.toBase58()}`, changes, [
    buildSetNavBoundsInstruction({ admin: context.signer.publicKey, protocol: address }, next),
  ]);
}

async function setAdmin(argv: string[], out: (line: string) => void, env: OperatorEnv): Promise<void> {
  const { values, positionals } = parseFlags(argv, { ...PLAN_FLAGS, admin: { type: "string" } });
  requireNone(positionals, "set-admin", 1);
  const next = parseAddress("--admin", values.admin);
  const context = await commandContext(values, out, env);
  const address = protocolAddress(positionals, context);
  const protocol = await readProtocolAccount(context, address);
  requireAdmin(context, address, protocol);
  if (protocol.admin.equals(next)) {
    throw new OperatorError(`${next.toBase58()} is already the admin of ${address.toBase58()}`);
  }
  await proposeSuccessor(
    context,
    adminOf(address, protocol),
    next,
    buildProposeAdminInstruction({ admin: context.signer.publicKey, protocol: address }, next),
  );
}

function adminOf(address: PublicKey, protocol: ProtocolState): Authority {
  return { cli: "protocol", role: "admin", address, holder: protocol.admin, pending: protocol.pendingAdmin };
}

async function acceptAdmin(argv: string[], out: (line: string) => void, env: OperatorEnv): Promise<void> {
  const { values, positionals } = parseFlags(argv, PLAN_FLAGS);
  requireNone(positionals, "accept-admin", 1);
  const address = parseAddress("<protocol>", positionals[0]);
  const context = await commandContext(values, out, env);
  const protocol = await readProtocolAccount(context, address);
  await acceptSuccession(
    context,
    adminOf(address, protocol),
    buildAcceptAdminInstruction({ newAdmin: context.signer.publicKey, protocol: address }),
  );
}

/** The furthest the admin's pause may end, from now (the program refuses beyond: 6018). */
const MAX_ADMIN_PAUSE_SECONDS = 30 * 86_400;

/** `--until` as unix seconds: whole seconds, or an ISO 8601 time with its zone. */
export function parsePauseUntil(text: string): bigint {
  if (/^\d+$/.test(text)) {
    return BigInt(text);
  }
  const ms = /^\d{4}-\d{2}-\d{2}T.*(Z|[+-]\d{2}:\d{2})$/.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(ms)) {
    throw new OperatorError(
      `--until must be unix seconds or an ISO 8601 time with its zone (2026-12-01T12:00:00Z); got "${text}"`,
    );
  }
  return BigInt(Math.floor(ms / 1000));
}

const isoOf = (seconds: bigint): string => new Date(Number(seconds) * 1000).toISOString();

async function pauseVault(argv: string[], out: (line: string) => void, env: OperatorEnv): Promise<void> {
  const { values, positionals } = parseFlags(argv, {
    ...PLAN_FLAGS,
    until: { type: "string" },
    lift: { type: "boolean" },
  });
  requireNone(positionals, "pause-vault", 1);
  const vaultAddress = parseAddress("<vault>", positionals[0]);
  if ((values.until === undefined) === (values.lift !== true)) {
    throw new OperatorError("pause-vault needs either --until <ISO time|unix seconds> or --lift");
  }
  const until = values.until === undefined ? 0n : parsePauseUntil(values.until);
  const nowSeconds = BigInt(Math.floor(Date.now() / 1000));
  if (values.until !== undefined) {
    if (until <= nowSeconds) {
      throw new OperatorError(`--until ${isoOf(until)} is not in the future (use --lift to end a pause)`);
    }
    if (until - nowSeconds > BigInt(MAX_ADMIN_PAUSE_SECONDS)) {
      throw new OperatorError(`--until ${isoOf(until)} is more than 30 days ahead (the program refuses it)`);
    }
  }
  const context = await commandContext(values, out, env);
  const vault = await readVaultAccount(context, vaultAddress);
  const protocol = await readProtocolAccount(context, vault.protocol);
  requireAdmin(context, vault.protocol, protocol);
  const inForce = vault.paused && nowSeconds < vault.pauseUntil;
  const pauseWords = (paused: boolean, end: bigint, admin: boolean): string =>
    paused ? `paused until ${isoOf(end)} by the ${admin ? "protocol admin" : "manager"}` : "not paused";
  if (values.lift === true && !inForce) {
    throw new OperatorError(`nothing to lift: ${vaultAddress.toBase58()} is not paused`);
  }
  await runPlan(
    context,
    `protocol pause-vault ${vaultAddress.toBase58()}`,
    [
      {
        field: "pause",
        from: pauseWords(inForce, vault.pauseUntil, vault.adminPaused),
        to: values.lift === true ? "not paused (lifted now)" : pauseWords(true, until, true),
      },
    ],
    [
      buildSetAdminPauseInstruction(
        { admin: context.signer.publicKey, protocol: vault.protocol, vault: vaultAddress },
        until,
      ),
    ],
  );
}

async function setMaxPartnerFee(
  argv: string[],
  out: (line: string) => void,
  env: OperatorEnv,
): Promise<void> {
  const { values, positionals } = parseFlags(argv, { ...PLAN_FLAGS, "max-bps": { type: "string" } });
  requireNone(positionals, "set-max-partner-fee", 1);
  const next = parseBps("--max-bps", requireFlag(values["max-bps"], "--max-bps"), PARTNER_FEE_CEILING_BPS);
  const context = await commandContext(values, out, env);
  const address = protocolAddress(positionals, context);
  const protocol = await readProtocolAccount(context, address);
  requireAdmin(context, address, protocol);
  if (protocol.maxPartnerFeeBps === next) {
    throw new OperatorError(
      `nothing to change on ${address.toBase58()}: its max partner fee is already ${next} bps`,
    );
  }
  await runPlan(
    context,
    `protocol set-max-partner-fee ${address.toBase58()}`,
    [{ field: "max_partner_fee_bps", from: String(protocol.maxPartnerFeeBps), to: String(next) }],
    [buildSetMaxPartnerFeeInstruction({ admin: context.signer.publicKey, protocol: address }, next)],
  );
}

export const runProtocolCli = commandLine(PROTOCOL_USAGE, {
  init,
  show,
  "set-bounds": setBounds,
  "set-admin": setAdmin,
  "accept-admin": acceptAdmin,
  "pause-vault": pauseVault,
  "set-max-partner-fee": setMaxPartnerFee,
});

// Localnet configuration from command-line flags and environment variables (a flag wins over its
// variable), parsed once with zod. A bad value fails fast with a message naming the variable and flag.
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { z } from "zod";

import { parseCommandLine, UsageError, type OptionsSpec } from "../lib/cli/args";
import { ConfigError } from "../lib/env-schema";
import { U64_MAX } from "../lib/vault/model/token-amount";

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

export interface KeeperConfig {
  enabled: boolean;
  /** False: the keeper acts only when called (tests drive it); true: on its own, at the intervals. */
  scheduled: boolean;
  navIntervalSeconds: number;
  /** Yield the keeper reports, as an annual rate in basis points. */
  apyBps: number;
  stageIntervalSeconds: number;
  /** Most shares one stage_withdrawals call funds. */
  stageMaxShares: bigint;
  /**
   * Most claimable withdrawals the keeper delivers per vault and pass (default 5, as a deployment's
   * keeper does: the pages show them delivered); 0 leaves every claim to its owner.
   */
  deliverMaxPerPass: number;
}

export interface FaucetConfig {
  /** USDC (raw units) a faucet request gives when it names no amount. */
  usdcAmount: bigint;
  maxUsdcAmount: bigint;
  requestsPerMinute: number;
  maxAirdropLamports: bigint;
}

export interface LocalnetConfig {
  /**
   * Start from nothing: only the builtins (system, token, upgradeable loader) and a funded payer whose
   * keypair is written to `payerKeypairFile`; no mint, program, vaults or keeper.
   */
  empty: boolean;
  payerKeypairFile: string;
  host: string;
  rpcPort: number;
  /** Defaults to rpcPort + 1, where web3.js looks for it. */
  wsPort: number;
  stateDir: string | null;
  addressesFile: string;
  programPath: string;
  slotMs: number;
  finalizationDepth: number;
  saveIntervalSeconds: number;
  keeper: KeeperConfig;
  faucet: FaucetConfig;
}

// The one configuration error of every process (lib/env-schema.ts): the message names the variable or flag.
export { ConfigError } from "../lib/env-schema";

const integer = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, `must be an integer from ${min} to ${max}`)
    .transform(Number)
    .refine((value) => value >= min && value <= max, `must be an integer from ${min} to ${max}`);

const amount = z
  .string()
  .regex(/^\d+$/, "must be a non-negative integer in raw units")
  .transform(BigInt)
  .refine((value) => value <= U64_MAX, "must fit in a u64");

const flag = z
  .enum(["true", "false", "1", "0", "yes", "no"], { message: "must be true or false" })
  .transform((value) => value === "true" || value === "1" || value === "yes");

const text = z.string().min(1, "must not be empty");

interface OptionSpec<T> {
  flag: string;
  env: string;
  schema: z.ZodType<T, string>;
  description: string;
}

function option<T>(
  flagName: string,
  env: string,
  schema: z.ZodType<T, string>,
  description: string,
): OptionSpec<T> {
  return { flag: flagName, env, schema, description };
}

const OPTIONS = {
  payerKeypairFile: option(
    "--payer-keypair",
    "LOCALNET_PAYER_KEYPAIR",
    text,
    "with --empty: where the funded payer's keypair is written (default localnet/.state/payer.json)",
  ),
  host: option("--host", "LOCALNET_HOST", text, "interface to listen on (default 127.0.0.1)"),
  rpcPort: option("--rpc-port", "LOCALNET_RPC_PORT", integer(0, 65535), "JSON-RPC port (default 8899)"),
  wsPort: option("--ws-port", "LOCALNET_WS_PORT", integer(0, 65535), "PubSub port (default RPC port + 1)"),
  stateDir: option("--state-dir", "LOCALNET_STATE_DIR", text, "save the chain here and restore it at start"),
  addressesFile: option(
    "--addresses-file",
    "LOCALNET_ADDRESSES_FILE",
    text,
    "where the app reads the genesis addresses (default localnet/.state/addresses.json)",
  ),
  programPath: option(
    "--program",
    "LOCALNET_PROGRAM",
    text,
    "vault program binary (default programs/vault/vault.so)",
  ),
  slotMs: option("--slot-ms", "LOCALNET_SLOT_MS", integer(10, 10_000), "slot duration in ms (default 400)"),
  finalizationDepth: option(
    "--finalization-depth",
    "LOCALNET_FINALIZATION_DEPTH",
    integer(1, 150),
    "slots until a block is finalized (default 32)",
  ),
  saveIntervalSeconds: option(
    "--save-interval",
    "LOCALNET_SAVE_INTERVAL_SECONDS",
    integer(1, 86_400),
    "seconds between snapshots with --state-dir (default 30)",
  ),
  keeperEnabled: option("--keeper", "LOCALNET_KEEPER", flag, "run the keeper (default true)"),
  navIntervalSeconds: option(
    "--keeper-nav-interval",
    "LOCALNET_KEEPER_NAV_INTERVAL_SECONDS",
    integer(1, 86_400),
    "seconds between NAV strikes (default 60)",
  ),
  apyBps: option(
    "--keeper-apy-bps",
    "LOCALNET_KEEPER_APY_BPS",
    integer(0, 100_000),
    "reported yield, bps a year (default 1000)",
  ),
  stageIntervalSeconds: option(
    "--keeper-stage-interval",
    "LOCALNET_KEEPER_STAGE_INTERVAL_SECONDS",
    integer(1, 86_400),
    "seconds between queue staging steps (default 20)",
  ),
  stageMaxShares: option(
    "--keeper-stage-max-shares",
    "LOCALNET_KEEPER_STAGE_MAX_SHARES",
    amount,
    "shares funded per staging step, raw units (default 25000000000000: 25,000 shares of 9 decimals)",
  ),
  deliverMaxPerPass: option(
    "--keeper-deliver",
    "LOCALNET_KEEPER_DELIVER",
    integer(0, 100),
    "claimable withdrawals the keeper delivers per vault and pass (default 5; 0: owners claim)",
  ),
  faucetUsdcAmount: option(
    "--faucet-usdc-amount",
    "LOCALNET_FAUCET_USDC_AMOUNT",
    amount,
    "USDC per faucet request, raw units (default 10000000000 = 10,000 USDC)",
  ),
  faucetMaxUsdcAmount: option(
    "--faucet-max-usdc-amount",
    "LOCALNET_FAUCET_MAX_USDC_AMOUNT",
    amount,
    "largest USDC amount one request may ask for (default 100000000000)",
  ),
  faucetRequestsPerMinute: option(
    "--faucet-requests-per-minute",
    "LOCALNET_FAUCET_REQUESTS_PER_MINUTE",
    integer(1, 100_000),
    "faucet requests per client IP per minute (default 10)",
  ),
  maxAirdropLamports: option(
    "--max-airdrop-lamports",
    "LOCALNET_MAX_AIRDROP_LAMPORTS",
    amount,
    "largest requestAirdrop (default 1000000000000 = 1,000 SOL)",
  ),
} as const;

type OptionName = keyof typeof OPTIONS;
type OptionValue<Name extends OptionName> = (typeof OPTIONS)[Name] extends OptionSpec<infer T> ? T : never;

/** The flags and variables, for `npm run localnet` or (the same flags) `npm run dev`. */
export function usage(command = "npm run localnet"): string {
  const lines = Object.values(OPTIONS).map(
    (spec) => `  ${`${spec.flag} <value>`.padEnd(34)} ${spec.env}: ${spec.description}`,
  );
  return [
    `Usage: ${command} -- [--empty] [options]`,
    "",
    `  ${"--empty".padEnd(34)} LOCALNET_EMPTY=true: only the system and token programs, the loader and a funded payer`,
    `  ${"--no-keeper".padEnd(34)} as --keeper false`,
    ...lines,
  ].join("\n");
}

/**
 * Flags as `--name value` or `--name=value`, keyed by their spelling (`--rpc-port`); `--no-keeper`
 * turns the keeper off. Strict: an unknown flag or a missing value throws UsageError.
 */
function parseArgv(argv: readonly string[]): Map<string, string> {
  const options: OptionsSpec = {
    empty: { type: "boolean" },
    "no-keeper": { type: "boolean" },
  };
  for (const spec of Object.values(OPTIONS)) {
    options[spec.flag.slice(2)] = { type: "string" };
  }
  const { values } = parseCommandLine(argv, options);
  const flags = new Map<string, string>();
  for (const [name, value] of Object.entries(values)) {
    if (name === "no-keeper") {
      flags.set("--keeper", "false");
    } else if (typeof value === "string" || typeof value === "boolean") {
      flags.set(`--${name}`, String(value));
    }
  }
  return flags;
}

export function parseLocalnetConfig(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): LocalnetConfig {
  const flags = parseArgv(argv);

  function read<Name extends OptionName>(name: Name): OptionValue<Name> | undefined;
  function read<Name extends OptionName>(name: Name, fallback: OptionValue<Name>): OptionValue<Name>;
  function read<Name extends OptionName>(
    name: Name,
    fallback?: OptionValue<Name>,
  ): OptionValue<Name> | undefined {
    const spec: OptionSpec<OptionValue<Name>> = OPTIONS[name] as OptionSpec<OptionValue<Name>>;
    const fromFlag = flags.get(spec.flag);
    const raw = fromFlag ?? env[spec.env];
    if (raw === undefined || (fromFlag === undefined && raw === "")) {
      return fallback;
    }
    const parsed = spec.schema.safeParse(raw);
    if (!parsed.success) {
      const reason = parsed.error.issues[0]?.message ?? "is invalid";
      // A bad flag is a wrong command line (shown with the usage); a bad variable, a configuration error.
      throw new (fromFlag === undefined ? ConfigError : UsageError)(
        `Invalid localnet configuration: ${spec.env} (${spec.flag}) ${reason}; got "${raw}"`,
      );
    }
    return parsed.data;
  }

  const rpcPort = read("rpcPort", 8899);
  const fromRepo = (path: string): string => resolve(REPO_ROOT, path);
  const stateDir = read("stateDir");
  const emptyRaw = flags.get("--empty") ?? env.LOCALNET_EMPTY;
  const empty = emptyRaw === undefined || emptyRaw === "" ? false : flag.safeParse(emptyRaw);
  if (typeof empty !== "boolean" && !empty.success) {
    throw new ConfigError(
      `Invalid localnet configuration: LOCALNET_EMPTY (--empty) must be true or false; got "${emptyRaw ?? ""}"`,
    );
  }
  return {
    empty: typeof empty === "boolean" ? empty : empty.data,
    payerKeypairFile: resolve(read("payerKeypairFile") ?? fromRepo("localnet/.state/payer.json")),
    host: read("host", "127.0.0.1"),
    rpcPort,
    wsPort: read("wsPort", rpcPort === 0 ? 0 : rpcPort + 1),
    stateDir: stateDir === undefined ? null : resolve(stateDir),
    addressesFile: resolve(read("addressesFile") ?? fromRepo("localnet/.state/addresses.json")),
    programPath: resolve(read("programPath") ?? fromRepo("programs/vault/vault.so")),
    slotMs: read("slotMs", 400),
    finalizationDepth: read("finalizationDepth", 32),
    saveIntervalSeconds: read("saveIntervalSeconds", 30),
    keeper: {
      enabled: read("keeperEnabled", true),
      scheduled: true,
      navIntervalSeconds: read("navIntervalSeconds", 60),
      apyBps: read("apyBps", 1000),
      stageIntervalSeconds: read("stageIntervalSeconds", 20),
      stageMaxShares: read("stageMaxShares", 25_000_000_000_000n),
      deliverMaxPerPass: read("deliverMaxPerPass", 5),
    },
    faucet: {
      usdcAmount: read("faucetUsdcAmount", 10_000_000_000n),
      maxUsdcAmount: read("faucetMaxUsdcAmount", 100_000_000_000n),
      requestsPerMinute: read("faucetRequestsPerMinute", 10),
      maxAirdropLamports: read("maxAirdropLamports", 1_000_000_000_000n),
    },
  };
}

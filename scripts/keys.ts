// npm run keys -- create|list|revoke: API keys in the store the app uses (DATABASE_URL, else the
// embedded database in PGLITE_DIR, reached through the process that holds it, the running app; with
// none running, this command holds it for its run). The secret is printed once, at creation; only
// its hash is stored.
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { PublicKey } from "@solana/web3.js";
import { z } from "zod";

import {
  exitOnCommandLineError,
  HelpRequested,
  integerFlag,
  parseCommandLine,
  UsageError,
} from "../lib/cli/args";
import { getMultipleAccounts } from "../lib/chain/accounts";
import { isAddressText } from "../lib/chain/address-text";
import { appConfigFrom } from "../lib/config";
import { readProtocolVaults } from "../lib/indexer/chain-reads";
import { ConfigError, parseEnv, pgliteDirectory, type EnvValues } from "../lib/env-schema";
import { ChainClient } from "../lib/operator/chain-client";
import type { ApiKeyRecord } from "../lib/store/api-keys";
import type { IndexedVaultRow } from "../lib/store/indexer";
import { Store } from "../lib/store/store";
import { PARTNER_FEE_CEILING_BPS } from "../lib/vault/model/share-math";
import { missingPartnerAccounts } from "../lib/vault/reads/partner-accounts";
import { partnerFeeMaximum } from "../lib/vault/reads/partner-fee-maximum";

const USAGE = `Usage:
  npm run keys -- create --name <name> [--scope read|write] [--vault <id>]... [--wallet <address>] [--rpm <n>] [--test]
                         [--partner-wallet <address> --partner-fee-bps <n>]
  npm run keys -- list
  npm run keys -- revoke <key id>

create prints the key once: keep it on your server. --scope defaults to read; write includes read.
--vault (repeatable) restricts the key to those vaults, --wallet to one wallet. --rpm defaults to
DEFAULT_KEY_RPM or 120. --test makes a vk_test_ key (the default is vk_live_).
--partner-wallet and --partner-fee-bps (together) make the key a partner's: its deposits pay that
wallet's asset account a fee of n bps (1 to the protocol's max_partner_fee_bps, read from the chain;
500 at most when the chain cannot be reached). create warns when the partner has no token account for
the asset of a vault the key may deposit into (such deposits are refused until it has one).`;

const createOptions = z.object({
  name: z.string().min(1).max(100),
  scope: z.enum(["read", "write"]),
  vaults: z.array(z.string().refine(isAddressText, "must be a vault address")).nullable(),
  wallet: z.string().refine(isAddressText, "must be a wallet address").nullable(),
  rpm: z.number().int().min(1).max(1_000_000),
  environment: z.enum(["live", "test"]),
  partner: z
    .object({
      wallet: z.string().refine(isAddressText, "must be a wallet address"),
      feeBps: z
        .number()
        .int("must be a whole number of bps")
        .min(1, "must be at least 1 bps")
        .max(PARTNER_FEE_CEILING_BPS, `must be at most ${PARTNER_FEE_CEILING_BPS} bps`),
    })
    .nullable(),
});

export type KeysCommand =
  | { command: "create"; options: z.infer<typeof createOptions> }
  | { command: "list" }
  | { command: "revoke"; id: string };

/** The command line, checked whole before the store is opened; a wrong one throws UsageError. */
export function parseKeysCommandLine(argv: readonly string[], defaultRpm: number): KeysCommand {
  const [command, ...rest] = argv;
  switch (command) {
    case "create": {
      const { values } = parseCommandLine(rest, {
        name: { type: "string" },
        scope: { type: "string" },
        vault: { type: "string", multiple: true },
        wallet: { type: "string" },
        rpm: { type: "string" },
        test: { type: "boolean" },
        "partner-wallet": { type: "string" },
        "partner-fee-bps": { type: "string" },
      });
      const partnerWallet = values["partner-wallet"];
      const partnerFeeBps = values["partner-fee-bps"];
      if ((partnerWallet === undefined) !== (partnerFeeBps === undefined)) {
        throw new UsageError("--partner-wallet and --partner-fee-bps go together");
      }
      const parsed = createOptions.safeParse({
        name: values.name,
        scope: values.scope ?? "read",
        vaults: values.vault ?? null,
        wallet: values.wallet ?? null,
        rpm: integerFlag("--rpm", values.rpm, { min: 1, max: 1_000_000 }, defaultRpm),
        environment: values.test === true ? "test" : "live",
        partner:
          partnerWallet === undefined
            ? null
            : {
                wallet: partnerWallet,
                feeBps: integerFlag("--partner-fee-bps", partnerFeeBps, {
                  min: 1,
                  max: PARTNER_FEE_CEILING_BPS,
                }),
              },
      });
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const field =
          issue?.path[0] === "partner"
            ? `partner-${issue.path[1] === "feeBps" ? "fee-bps" : "wallet"}`
            : String(issue?.path[0] ?? "option");
        throw new UsageError(`--${field === "vaults" ? "vault" : field}: ${issue?.message ?? "invalid"}`);
      }
      return { command, options: parsed.data };
    }
    case "list":
      parseCommandLine(rest, {});
      return { command };
    case "revoke": {
      const { positionals } = parseCommandLine(rest, {}, { maxPositionals: 1 });
      const id = positionals[0];
      if (id === undefined || !/^key_[1-9A-HJ-NP-Za-km-z]+$/.test(id)) {
        throw new UsageError("revoke needs a key id (key_…)");
      }
      return { command, id };
    }
    case "--help":
    case "-h":
      throw new HelpRequested();
    default:
      throw new UsageError(command === undefined ? "name a command" : `unknown command ${command}`);
  }
}

/** The chain a partner's key is checked against: the configuration, and a client that answered. */
interface PartnerChain {
  config: ReturnType<typeof appConfigFrom>;
  chain: ChainClient;
}

/**
 * Refuses a partner fee above the protocol's maximum on chain (the ceiling when the chain is out of
 * reach). Answers the chain when it answered, so the next check asks it again; null when it is not
 * configured or did not answer (said here, once).
 */
async function checkPartnerFee(env: EnvValues, feeBps: number): Promise<PartnerChain | null> {
  let config: ReturnType<typeof appConfigFrom>;
  try {
    config = appConfigFrom(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(
      `keys: no protocol to read (${error.message}); the partner fee is checked against the ${PARTNER_FEE_CEILING_BPS} bps ceiling only, and the partner's token accounts are not checked`,
    );
    return null;
  }
  const chain = new ChainClient(config.rpcUrl, { timeoutMs: 5_000 });
  const maximum = await partnerFeeMaximum((address) => chain.getAccount(address), config.protocolId);
  if (maximum.source === "ceiling") {
    console.error(
      `keys: the chain at ${config.rpcUrl} did not answer; the partner fee is checked against the ${PARTNER_FEE_CEILING_BPS} bps ceiling only, and the partner's token accounts are not checked`,
    );
  }
  if (feeBps > maximum.maxFeeBps) {
    throw new UsageError(
      `--partner-fee-bps: ${feeBps} is above the protocol's maximum partner fee of ${maximum.maxFeeBps} bps`,
    );
  }
  return maximum.source === "ceiling" ? null : { config, chain };
}

/**
 * The vaults a key may deposit into (all the protocol's, or the ones it names), as the directory lists
 * them; read from the chain when the directory does not list them all (the app's indexer has not run
 * yet). `unlisted`: the named ones the chain does not hold either.
 */
async function depositVaults(
  config: ReturnType<typeof appConfigFrom>,
  chain: ChainClient,
  directory: readonly IndexedVaultRow[],
  named: readonly string[] | null,
): Promise<{ rows: { vault: string; accountData: Uint8Array }[]; unlisted: string[] }> {
  const within = <T extends { vault: string }>(rows: readonly T[]) =>
    rows.filter((row) => named === null || named.includes(row.vault));
  const unlistedIn = (rows: readonly { vault: string }[]) =>
    (named ?? []).filter((vault) => !rows.some((row) => row.vault === vault));
  if (directory.length > 0 && unlistedIn(directory).length === 0) {
    return { rows: within(directory), unlisted: [] };
  }
  const { vaults } = await readProtocolVaults(chain.rpc, config.programId, config.protocolId);
  const rows = vaults.map((vault) => ({ vault: vault.address.toBase58(), accountData: vault.data }));
  return { rows: within(rows), unlisted: unlistedIn(rows) };
}

/**
 * Warns when the partner has no token account for the asset of a vault its key may deposit into: each
 * such deposit is refused (PARTNER_ACCOUNT_MISSING) until the account exists. The accounts are read in
 * one getMultipleAccounts call. The key stands either way.
 */
async function warnOfMissingPartnerAccounts(
  { config, chain }: PartnerChain,
  store: Store,
  key: ApiKeyRecord,
): Promise<void> {
  if (key.partner === null) return;
  const partner = new PublicKey(key.partner.wallet);
  let missing: Awaited<ReturnType<typeof missingPartnerAccounts>>;
  let unlisted: string[];
  const directory = await store.indexer.vaults();
  try {
    const vaults = await depositVaults(config, chain, directory, key.vaults);
    unlisted = vaults.unlisted;
    missing =
      vaults.rows.length === 0
        ? []
        : await missingPartnerAccounts(
            async (addresses) => (await getMultipleAccounts(chain.rpc, addresses)).accounts,
            partner,
            vaults.rows,
          );
    if (vaults.rows.length === 0 && unlisted.length === 0) {
      console.error("keys: the protocol has no vaults yet; the partner's token accounts were not checked");
    }
  } catch (error) {
    console.error(
      `keys: the chain at ${config.rpcUrl} did not answer (${error instanceof Error ? error.message : String(error)}); the partner's token accounts were not checked`,
    );
    return;
  }
  if (unlisted.length > 0) {
    console.error(
      `keys: ${unlisted.join(", ")}: not a vault of the protocol ${config.protocolId.toBase58()}; the partner's token account for its asset was not checked`,
    );
  }
  for (const { mint, account, vaults: refused } of missing) {
    const symbol = config.assetSymbols.get(mint.toBase58());
    const asset = symbol === undefined ? `mint ${mint.toBase58()}` : `${symbol} (mint ${mint.toBase58()})`;
    console.error(
      `keys: warning: the partner ${partner.toBase58()} has no token account for ${asset}: its associated ` +
        `token account ${account.toBase58()} does not exist, so deposits through this key into ` +
        `${refused.join(", ")} are refused (PARTNER_ACCOUNT_MISSING) until it does. The key is created; ` +
        `open the account by sending the partner any amount of ${symbol ?? "the asset"} from a wallet, or with ` +
        `\`spl-token create-account ${mint.toBase58()} --owner ${partner.toBase58()} --fee-payer <keypair file>\``,
    );
  }
}

function describe(key: ApiKeyRecord): string {
  const status = key.revokedAt === null ? "active" : `revoked ${key.revokedAt.toISOString()}`;
  return [
    `${key.id}  ${key.keyPrefix}…  ${key.scope.padEnd(5)}  ${String(key.rpm).padStart(6)} rpm  ${status}`,
    `    name: ${key.name}`,
    `    vaults: ${key.vaults?.join(", ") ?? "any"}   wallet: ${key.wallet ?? "any"}`,
    `    partner: ${key.partner === null ? "none" : `${key.partner.wallet} (${key.partner.feeBps} bps on deposits)`}`,
    `    created ${key.createdAt.toISOString()}   last used ${key.lastUsedAt?.toISOString() ?? "never"}`,
  ].join("\n");
}

function storeFromEnv(env: EnvValues): Store {
  return new Store({
    databaseUrl: env.DATABASE_URL ?? null,
    pgliteDir: pgliteDirectory(env.DATABASE_URL, env.PGLITE_DIR),
    timeoutMs: 5_000,
    embeddedRole: "shared",
    onWait: (message) => console.error(`keys: ${message}`),
  });
}

async function main(): Promise<void> {
  const env = parseEnv(process.env);
  const request = parseKeysCommandLine(process.argv.slice(2), env.DEFAULT_KEY_RPM);
  const store = storeFromEnv(env);
  try {
    switch (request.command) {
      case "create": {
        const partnerChain =
          request.options.partner === null
            ? null
            : await checkPartnerFee(env, request.options.partner.feeBps);
        const { secret, record } = await store.keys.create(request.options);
        console.log(describe(record));
        if (partnerChain !== null) {
          await warnOfMissingPartnerAccounts(partnerChain, store, record);
        }
        console.log(`\nAPI key (shown once, store it now):\n${secret}`);
        break;
      }
      case "list": {
        const keys = await store.keys.list();
        console.log(keys.length === 0 ? "No API keys." : keys.map(describe).join("\n"));
        break;
      }
      case "revoke": {
        const revoked = await store.keys.revoke(request.id);
        console.log(revoked ? `Revoked ${request.id}.` : `No active key ${request.id}.`);
        process.exitCode = revoked ? 0 : 1;
        break;
      }
    }
  } finally {
    await store.close();
  }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    if (!exitOnCommandLineError("keys", USAGE, error)) {
      console.error(error instanceof ConfigError ? error.message : error);
      process.exit(1);
    }
  });
}

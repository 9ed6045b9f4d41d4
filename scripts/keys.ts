// npm run keys -- create|list|revoke: API keys in the store the app uses (DATABASE_URL, else the
// embedded database in PGLITE_DIR, reached through the process that holds it, the running app; with
// none running, this command holds it for its run). The secret is printed once, at creation; only
// its hash is stored.
import { z } from "zod";

import { isAddressText } from "../lib/chain/address-text";
import { appConfigFrom } from "../lib/config";
import { ConfigError, parseEnv, pgliteDirectory, type EnvValues } from "../lib/env-schema";
import { ChainClient } from "../lib/operator/chain-client";
import type { ApiKeyRecord } from "../lib/store/api-keys";
import { Store } from "../lib/store/store";
import { PARTNER_FEE_CEILING_BPS } from "../lib/vault/model/share-math";
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
500 at most when the chain cannot be reached).`;

function fail(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  process.exit(2);
}

function parseFlags(argv: readonly string[]): Map<string, string[]> {
  const flags = new Map<string, string[]>();
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index] ?? "";
    if (!argument.startsWith("--")) {
      fail(`Unexpected argument ${argument}`);
    }
    const [name = "", inline] = argument.slice(2).split(/=(.*)/s, 2);
    if (name === "test") {
      flags.set("test", ["true"]);
      continue;
    }
    const value = inline ?? argv[index + 1];
    if (inline === undefined) {
      index += 1;
    }
    if (value === undefined) {
      fail(`--${name} needs a value`);
    }
    flags.set(name, [...(flags.get(name) ?? []), value]);
  }
  return flags;
}

const createOptions = z.object({
  name: z.string().min(1).max(100),
  scope: z.enum(["read", "write"]),
  vaults: z.array(z.string().refine(isAddressText, "must be a vault address")).nullable(),
  wallet: z.string().refine(isAddressText, "must be a wallet address").nullable(),
  rpm: z.number().int().min(1).max(1_000_000),
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

/** --partner-wallet and --partner-fee-bps come together or not at all. */
function partnerFlags(flags: Map<string, string[]>): { wallet: string | undefined; feeBps: number } | null {
  const wallet = flags.get("partner-wallet")?.[0];
  const bps = flags.get("partner-fee-bps")?.[0];
  if (wallet === undefined && bps === undefined) {
    return null;
  }
  if (wallet === undefined || bps === undefined) {
    fail("--partner-wallet and --partner-fee-bps go together");
  }
  if (!/^\d{1,5}$/.test(bps)) {
    fail("--partner-fee-bps: must be a whole number of bps");
  }
  return { wallet, feeBps: Number(bps) };
}

/** Refuses a partner fee above the protocol's maximum on chain (the ceiling when the chain is out of reach). */
async function checkPartnerFee(env: EnvValues, feeBps: number): Promise<void> {
  let config: ReturnType<typeof appConfigFrom>;
  try {
    config = appConfigFrom(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(
      `keys: no protocol to read (${error.message}); the partner fee is checked against the ${PARTNER_FEE_CEILING_BPS} bps ceiling only`,
    );
    return;
  }
  const chain = new ChainClient(config.rpcUrl, { timeoutMs: 5_000 });
  const maximum = await partnerFeeMaximum((address) => chain.getAccount(address), config.protocolId);
  if (maximum.source === "ceiling") {
    console.error(
      `keys: the chain at ${config.rpcUrl} did not answer; the partner fee is checked against the ${PARTNER_FEE_CEILING_BPS} bps ceiling only`,
    );
  }
  if (feeBps > maximum.maxFeeBps) {
    fail(
      `--partner-fee-bps: ${feeBps} is above the protocol's maximum partner fee of ${maximum.maxFeeBps} bps`,
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
  const [command, ...rest] = process.argv.slice(2);
  const env = parseEnv(process.env);
  const store = storeFromEnv(env);
  try {
    switch (command) {
      case "create": {
        const flags = parseFlags(rest);
        const parsed = createOptions.safeParse({
          name: flags.get("name")?.[0],
          scope: flags.get("scope")?.[0] ?? "read",
          vaults: flags.get("vault") ?? null,
          wallet: flags.get("wallet")?.[0] ?? null,
          rpm: Number(flags.get("rpm")?.[0] ?? env.DEFAULT_KEY_RPM),
          partner: partnerFlags(flags),
        });
        if (!parsed.success) {
          const issue = parsed.error.issues[0];
          const flag =
            issue?.path[0] === "partner"
              ? `partner-${issue.path[1] === "feeBps" ? "fee-bps" : "wallet"}`
              : String(issue?.path[0] ?? "option");
          fail(`--${flag}: ${issue?.message ?? "invalid"}`);
        }
        if (parsed.data.partner !== null) {
          await checkPartnerFee(env, parsed.data.partner.feeBps);
        }
        const { secret, record } = await store.keys.create({
          ...parsed.data,
          environment: flags.has("test") ? "test" : "live",
        });
        console.log(describe(record));
        console.log(`\nAPI key (shown once, store it now):\n${secret}`);
        break;
      }
      case "list": {
        const keys = await store.keys.list();
        console.log(keys.length === 0 ? "No API keys." : keys.map(describe).join("\n"));
        break;
      }
      case "revoke": {
        const id = rest[0];
        if (id === undefined || !/^key_[1-9A-HJ-NP-Za-km-z]+$/.test(id)) {
          fail("revoke needs a key id (key_…)");
        }
        const revoked = await store.keys.revoke(id);
        console.log(revoked ? `Revoked ${id}.` : `No active key ${id}.`);
        process.exitCode = revoked ? 0 : 1;
        break;
      }
      default:
        fail(command === undefined ? "Name a command." : `Unknown command ${command}`);
    }
  } finally {
    await store.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});

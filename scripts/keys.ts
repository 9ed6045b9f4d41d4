// npm run keys -- create|list|revoke: API keys in the store the app uses (DATABASE_URL, else the
// embedded database in PGLITE_DIR, reached through the process that holds it, the running app; with
// none running, this command holds it for its run). The secret is printed once, at creation; only
// its hash is stored.
import { z } from "zod";

import { isAddressText } from "../lib/chain/address-text";
import { ConfigError, parseEnv, pgliteDirectory, type EnvValues } from "../lib/env-schema";
import type { ApiKeyRecord } from "../lib/store/api-keys";
import { Store } from "../lib/store/store";

const USAGE = `Usage:
  npm run keys -- create --name <name> [--scope read|write] [--vault <id>]... [--wallet <address>] [--rpm <n>] [--test]
  npm run keys -- list
  npm run keys -- revoke <key id>

create prints the key once: keep it on your server. --scope defaults to read; write includes read.
--vault (repeatable) restricts the key to those vaults, --wallet to one wallet. --rpm defaults to
DEFAULT_KEY_RPM or 120. --test makes a vk_test_ key (the default is vk_live_).`;

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
});

function describe(key: ApiKeyRecord): string {
  const status = key.revokedAt === null ? "active" : `revoked ${key.revokedAt.toISOString()}`;
  return [
    `${key.id}  ${key.keyPrefix}…  ${key.scope.padEnd(5)}  ${String(key.rpm).padStart(6)} rpm  ${status}`,
    `    name: ${key.name}`,
    `    vaults: ${key.vaults?.join(", ") ?? "any"}   wallet: ${key.wallet ?? "any"}`,
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
        });
        if (!parsed.success) {
          const issue = parsed.error.issues[0];
          fail(`--${String(issue?.path[0] ?? "option")}: ${issue?.message ?? "invalid"}`);
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

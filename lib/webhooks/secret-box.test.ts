// Webhook secrets at rest: sealed with AES-256-GCM under the environment's key, opened only with a key
// that sealed them, the plain rows of before sealed by the worker's pass, and a rotation's previous key
// still opening what it sealed until that pass seals it again.
import { randomBytes } from "node:crypto";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { ConfigError } from "../env-schema";
import { Store } from "../store/store";
import { WebhookStore } from "../store/webhooks";
import { parseSecretKey, SecretBox } from "./secret-box";
import { parseWebhookSettings } from "./settings";
import { newWebhookSecret } from "./signing";

describe("SecretBox", () => {
  it("seals a secret so the sealed text holds nothing of it, and opens it again", () => {
    const box = new SecretBox(randomBytes(32));
    const secret = newWebhookSecret();
    const sealed = box.seal(secret);
    expect(sealed).toMatch(/^enc:v1:[0-9a-f]{8}:[\w-]+:[\w-]+$/);
    expect(sealed).not.toContain(secret.slice(6, 20));
    expect(box.seal(secret)).not.toBe(sealed);
    expect(box.open(sealed)).toBe(secret);
    expect(box.isCurrent(sealed)).toBe(true);
    // A row written before sealing began reads as it is.
    expect(box.open(secret)).toBe(secret);
  });

  it("refuses a tampered value and one sealed under a key it does not have", () => {
    const box = new SecretBox(randomBytes(32));
    const sealed = box.seal("whsec_x");
    const last = sealed.at(-2) === "A" ? "B" : "A";
    expect(() => box.open(`${sealed.slice(0, -2)}${last}${sealed.slice(-1)}`)).toThrow();
    expect(() => new SecretBox(randomBytes(32)).open(sealed)).toThrow(/not configured/);
  });

  it("opens what a previous key sealed after a rotation, and seals under the new one", () => {
    const old = randomBytes(32);
    const sealedBefore = new SecretBox(old).seal("whsec_before");
    const rotated = new SecretBox(randomBytes(32), [old]);
    expect(rotated.open(sealedBefore)).toBe("whsec_before");
    expect(rotated.isCurrent(sealedBefore)).toBe(false);
    expect(rotated.isCurrent(rotated.seal("whsec_after"))).toBe(true);
  });

  it("reads keys as 64 hex digits or base64 of 32 bytes, nothing else", () => {
    const key = randomBytes(32);
    expect(parseSecretKey(key.toString("hex"))).toEqual(key);
    expect(parseSecretKey(key.toString("base64"))).toEqual(key);
    expect(parseSecretKey(key.toString("base64url"))).toEqual(key);
    expect(parseSecretKey(randomBytes(16).toString("base64"))).toBeNull();
    expect(parseSecretKey("correct horse battery staple")).toBeNull();
  });
});

describe("the key's source", () => {
  let directory: string;
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), "webhook-key-"));
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it("generates the development key once beside the embedded database, readable by its owner only", async () => {
    const settings = parseWebhookSettings({ PGLITE_DIR: join(directory, "pglite") });
    expect(settings.secretKey).toEqual({
      kind: "file",
      path: join(directory, "webhook-secret.key"),
      previous: [],
    });
    const sealed = SecretBox.from(settings.secretKey).seal("whsec_dev");
    // Another process (or this one restarted) reads the same key.
    expect(SecretBox.from(settings.secretKey).open(sealed)).toBe("whsec_dev");
    expect((await stat(join(directory, "webhook-secret.key"))).mode & 0o777).toBe(0o600);
  });

  it("takes WEBHOOK_SECRET_KEY and WEBHOOK_SECRET_KEY_PREVIOUS, and refuses bad ones without repeating them", () => {
    const current = randomBytes(32);
    const previous = randomBytes(32);
    expect(
      parseWebhookSettings({
        WEBHOOK_SECRET_KEY: current.toString("base64"),
        WEBHOOK_SECRET_KEY_PREVIOUS: previous.toString("hex"),
      }).secretKey,
    ).toEqual({ kind: "env", current, previous: [previous] });
    for (const env of [
      { WEBHOOK_SECRET_KEY: "too-short-key" },
      { WEBHOOK_SECRET_KEY_PREVIOUS: "nope-nope" },
    ]) {
      expect(() => parseWebhookSettings(env)).toThrow(ConfigError);
      expect(() => parseWebhookSettings(env)).not.toThrow(/too-short-key|nope-nope/);
    }
  });

  it("is required in production with DATABASE_URL, where every instance must share it", () => {
    expect(() =>
      parseWebhookSettings({ NODE_ENV: "production", DATABASE_URL: "postgres://db.example/app" }),
    ).toThrow(/WEBHOOK_SECRET_KEY is required in production with DATABASE_URL/);
    expect(parseWebhookSettings({ PGLITE_DIR: ":memory:" }).secretKey).toEqual({ kind: "memory" });
  });
});

describe("secrets in the endpoints' rows", () => {
  const store = new Store({ databaseUrl: null, pgliteDir: null, timeoutMs: 5_000 });
  afterAll(async () => {
    await store.close();
  });

  it("are sealed on write; plain rows of before and rows under a rotated-out key are sealed again by the pass", async () => {
    const oldKey = randomBytes(32);
    const newKey = randomBytes(32);
    const { record } = await store.keys.create({
      name: "sealing",
      scope: "write",
      vaults: null,
      wallet: null,
      rpm: 100,
    });
    const insert = (id: string, secret: string, previous: string | null) =>
      store.query(
        `INSERT INTO webhook_endpoints (id, key_id, url, events, description, secret, previous_secret)
         VALUES ($1, $2, 'https://hooks.example/x', ARRAY['deposit.confirmed'], NULL, $3, $4)`,
        [id, record.id, secret, previous],
      );
    await insert("wh_plain", "whsec_plain", "whsec_plain_previous");
    await insert("wh_old", new SecretBox(oldKey).seal("whsec_old"), null);
    // Sealed under a key nobody configured: left alone, and the others are still sealed.
    const lost = new SecretBox(randomBytes(32)).seal("whsec_lost");
    await insert("wh_lost", lost, null);
    const webhooks = new WebhookStore(store, new SecretBox(newKey, [oldKey]));
    await webhooks.createEndpoint({
      id: "wh_new",
      keyId: record.id,
      url: "https://hooks.example/y",
      events: ["deposit.confirmed"],
      description: null,
      secret: "whsec_new",
    });
    expect(await webhooks.sealSecrets()).toBe(2);
    expect(await webhooks.sealSecrets()).toBe(0);
    const rows = await store.query<{ id: string; secret: string; previous_secret: string | null }>(
      "SELECT id, secret, previous_secret FROM webhook_endpoints WHERE id <> 'wh_lost' ORDER BY id",
    );
    expect(
      await store.query("SELECT id FROM webhook_endpoints WHERE id = 'wh_lost' AND secret = $1", [lost]),
    ).toHaveLength(1);
    const current = new SecretBox(newKey);
    expect(rows.map((row) => [row.id, current.isCurrent(row.secret), row.secret.includes("whsec_")])).toEqual(
      [
        ["wh_new", true, false],
        ["wh_old", true, false],
        ["wh_plain", true, false],
      ],
    );
    // Only the new key is needed now.
    expect(
      rows.map((row) => [current.open(row.secret), row.previous_secret && current.open(row.previous_secret)]),
    ).toEqual([
      ["whsec_new", null],
      ["whsec_old", null],
      ["whsec_plain", "whsec_plain_previous"],
    ]);
  });
});

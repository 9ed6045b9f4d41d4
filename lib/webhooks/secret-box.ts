// Webhook signing secrets at rest: sealed with AES-256-GCM under a key from the environment
// (WEBHOOK_SECRET_KEY), so a copy of the database alone signs nothing. A sealed value names its key
// (the first 8 hex digits of the key's SHA-256), so after a rotation the previous keys
// (WEBHOOK_SECRET_KEY_PREVIOUS) still open what they sealed until the worker has sealed it again under
// the current one. A value without the prefix is a row written before encryption (plain), read as
// it is and sealed by the same pass. Without WEBHOOK_SECRET_KEY the key is generated once and kept in
// a file beside the embedded database (development), or in memory when that database is.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

const PREFIX = "enc:v1:";
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Where the key comes from (the webhook settings). */
export type SecretKeySource =
  | { kind: "env"; current: Buffer; previous: readonly Buffer[] }
  | { kind: "file"; path: string; previous: readonly Buffer[] }
  | { kind: "memory" };

/** Reads a 32-byte key written as 64 hex digits or as base64; null when it is neither. */
export function parseSecretKey(text: string): Buffer | null {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) {
    return Buffer.from(trimmed, "hex");
  }
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)) {
    const key = Buffer.from(trimmed, trimmed.includes("-") || trimmed.includes("_") ? "base64url" : "base64");
    return key.length === KEY_BYTES ? key : null;
  }
  return null;
}

function keyIdOf(key: Buffer): string {
  return createHash("sha256").update(key).digest("hex").slice(0, 8);
}

/** The development key: read from `path`, or generated and written there (mode 0600) on first use. */
function keyFromFile(path: string): Buffer {
  try {
    const key = parseSecretKey(readFileSync(path, "utf8"));
    if (key === null) {
      throw new Error(`${path} does not hold a webhook secret key (32 bytes, base64 or hex)`);
    }
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") {
      throw error;
    }
  }
  mkdirSync(dirname(path), { recursive: true });
  try {
    writeFileSync(path, `${randomBytes(KEY_BYTES).toString("base64")}\n`, { mode: 0o600, flag: "wx" });
  } catch (error) {
    // Another process wrote it first: use theirs.
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") {
      throw error;
    }
  }
  return keyFromFile(path);
}

export class SecretBox {
  private readonly current: { id: string; key: Buffer };
  private readonly keys: Map<string, Buffer>;

  constructor(current: Buffer, previous: readonly Buffer[] = []) {
    if (current.length !== KEY_BYTES) {
      throw new Error(`A webhook secret key is ${KEY_BYTES} bytes`);
    }
    this.current = { id: keyIdOf(current), key: current };
    this.keys = new Map([...previous, current].map((key) => [keyIdOf(key), key]));
  }

  static from(source: SecretKeySource): SecretBox {
    switch (source.kind) {
      case "env":
        return new SecretBox(source.current, source.previous);
      case "file":
        return new SecretBox(keyFromFile(source.path), source.previous);
      case "memory":
        return new SecretBox(randomBytes(KEY_BYTES));
    }
  }

  /** `enc:v1:<key id>:<iv>:<ciphertext and tag>`, base64url. */
  seal(secret: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", this.current.key, iv);
    const sealed = Buffer.concat([cipher.update(secret, "utf8"), cipher.final(), cipher.getAuthTag()]);
    return `${PREFIX}${this.current.id}:${iv.toString("base64url")}:${sealed.toString("base64url")}`;
  }

  /** The secret; a plain (pre-encryption) value as it is. Throws when no key it knows sealed it. */
  open(stored: string): string {
    if (!stored.startsWith(PREFIX)) {
      return stored;
    }
    const [keyId = "", iv = "", sealed = ""] = stored.slice(PREFIX.length).split(":");
    const key = this.keys.get(keyId);
    if (key === undefined) {
      throw new Error(`A webhook secret is sealed under key ${keyId}, which is not configured`);
    }
    const bytes = Buffer.from(sealed, "base64url");
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    return Buffer.concat([
      decipher.update(bytes.subarray(0, bytes.length - TAG_BYTES)),
      decipher.final(),
    ]).toString("utf8");
  }

  /** Whether a stored value is sealed under the current key (else the worker seals it again). */
  isCurrent(stored: string): boolean {
    return stored.startsWith(`${PREFIX}${this.current.id}:`);
  }

  /** The LIKE pattern of values sealed under the current key. */
  get currentPattern(): string {
    return `${PREFIX}${this.current.id}:%`;
  }
}

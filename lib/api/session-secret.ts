// The page sessions' HMAC key as every instance over one store agrees on it: SESSION_SECRET, else the
// key derived from FIRST_PARTY_API_KEY, else a random key the first instance writes to the store's
// shared_secrets table and every other instance (and every later boot) reads back. A session issued by
// one instance behind a load balancer is then accepted by the others with nothing to configure; an
// operator who would rather keep the key out of the database sets SESSION_SECRET.
import { randomBytes } from "node:crypto";

import type { Queryable } from "../store/db";
import { sessionSecret } from "./session-token";

const SESSION_SECRET_NAME = "page-session-hmac";

/** One read per store: the key never changes once written. */
const storedSecrets = new WeakMap<Queryable, Promise<string>>();

async function storedSessionSecret(store: Queryable): Promise<string> {
  // Two instances booting together both try to insert; the first wins and both read the winner.
  await store.query(
    "INSERT INTO shared_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING",
    [SESSION_SECRET_NAME, randomBytes(32).toString("base64url")],
  );
  const [row] = await store.query<{ value: string }>("SELECT value FROM shared_secrets WHERE name = $1", [
    SESSION_SECRET_NAME,
  ]);
  if (row === undefined) {
    throw new Error("The page sessions' key was written but cannot be read back");
  }
  return row.value;
}

export interface SessionSecretSettings {
  sessionSecret: string | null;
  firstPartyApiKey: string | null;
}

export function sharedSessionSecret(settings: SessionSecretSettings, store: Queryable): Promise<string> {
  if (settings.sessionSecret !== null || settings.firstPartyApiKey !== null) {
    return Promise.resolve(sessionSecret(settings.sessionSecret, settings.firstPartyApiKey));
  }
  let secret = storedSecrets.get(store);
  if (secret === undefined) {
    secret = storedSessionSecret(store);
    storedSecrets.set(store, secret);
    // A failed read (the database is down) is tried again by the next request.
    secret.catch(() => storedSecrets.delete(store));
  }
  return secret;
}

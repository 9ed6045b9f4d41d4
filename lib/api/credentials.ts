// Credential sources for partner routes. Each looks for its own credential: absent → null (the next
// source is asked), present but bad → 401. Bearer API keys are the partners' source; the pages'
// first-party session (lib/api/first-party-session.ts) is another source appended to the context's list.
import { API_KEY_PATTERN, type KeyScope } from "../store/api-keys";
import type { ApiContext } from "./context";
import { ApiError } from "./errors";
import type { ApiRequest } from "./handler";

export interface Principal {
  /** Rate limits are keyed by this id. */
  keyId: string;
  scope: KeyScope;
  /** Null: every vault. */
  vaults: readonly string[] | null;
  /** Null: any wallet. */
  wallet: string | null;
  rpm: number;
  source: string;
  /** A second per-minute budget inside the key's (the pages' per-session one), keyed by `id`. */
  sessionLimit?: { id: string; rpm: number };
  /** Headers every answer to this request carries (the pages' renewed session cookie). */
  responseHeaders?: Record<string, string>;
}

export interface CredentialSource {
  name: string;
  authenticate(request: ApiRequest, context: ApiContext): Promise<Principal | null>;
}

function unauthorized(message: string): ApiError {
  return new ApiError("UNAUTHORIZED", message, undefined, { "WWW-Authenticate": 'Bearer realm="api"' });
}

export const bearerKeySource: CredentialSource = {
  name: "bearer",
  async authenticate(request, context) {
    const header = request.headers.get("authorization");
    if (header === null) {
      return null;
    }
    const match = /^Bearer +(\S+) *$/i.exec(header);
    if (match === null) {
      throw unauthorized("Malformed Authorization header: use Authorization: Bearer <API_KEY>");
    }
    const secret = match[1] ?? "";
    if (!API_KEY_PATTERN.test(secret)) {
      throw unauthorized("Malformed API key");
    }
    const key = await context.keys.resolve(secret);
    if (key === null) {
      throw unauthorized("Unknown API key");
    }
    if (key.revokedAt !== null) {
      throw unauthorized("This API key has been revoked");
    }
    context.keys.noteUse(key);
    return {
      keyId: key.id,
      scope: key.scope,
      vaults: key.vaults,
      wallet: key.wallet,
      rpm: key.rpm,
      source: "bearer",
    };
  },
};

/** The first source that recognises a credential; 401 when none is presented. */
export async function authenticate(request: ApiRequest, context: ApiContext): Promise<Principal> {
  for (const source of context.credentialSources) {
    const principal = await source.authenticate(request, context);
    if (principal !== null) {
      return principal;
    }
  }
  throw unauthorized("Missing API key: send Authorization: Bearer <API_KEY>");
}

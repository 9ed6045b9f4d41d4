// Credential sources for partner routes. Each looks for its own credential: absent → null (the next
// source is asked), present but bad → 401. Bearer API keys are the partners' source; the pages'
// first-party session (lib/api/first-party-session.ts) is another source appended to the context's list.
import { API_KEY_PATTERN } from "../store/api-keys";
import { ApiError } from "./errors";
import type { ApiContext, ApiRequest, CredentialSource, Principal } from "./types";

export type { CredentialSource, Principal } from "./types";

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
      partner: key.partner,
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

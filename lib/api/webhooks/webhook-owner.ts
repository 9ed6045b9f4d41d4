// The key that owns a webhook endpoint, and what the webhook endpoints share: no vault or wallet target, the security suite's sample id.
import { type Owner } from "../../webhooks/subscriptions";
import type { Principal } from "../credentials";
import { ApiError } from "../errors";
export const noTarget = () => ({ vault: null, wallet: null });

/** An id the security suite's requests name: well formed, owned by no key. */
export const SAMPLE_ID = `wh_${"0".repeat(32)}`;

/**
 * The key that owns the endpoints. Only a partner's own bearer key: the pages' first-party session is
 * served under the app's one shared key, so every visitor would otherwise share (and could change)
 * the same subscriptions.
 */
export function ownerOf(principal: Principal): Owner {
  if (principal.source !== "bearer") {
    throw new ApiError("FORBIDDEN", "Webhooks are managed with a partner API key (Authorization: Bearer)");
  }
  return {
    keyId: principal.keyId,
    vaults: principal.vaults,
    wallet: principal.wallet,
    partner: principal.partner?.wallet ?? null,
  };
}

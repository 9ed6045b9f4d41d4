// An embed's partner (issue 32 item 5): `?partner=<key id>` on /embed/vault/{id} names the partner
// whose fee the page's deposits pay. Its terms (wallet, bps) come from the server's key store, never
// from the host page: the URL names only the key id, and the build and the check before signing hold
// the deposit to exactly the terms the page shows.
import { partnerFeeRoundDown } from "../vault/model/share-math";

export interface EmbedPartner {
  keyId: string;
  /** The wallet the fee is paid to (its associated token account for the vault's asset). */
  wallet: string;
  feeBps: number;
}

/** What the embed's `partner` parameter names: nothing, a partner, or a key we cannot use (said on the page). */
export type EmbedPartnerRead =
  { status: "none" } | { status: "found"; partner: EmbedPartner } | { status: "unknown"; named: string };

const KEY_ID = /^key_[1-9A-HJ-NP-Za-km-z]{1,64}$/;

/** The `partner` query parameter as a key id, or null when it is absent; a malformed value is returned as-is. */
export function namedPartner(value: string | string[] | undefined): string | null {
  const text = Array.isArray(value) ? value[0] : value;
  // Shown back on the page when it is not a partner: no longer than any key id.
  return text === undefined || text === "" ? null : text.slice(0, 70);
}

export function isKeyId(text: string): boolean {
  return KEY_ID.test(text);
}

/** The fee and the amount deposited after it, as the program computes them (rounded down). */
export function partnerFeeSplit(amount: bigint, partner: EmbedPartner): { fee: bigint; net: bigint } {
  const fee = partnerFeeRoundDown(amount, partner.feeBps);
  return { fee, net: amount - fee };
}

/** 25 bps as the reader writes a percentage: "0.25%" in en-US, "0,25 %" in de-DE; 100 bps is "1%". */
export function bpsPercent(bps: number, locale?: string): string {
  return new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 2 }).format(bps / 10_000);
}

// The highest partner fee a key may carry: the protocol's max_partner_fee_bps as the chain has it now,
// or, when the chain cannot be asked, the program's ceiling (no protocol may set more).
import type { PublicKey } from "@solana/web3.js";

import { PARTNER_FEE_CEILING_BPS } from "../model/share-math";
import { decodeProtocolState } from "../program/accounts";

export interface PartnerFeeMaximum {
  maxFeeBps: number;
  /** "protocol": read from the protocol account; "ceiling": the chain was not reachable. */
  source: "protocol" | "ceiling";
}

export async function partnerFeeMaximum(
  readAccount: (address: PublicKey) => Promise<{ data: Uint8Array } | null>,
  protocol: PublicKey,
): Promise<PartnerFeeMaximum> {
  let account: { data: Uint8Array } | null;
  try {
    account = await readAccount(protocol);
  } catch {
    return { maxFeeBps: PARTNER_FEE_CEILING_BPS, source: "ceiling" };
  }
  if (account === null) {
    throw new Error(`The protocol account ${protocol.toBase58()} does not exist on this chain`);
  }
  return { maxFeeBps: decodeProtocolState(account.data).maxPartnerFeeBps, source: "protocol" };
}

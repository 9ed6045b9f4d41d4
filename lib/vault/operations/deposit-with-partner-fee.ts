// deposit_with_partner_fee: a deposit built for a partner's key. Of the `amount` the wallet pays,
// amount × partner_fee_bps / 10,000 (rounded down, so the depositor never pays more than the bps) goes
// to the partner's associated token account for the asset (named with its bump, partner_asset_bump),
// in the same instruction, and the rest is deposited as `deposit` does (min_shares_out applies to it).
// The program refuses a fee above the protocol's max_partner_fee_bps. Its Deposited event (the net
// amount) is the wallet's history row and deposit.confirmed, classified by `deposit`; its own event,
// PartnerFeePaid, is the partner's partner.fee_paid, seen only by the keys of that partner.
import { DEPOSIT_TERMS } from "./deposit";
import { defineOperation } from "./operation";

export const depositWithPartnerFee = defineOperation({
  ...DEPOSIT_TERMS,
  instruction: "deposit_with_partner_fee",
  partnerFee: { bpsArg: "partner_fee_bps", assetBumpArg: "partner_asset_bump" },
  // deposit's budget and what the fee adds on chain: 8,744 CU against deposit's 5,217 in
  // `npm run bench:program` (the fee's token transfer, the protocol read, the partner's account
  // re-derived), the same at any bump of that account, rounded up. tests/api/transaction-budget.test.ts
  // measured 28,493 CU for the whole transaction at a 45,000 + 6,000 limit (share account created).
  // No bump search (searchedBump's default): the partner's account is re-derived from the bump the
  // instruction passes (partner_asset_bump), with one hash at any bump.
  computeUnits: 45_000,
  event: "PartnerFeePaid",
  // No history row of its own: the row is the Deposited event beside it (deposit's).
  partnerEvent: "partner.fee_paid",
  partnerData: (fields) => ({
    partner: fields.address("partner"),
    assets: fields.asset("assets"),
    fee: fields.asset("fee"),
    feeBps: Number(fields.integer("feeBps")),
  }),
});

// deposit: the wallet pays `amount` of the asset into the reserve and receives shares (at least
// min_shares_out); its share account is created if it has none.
import { defineOperation } from "./operation";

/** What a deposit is, with or without a partner fee: its word, its amount, its guard, its share account. */
export const DEPOSIT_TERMS = {
  action: "deposit",
  amount: { arg: "amount", token: "asset" },
  sharesGuardArg: "min_shares_out",
  createdTokenAccount: "shares",
} as const;

export const deposit = defineOperation({
  ...DEPOSIT_TERMS,
  instruction: "deposit",
  computeUnits: 40_000,
  event: "Deposited",
  activity: (data) => ({
    owner: data.owner,
    requestId: null,
    assets: data.assets,
    shares: data.shares,
    fee: null,
  }),
  partnerEvent: "deposit.confirmed",
  partnerData: (fields) => ({ assets: fields.asset("assets"), shares: fields.shares("shares") }),
});

// deposit: the wallet pays `amount` of the asset into the reserve and receives shares (at least
// min_shares_out); its share account is created if it has none.
import { defineOperation } from "./operation";

export const deposit = defineOperation({
  instruction: "deposit",
  action: "deposit",
  amount: { arg: "amount", token: "asset" },
  sharesGuardArg: "min_shares_out",
  createdTokenAccount: "shares",
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

// `UiTokenAmount` as a validator's account decoder builds it, for token balances in transaction meta,
// jsonParsed accounts and the token RPC methods.
import { formatUnits } from "../lib/vault/model/token-amount";

export interface UiTokenAmount {
  amount: string;
  decimals: number;
  uiAmount: number;
  uiAmountString: string;
}

export function uiTokenAmount(amount: bigint, decimals: number): UiTokenAmount {
  return {
    amount: amount.toString(),
    decimals,
    // The float is display-only, as on a validator (`amount as f64 / 10f64.powi(decimals)`).
    uiAmount: Number(amount) / 10 ** decimals,
    uiAmountString: formatUnits(amount, decimals),
  };
}

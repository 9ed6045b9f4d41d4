// What a built transaction does to the wallet, from a simulation at build time: the asset, shares and
// SOL it pays or receives, and the network fee, so a partner can show "you pay 250.00 USDC, you receive
// about 249.97 vUSDC, network fee 0.000005 SOL" and check it against its own simulation before signing.
import type { PublicKey } from "@solana/web3.js";
import { z } from "zod";

import { findAssociatedTokenAddress } from "../../chain/spl-token";
import { tokenAmount } from "../model/token-amount";
import { maximumFee, type BuiltTransaction } from "./transaction";
import type { LoadedVault, VaultDeps } from "../model/vault-state";
import { balanceChanges } from "./balance-changes";

const signedTokenAmount = z
  .object({
    mint: z.string(),
    symbol: z.string(),
    amount: z.string().meta({
      description: "Signed raw units, decimal digits: negative leaves the wallet, positive arrives",
    }),
    decimals: z.number().int(),
    uiAmount: z.number(),
  })
  .meta({ id: "TokenBalanceChange" });

export const expectedBalanceChangesSchema = z
  .object({
    asset: signedTokenAmount,
    shares: signedTokenAmount,
    sol: z.object({
      lamports: z.string().meta({ description: "Signed lamports: the fee, and rent of any account opened" }),
      uiAmount: z.number(),
    }),
    networkFeeLamports: z
      .string()
      .meta({ description: "The fee the transaction pays: 5,000 per signature plus limit × price" }),
    unitsConsumed: z.number().int().nullable(),
  })
  .nullable()
  .meta({
    id: "ExpectedBalanceChanges",
    description:
      "Not in the spec's shape (an addition beside its fields): the wallet's balance changes in a simulation of this transaction when it was built, against the chain's state then. Null when the simulation could not be run. A client should simulate again before signing; the typed client does.",
  });

export type ExpectedBalanceChanges = z.output<typeof expectedBalanceChangesSchema>;

const SOL = { mint: "So11111111111111111111111111111111111111112", symbol: "SOL", decimals: 9 };

/**
 * The wallet's changes in a simulation of `built`, its accounts read fresh beside it; null when the
 * simulation fails or the RPC does not answer (the build itself stands: the preparation's checks
 * were made on the chain's state, and the signer's own simulation comes before signing).
 */
export async function simulateExpectedBalanceChanges(
  deps: VaultDeps,
  vault: LoadedVault,
  wallet: PublicKey,
  built: Pick<BuiltTransaction, "transaction" | "computeUnitLimit" | "computeUnitPriceMicroLamports">,
): Promise<ExpectedBalanceChanges> {
  const watched = [
    wallet,
    findAssociatedTokenAddress(wallet, vault.asset.mint),
    findAssociatedTokenAddress(wallet, vault.shares.mint),
  ];
  let simulated;
  let before;
  try {
    [before, simulated] = await Promise.all([
      deps.chain.getAccounts(watched, "fresh"),
      deps.chain.simulate(built.transaction, watched),
    ]);
  } catch {
    return null;
  }
  if (simulated.err !== null) {
    return null;
  }
  const changes = balanceChanges(before, simulated.accounts);
  return {
    asset: tokenAmount(vault.asset, changes.asset),
    shares: tokenAmount(vault.shares, changes.shares),
    sol: { lamports: changes.lamports.toString(), uiAmount: tokenAmount(SOL, changes.lamports).uiAmount },
    networkFeeLamports: maximumFee(built.computeUnitLimit, built.computeUnitPriceMicroLamports).toString(),
    unitsConsumed: simulated.unitsConsumed,
  };
}

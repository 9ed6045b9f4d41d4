// What a built transaction does to the wallet: the asset, shares and SOL it pays or receives, and the
// network fee, so a partner can show "you pay 250.00 USDC, you receive about 249.97 vUSDC, network fee
// 0.000005 SOL" and check it against its own simulation before signing. A build derives them from the
// operation's definition (the token account it may open, the program accounts whose rent it may pay)
// and what the builder already read and computed: no round trip. A simulation of the same transaction
// (simulateExpectedBalanceChanges) is the oracle the derivation is tested against
// (tests/api/expected-balance-changes.test.ts).
import { SystemProgram, type PublicKey } from "@solana/web3.js";
import { z } from "zod";

import type { ChainAccount } from "../../chain/accounts";
import { TOKEN_ACCOUNT_SIZE, findAssociatedTokenAddress } from "../../chain/spl-token";
import { tokenAmount } from "../model/token-amount";
import { maximumFee, type BuiltTransaction } from "./transaction";
import { rentExemptMinimum, type LoadedVault, type VaultDeps } from "../model/vault-state";
import { balanceChanges } from "./balance-changes";
import type { OperationDefinition } from "./operation";

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
    unitsConsumed: z
      .number()
      .int()
      .nullable()
      .meta({ description: "Compute units a simulation consumed; null: derived, not simulated" }),
  })
  .nullable()
  .meta({
    id: "ExpectedBalanceChanges",
    description:
      "Not in the spec's shape (an addition beside its fields): the wallet's balance changes this transaction makes, derived when it was built (not simulated) from what it moves (the amounts in its details), the rent of the accounts it opens (the wallet's token account when it has none, a receipt, the queue's hole list), the rent of the accounts it closes to the wallet, and the network fee, against the chain's state the build read. unitsConsumed is null (no simulation). A client should simulate before signing; the typed client and the pages do.",
  });

export type ExpectedBalanceChanges = z.output<typeof expectedBalanceChangesSchema>;

const SOL = { mint: "So11111111111111111111111111111111111111112", symbol: "SOL", decimals: 9 };

/**
 * Lamports the payer adds to open an account of `size` bytes at an address read as `account`: the
 * rent-exempt minimum when nothing is there; when lamports were sent to the address before it was
 * opened (it is still the system program's, with no data), only what they fall short of it (the
 * associated token program and the vault program top such an account up); nothing once it is open.
 */
export function rentToOpen(account: ChainAccount | null | undefined, size: number): bigint {
  const minimum = rentExemptMinimum(size);
  if (account === null || account === undefined) {
    return minimum;
  }
  const unopened = account.owner.equals(SystemProgram.programId) && account.data.length === 0;
  if (!unopened) {
    return 0n;
  }
  return account.lamports >= minimum ? 0n : minimum - account.lamports;
}

/** What an operation's transaction does to the wallet, as the builder knows it. */
export interface DerivedEffects {
  /** Raw asset units into (+) or out of (−) the wallet's asset account. */
  asset: bigint;
  /** Raw share units into (+) or out of (−) the wallet's share account. */
  shares: bigint;
  /**
   * The address of the wallet's token account the operation opens if missing (its definition's
   * createdTokenAccount), as the build read it; undefined when the operation opens none.
   */
  tokenAccount?: ChainAccount | null;
  /**
   * The program accounts this transaction opens, each one of its definition's rentPaidFor sizes, as
   * the build read their addresses.
   */
  opened: readonly { size: number; account: ChainAccount | null | undefined }[];
  /** Lamports of the accounts the transaction closes to the wallet (a receipt: its rent and any gift). */
  returned: bigint;
}

/**
 * The wallet's changes derived from `operation`'s definition and `effects`: the amounts it moves, the
 * lamports of the accounts it opens (less) and closes (more), and the fee at the transaction's
 * compute-unit limit and price (charged on the limit, not on what it consumes). A simulation of the same
 * transaction against the same state reports the same asset, shares and lamports.
 */
export function deriveExpectedBalanceChanges(
  operation: OperationDefinition,
  vault: LoadedVault,
  built: Pick<BuiltTransaction, "computeUnitLimit" | "computeUnitPriceMicroLamports">,
  effects: DerivedEffects,
): NonNullable<ExpectedBalanceChanges> {
  if ((effects.tokenAccount !== undefined) !== (operation.createdTokenAccount !== null)) {
    throw new Error(`${operation.action}: the token account it opens is ${operation.createdTokenAccount}`);
  }
  for (const { size } of effects.opened) {
    if (!operation.rentPaidFor.includes(size)) {
      throw new Error(`${operation.action} pays no rent for an account of ${size} bytes`);
    }
  }
  const fee = maximumFee(built.computeUnitLimit, built.computeUnitPriceMicroLamports);
  const tokenAccountRent =
    effects.tokenAccount === undefined ? 0n : rentToOpen(effects.tokenAccount, TOKEN_ACCOUNT_SIZE);
  const programAccountsRent = effects.opened.reduce(
    (sum, { size, account }) => sum + rentToOpen(account, size),
    0n,
  );
  const lamports = effects.returned - fee - tokenAccountRent - programAccountsRent;
  return {
    asset: tokenAmount(vault.asset, effects.asset),
    shares: tokenAmount(vault.shares, effects.shares),
    sol: { lamports: lamports.toString(), uiAmount: tokenAmount(SOL, lamports).uiAmount },
    networkFeeLamports: fee.toString(),
    unitsConsumed: null,
  };
}

/**
 * The wallet's changes in a simulation of `built`, its accounts read fresh beside it; null when the
 * simulation fails or the RPC does not answer. Two round trips: no build makes them (they derive the
 * changes); the tests hold the derivation to it.
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

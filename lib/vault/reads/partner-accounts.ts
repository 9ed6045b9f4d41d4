// Where a partner's fee lands: its associated token account for each vault's asset. A deposit through a
// partner's key pays the fee into that account and is refused (PARTNER_ACCOUNT_MISSING) while it does not
// exist: the depositor does not pay the rent of the partner's account.
import { PublicKey } from "@solana/web3.js";

import { findAssociatedTokenAddress } from "../../chain/spl-token";
import { decodeVaultState } from "../program/accounts";

export interface MissingPartnerAccount {
  /** The vaults' asset mint. */
  mint: PublicKey;
  /** The partner's associated token account for it, which does not exist. */
  account: PublicKey;
  /** The vaults (base58) whose deposits would be refused. */
  vaults: string[];
}

/**
 * The asset accounts the partner lacks among these vaults' (the directory's rows), one per asset mint,
 * in the order the vaults are given. A failed read rejects (the caller says the check was not made).
 */
export async function missingPartnerAccounts(
  readAccount: (address: PublicKey) => Promise<unknown>,
  partner: PublicKey,
  vaults: readonly { vault: string; accountData: Uint8Array }[],
): Promise<MissingPartnerAccount[]> {
  const byMint = new Map<string, { mint: PublicKey; vaults: string[] }>();
  for (const row of vaults) {
    const mint = decodeVaultState(row.accountData).assetMint;
    const entry = byMint.get(mint.toBase58()) ?? { mint, vaults: [] };
    entry.vaults.push(row.vault);
    byMint.set(mint.toBase58(), entry);
  }
  const checked = await Promise.all(
    [...byMint.values()].map(async ({ mint, vaults: named }) => {
      const account = findAssociatedTokenAddress(partner, mint);
      return (await readAccount(account)) === null ? { mint, account, vaults: named } : null;
    }),
  );
  return checked.filter((missing) => missing !== null);
}

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

/** Most addresses one getMultipleAccounts call takes (lib/chain/accounts.ts). */
const ADDRESSES_PER_READ = 100;

/**
 * The asset accounts the partner lacks among these vaults' (the directory's rows), one per asset mint,
 * in the order the vaults are given. The accounts are read together, in one call per hundred distinct
 * mints (`readAccounts` answers each address in order, null where there is no account). A failed read
 * rejects (the caller says the check was not made).
 */
export async function missingPartnerAccounts(
  readAccounts: (addresses: readonly PublicKey[]) => Promise<readonly unknown[]>,
  partner: PublicKey,
  vaults: readonly { vault: string; accountData: Uint8Array }[],
): Promise<MissingPartnerAccount[]> {
  const byMint = new Map<string, { mint: PublicKey; account: PublicKey; vaults: string[] }>();
  for (const row of vaults) {
    const mint = decodeVaultState(row.accountData).assetMint;
    const entry = byMint.get(mint.toBase58()) ?? {
      mint,
      account: findAssociatedTokenAddress(partner, mint),
      vaults: [],
    };
    entry.vaults.push(row.vault);
    byMint.set(mint.toBase58(), entry);
  }
  const entries = [...byMint.values()];
  const missing: MissingPartnerAccount[] = [];
  for (let start = 0; start < entries.length; start += ADDRESSES_PER_READ) {
    const batch = entries.slice(start, start + ADDRESSES_PER_READ);
    const read = await readAccounts(batch.map((entry) => entry.account));
    if (read.length !== batch.length) {
      throw new Error(`Asked for ${batch.length} accounts, the chain answered ${read.length}`);
    }
    batch.forEach((entry, index) => {
      if (read[index] === null) missing.push(entry);
    });
  }
  return missing;
}

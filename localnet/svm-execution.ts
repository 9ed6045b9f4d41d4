// What the chain reads around a LiteSVM execution: the accounts a transaction touches (its static keys
// and those its lookup tables load, with their writability), SOL and token balances before and after,
// the loaded accounts' data size, and the logs, compute units, return data and inner instructions of
// the execution's metadata; and the conversions between LiteSVM's accounts and addresses and ours.
import type { Account, TransactionMetadata } from "litesvm/dist/internal";
import bs58 from "bs58";
import { PublicKey } from "@solana/web3.js";

import type { ChainAccount, ExecutionSnapshot, SimulationResult } from "./chain-types";
import type { InnerInstructions, TokenBalance } from "./ledger";
import { decodeMint, decodeTokenAccount } from "../lib/chain/spl-token";
import { isStaticKeyWritable, type DecodedTransaction } from "./transaction";

const ACCOUNT_BASE_SIZE = 64n;
const UPGRADEABLE_LOADER = "BPFLoaderUpgradeab1e11111111111111111111111";

/** The chain's current account at an address, or null for none. */
export type AccountReader = (address: string) => ChainAccount | null;

export function toAddress(bytes: Uint8Array): string {
  return bs58.encode(bytes);
}

export function addressBytes(address: string): Uint8Array {
  return new PublicKey(address).toBytes();
}

export function accountFromSvm(account: Account): ChainAccount {
  return {
    lamports: account.lamports(),
    data: account.data(),
    owner: toAddress(account.owner()),
    executable: account.executable(),
    rentEpoch: account.rentEpoch(),
  };
}

/** Keys from address lookup tables; null when a table or index cannot be resolved. */
function loadedAddresses(
  read: AccountReader,
  transaction: DecodedTransaction,
): { writable: string[]; readonly: string[] } | null {
  const loaded = { writable: [] as string[], readonly: [] as string[] };
  for (const lookup of transaction.message.addressTableLookups) {
    const table = read(lookup.accountKey.toBase58());
    if (table === null) {
      return null;
    }
    const addresses: string[] = [];
    for (let offset = 56; offset + 32 <= table.data.length; offset += 32) {
      addresses.push(toAddress(table.data.subarray(offset, offset + 32)));
    }
    for (const [indexes, into] of [
      [lookup.writableIndexes, loaded.writable],
      [lookup.readonlyIndexes, loaded.readonly],
    ] as const) {
      for (const index of indexes) {
        const address = addresses[index];
        if (address === undefined) {
          return null;
        }
        into.push(address);
      }
    }
  }
  return loaded;
}

export function accountKeysOf(
  read: AccountReader,
  transaction: DecodedTransaction,
): {
  keys: string[];
  writable: boolean[];
  loaded: { writable: string[]; readonly: string[] };
} {
  const loaded = loadedAddresses(read, transaction) ?? { writable: [], readonly: [] };
  const invoked = new Set(transaction.instructions.map((instruction) => instruction.programIdIndex));
  const staticKeys = transaction.staticAccountKeys.map((key) => key.toBase58());
  return {
    keys: [...staticKeys, ...loaded.writable, ...loaded.readonly],
    writable: [
      ...staticKeys.map((_key, index) => isStaticKeyWritable(transaction, index) && !invoked.has(index)),
      ...loaded.writable.map(() => true),
      ...loaded.readonly.map(() => false),
    ],
    loaded,
  };
}

export function snapshotAccounts(
  read: AccountReader,
  keys: string[],
  override?: Map<string, ChainAccount>,
): ExecutionSnapshot {
  const accounts = keys.map((key) => override?.get(key) ?? read(key));
  const decimalsOf = (mint: string): number | null => {
    const mintAccount = override?.get(mint) ?? read(mint);
    return mintAccount === null ? null : (decodeMint(mintAccount.owner, mintAccount.data)?.decimals ?? null);
  };
  const tokenBalances: TokenBalance[] = [];
  accounts.forEach((account, accountIndex) => {
    if (account === null) {
      return;
    }
    const token = decodeTokenAccount(account.owner, account.data);
    if (token === null) {
      return;
    }
    const mint = token.mint.toBase58();
    const decimals = decimalsOf(mint);
    if (decimals !== null) {
      tokenBalances.push({
        accountIndex,
        mint,
        owner: token.owner.toBase58(),
        programId: account.owner,
        amount: token.amount,
        decimals,
      });
    }
  });
  return { balances: accounts.map((account) => account?.lamports ?? 0n), tokenBalances };
}

export function loadedAccountsDataSizeOf(read: AccountReader, keys: string[]): number {
  let size = 0n;
  for (const key of keys) {
    const account = read(key);
    size += ACCOUNT_BASE_SIZE + BigInt(account?.data.length ?? 0);
    if (
      account !== null &&
      account.executable &&
      account.owner === UPGRADEABLE_LOADER &&
      account.data.length >= 36
    ) {
      const programData = read(toAddress(account.data.subarray(4, 36)));
      size += ACCOUNT_BASE_SIZE + BigInt(programData?.data.length ?? 0);
    }
  }
  return Number(size);
}

export function executionDetails(
  meta: TransactionMetadata,
): Pick<SimulationResult, "logs" | "unitsConsumed" | "returnData" | "innerInstructions"> {
  const innerInstructions: InnerInstructions[] = [];
  meta.innerInstructions().forEach((instructions, index) => {
    if (instructions.length > 0) {
      innerInstructions.push({
        index,
        instructions: instructions.map((inner) => {
          const compiled = inner.instruction();
          return {
            programIdIndex: compiled.programIdIndex(),
            accounts: [...compiled.accounts()],
            data: compiled.data(),
            stackHeight: inner.stackHeight(),
          };
        }),
      });
    }
  });
  const returnData = meta.returnData();
  const returnBytes = returnData.data();
  return {
    logs: meta.logs(),
    unitsConsumed: meta.computeUnitsConsumed(),
    returnData:
      returnBytes.length === 0 ? null : { programId: toAddress(returnData.programId()), data: returnBytes },
    innerInstructions,
  };
}

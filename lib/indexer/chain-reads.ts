// The indexer's chain reads, as raw JSON-RPC calls counted as background work: every vault account of
// the program, a token account's balance, holders of a share mint, and an address's signatures newer
// than a cursor, paged back to it.
import { PublicKey } from "@solana/web3.js";
import { z } from "zod";

import { getMultipleAccounts } from "../chain/accounts";
import { ChainUnavailableError, type RpcClient } from "../chain/rpc";
import { TOKEN_ACCOUNT_SIZE, TOKEN_PROGRAM_ID } from "../chain/spl-token";
import {
  decodeReceiptState,
  decodeVaultState,
  type VaultState,
  type ReceiptState,
} from "../vault/program/accounts";
import { VAULT_ACCOUNT_SIZE, WITHDRAWAL_RECEIPT_ACCOUNT_SIZE } from "../vault/program/idl";
import type { IndexedVaultRow } from "../vault/model/indexed-records";

const programAccountsSchema = z.object({
  context: z.object({ slot: z.number() }),
  value: z.array(
    z.object({
      pubkey: z.string(),
      account: z.object({ data: z.tuple([z.string(), z.literal("base64")]) }),
    }),
  ),
});

export interface ProgramVaultAccount {
  address: PublicKey;
  data: Buffer;
}

type ProgramAccountFilter = { dataSize: number } | { memcmp: { offset: number; bytes: string } };

/** The program's accounts that pass `filters` (base64, confirmed), and the slot they were read at. */
async function getProgramAccounts(
  rpc: RpcClient,
  programId: PublicKey,
  filters: readonly ProgramAccountFilter[],
): Promise<{ slot: number; accounts: ProgramVaultAccount[] }> {
  const raw = await rpc.call<unknown>(
    "getProgramAccounts",
    [programId.toBase58(), { encoding: "base64", commitment: "confirmed", withContext: true, filters }],
    { background: true },
  );
  const parsed = programAccountsSchema.safeParse(raw);
  if (!parsed.success) {
    throw new ChainUnavailableError("getProgramAccounts returned an unexpected shape");
  }
  return {
    slot: parsed.data.context.slot,
    accounts: parsed.data.value.map((entry) => ({
      address: new PublicKey(entry.pubkey),
      data: Buffer.from(entry.account.data[0], "base64"),
    })),
  };
}

/** The vault account's `protocol` field: right after the 8-byte discriminator. */
const VAULT_PROTOCOL_OFFSET = 8;

/** Every vault account of the program registered under `protocolId` (null: every protocol's). */
export async function readProgramVaults(
  rpc: RpcClient,
  programId: PublicKey,
  protocolId: PublicKey | null,
): Promise<{ slot: number; vaults: ProgramVaultAccount[] }> {
  const { slot, accounts } = await getProgramAccounts(rpc, programId, [
    { dataSize: VAULT_ACCOUNT_SIZE },
    ...(protocolId === null
      ? []
      : [{ memcmp: { offset: VAULT_PROTOCOL_OFFSET, bytes: protocolId.toBase58() } }]),
  ]);
  return { slot, vaults: accounts };
}

/** The receipt account's `vault` field: right after the 8-byte discriminator. */
const RECEIPT_VAULT_OFFSET = 8;

export interface VaultReceipt {
  address: PublicKey;
  receipt: ReceiptState;
}

/** Every open withdrawal receipt of `vault` (what the keeper delivers from), decoded. */
export async function readVaultReceipts(
  rpc: RpcClient,
  programId: PublicKey,
  vault: PublicKey,
): Promise<VaultReceipt[]> {
  const { accounts } = await getProgramAccounts(rpc, programId, [
    { dataSize: WITHDRAWAL_RECEIPT_ACCOUNT_SIZE },
    { memcmp: { offset: RECEIPT_VAULT_OFFSET, bytes: vault.toBase58() } },
  ]);
  const receipts: VaultReceipt[] = [];
  for (const account of accounts) {
    try {
      const receipt = decodeReceiptState(account.data);
      // A node that ignores filters must not hand the keeper another vault's receipts.
      if (receipt.vault.equals(vault)) {
        receipts.push({ address: account.address, receipt });
      }
    } catch {
      // Another account of the receipt's size: not a receipt.
    }
  }
  return receipts;
}

export interface ProtocolVault extends ProgramVaultAccount {
  state: VaultState;
}

/** The vaults registered under `protocolId`, decoded; accounts of a vault's size that are not one are skipped. */
export async function readProtocolVaults(
  rpc: RpcClient,
  programId: PublicKey,
  protocolId: PublicKey,
): Promise<{ slot: number; vaults: ProtocolVault[] }> {
  const { slot, vaults } = await readProgramVaults(rpc, programId, protocolId);
  const decoded: ProtocolVault[] = [];
  for (const vault of vaults) {
    try {
      const state = decodeVaultState(vault.data);
      // The RPC filtered on the protocol; a node that ignores filters must not widen what is served.
      if (state.protocol.equals(protocolId)) {
        decoded.push({ ...vault, state });
      }
    } catch {
      // An account of the vault's size that is not a vault (another account type): not ours.
    }
  }
  return { slot, vaults: decoded };
}

/**
 * The protocol's vaults as the indexer's rows would hold them, read from the chain now: what the
 * directory serves before the indexer's first run on this chain has stored any.
 */
export async function readVaultRows(
  rpc: RpcClient,
  programId: PublicKey,
  protocolId: PublicKey,
  now: Date,
): Promise<IndexedVaultRow[]> {
  const { slot, vaults } = await readProtocolVaults(rpc, programId, protocolId);
  const reserves = await readTokenBalances(
    rpc,
    vaults.map((vault) => vault.state.reserve),
  );
  return Promise.all(
    vaults.map(async (vault, index) => ({
      vault: vault.address.toBase58(),
      slot,
      accountData: vault.data,
      reserveBalance: reserves[index] ?? 0n,
      holders: await countHolders(rpc, vault.state.shareMint, vault.state.escrow),
      updatedAt: now,
    })),
  );
}

/** Token accounts' balances (offset 64, u64 LE); 0 for an account that does not exist. */
export async function readTokenBalances(rpc: RpcClient, accounts: readonly PublicKey[]): Promise<bigint[]> {
  const balances: bigint[] = [];
  for (let start = 0; start < accounts.length; start += 100) {
    const { accounts: read } = await getMultipleAccounts(rpc, accounts.slice(start, start + 100), {
      background: true,
    });
    for (const account of read) {
      balances.push(account === null || account.data.length < 72 ? 0n : account.data.readBigUInt64LE(64));
    }
  }
  return balances;
}

/** Token accounts of `mint` holding a positive balance, other than `exclude` (the vault's escrow). */
export async function countHolders(rpc: RpcClient, mint: PublicKey, exclude: PublicKey): Promise<number> {
  const raw = await rpc.call<unknown>(
    "getProgramAccounts",
    [
      TOKEN_PROGRAM_ID.toBase58(),
      {
        encoding: "base64",
        commitment: "confirmed",
        withContext: true,
        dataSlice: { offset: 32, length: 40 },
        filters: [{ dataSize: TOKEN_ACCOUNT_SIZE }, { memcmp: { offset: 0, bytes: mint.toBase58() } }],
      },
    ],
    { background: true },
  );
  const parsed = programAccountsSchema.safeParse(raw);
  if (!parsed.success) {
    throw new ChainUnavailableError("getProgramAccounts returned an unexpected shape");
  }
  const excluded = exclude.toBase58();
  const owners = new Set<string>();
  for (const entry of parsed.data.value) {
    const slice = Buffer.from(entry.account.data[0], "base64");
    if (entry.pubkey !== excluded && slice.length >= 40 && slice.readBigUInt64LE(32) > 0n) {
      owners.add(new PublicKey(slice.subarray(0, 32)).toBase58());
    }
  }
  return owners.size;
}

const signaturesSchema = z.array(
  z.object({ signature: z.string(), slot: z.number(), err: z.unknown(), blockTime: z.number().nullish() }),
);

export interface HistorySignature {
  signature: string;
  slot: number;
  failed: boolean;
}

/**
 * Every signature of `address` newer than `until` (all of them when null), oldest first: pages of
 * `pageSize` walked backwards from the newest until the cursor is reached.
 */
export async function signaturesSince(
  rpc: RpcClient,
  address: PublicKey,
  until: string | null,
  pageSize = 1_000,
): Promise<HistorySignature[]> {
  const collected: HistorySignature[] = [];
  let before: string | null = null;
  for (;;) {
    const raw = await rpc.call<unknown>(
      "getSignaturesForAddress",
      [
        address.toBase58(),
        {
          limit: pageSize,
          commitment: "confirmed",
          ...(until === null ? {} : { until }),
          ...(before === null ? {} : { before }),
        },
      ],
      { background: true },
    );
    const parsed = signaturesSchema.safeParse(raw);
    if (!parsed.success) {
      throw new ChainUnavailableError("getSignaturesForAddress returned an unexpected shape");
    }
    for (const entry of parsed.data) {
      collected.push({
        signature: entry.signature,
        slot: entry.slot,
        failed: entry.err !== null && entry.err !== undefined,
      });
    }
    const last = parsed.data.at(-1);
    if (parsed.data.length < pageSize || last === undefined) {
      return collected.reverse();
    }
    before = last.signature;
  }
}

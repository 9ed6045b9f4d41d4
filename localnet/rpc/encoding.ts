// How accounts and transactions appear on the wire: UiAccount in every account encoding (jsonParsed
// for SPL Token accounts and mints), transaction token balances, and getTransaction's
// EncodedConfirmedTransactionWithStatusMeta in json, jsonParsed (System instructions parsed), base58 and
// base64.
import bs58 from "bs58";

import type { Chain } from "../chain";
import type { ChainAccount } from "../chain-types";
import type { InnerInstructions, TokenBalance, TransactionRecord } from "../ledger";
import {
  TOKEN_2022_PROGRAM_ID,
  decodeMint,
  decodeTokenAccount,
  isTokenProgram,
} from "../../lib/chain/spl-token";
import { decodeTransaction } from "../transaction";
import type { TransactionErrorJson } from "../transaction-error";
import { uiTokenAmount, type UiTokenAmount } from "../ui-token-amount";
import { invalidParams, invalidRequest } from "./errors";
import { SYSTEM_PROGRAM_ID, parseSystemInstruction } from "./parse-system";
import type { AccountEncoding, DataSlice, TransactionEncoding } from "./params";

/** Largest account data a validator encodes in base58 (MAX_BASE58_BYTES). */
const MAX_BASE58_BYTES = 128;
const NATIVE_DECIMALS = 9;

export interface UiAccount {
  lamports: bigint;
  data: string | [string, string] | { program: string; parsed: unknown; space: number };
  owner: string;
  executable: boolean;
  rentEpoch: bigint;
  space: number;
}

function sliced(data: Uint8Array, slice: DataSlice | null | undefined): Uint8Array {
  if (slice === null || slice === undefined) {
    return data;
  }
  return data.subarray(
    Math.min(slice.offset, data.length),
    Math.min(slice.offset + slice.length, data.length),
  );
}

function programName(owner: string): string {
  return owner === TOKEN_2022_PROGRAM_ID.toBase58() ? "spl-token-2022" : "spl-token";
}

/** jsonParsed data of an SPL Token account or mint, or null to fall back to base64. */
function parseTokenData(chain: Chain, account: ChainAccount): UiAccount["data"] | null {
  if (!isTokenProgram(account.owner)) {
    return null;
  }
  const space = account.data.length;
  const mint = decodeMint(account.owner, account.data);
  if (mint !== null && space !== 165) {
    return {
      program: programName(account.owner),
      parsed: {
        type: "mint",
        info: {
          decimals: mint.decimals,
          freezeAuthority: mint.freezeAuthority?.toBase58() ?? null,
          isInitialized: true,
          mintAuthority: mint.mintAuthority?.toBase58() ?? null,
          supply: mint.supply.toString(),
        },
      },
      space,
    };
  }
  const token = decodeTokenAccount(account.owner, account.data);
  if (token === null) {
    return null;
  }
  const mintAccount = chain.getAccount(token.mint.toBase58());
  const decimals = mintAccount === null ? null : decodeMint(mintAccount.owner, mintAccount.data)?.decimals;
  if (decimals === null || decimals === undefined) {
    return null;
  }
  const info: Record<string, unknown> = {
    isNative: token.isNative !== null,
    mint: token.mint.toBase58(),
    owner: token.owner.toBase58(),
    state: token.state,
    tokenAmount: uiTokenAmount(token.amount, decimals),
  };
  if (token.delegate !== null) {
    info.delegate = token.delegate.toBase58();
    info.delegatedAmount = uiTokenAmount(token.delegatedAmount, decimals);
  }
  if (token.isNative !== null) {
    info.rentExemptReserve = uiTokenAmount(token.isNative, NATIVE_DECIMALS);
  }
  if (token.closeAuthority !== null) {
    info.closeAuthority = token.closeAuthority.toBase58();
  }
  return { program: programName(account.owner), parsed: { type: "account", info }, space };
}

/**
 * An account as UiAccount. Requests refuse base58 data over 128 bytes; subscriptions (`lenient`)
 * send the account decoder's placeholder text instead, as a validator's PubSub does.
 */
export function encodeAccount(
  chain: Chain,
  account: ChainAccount,
  encoding: AccountEncoding,
  slice: DataSlice | null | undefined,
  lenient = false,
): UiAccount {
  const base = {
    lamports: account.lamports,
    owner: account.owner,
    executable: account.executable,
    rentEpoch: account.rentEpoch,
    space: account.data.length,
  };
  const bytes = sliced(account.data, slice);
  switch (encoding) {
    case "binary":
    case "base58": {
      if (bytes.length > MAX_BASE58_BYTES && lenient) {
        const text = "error: data too large for bs58 encoding";
        return { ...base, data: encoding === "binary" ? text : [text, "base58"] };
      }
      if (bytes.length > MAX_BASE58_BYTES) {
        throw invalidRequest(
          `Encoded binary (base 58) data should be less than ${MAX_BASE58_BYTES} bytes, please use Base64 encoding.`,
        );
      }
      const text = bs58.encode(bytes);
      return { ...base, data: encoding === "binary" ? text : [text, "base58"] };
    }
    case "base64":
      return { ...base, data: [Buffer.from(bytes).toString("base64"), "base64"] };
    case "base64+zstd":
      throw invalidParams("Invalid params: base64+zstd encoding is not supported by this localnet.");
    case "jsonParsed": {
      const parsed = parseTokenData(chain, account);
      return parsed === null
        ? { ...base, data: [Buffer.from(account.data).toString("base64"), "base64"] }
        : { ...base, data: parsed };
    }
  }
}

/** The UiTokenAmount of a token account, or null when it is not one (or its mint is gone). */
export function tokenAccountAmount(chain: Chain, account: ChainAccount): UiTokenAmount | null {
  const token = decodeTokenAccount(account.owner, account.data);
  if (token === null) {
    return null;
  }
  const mintAccount = chain.getAccount(token.mint.toBase58());
  const mint = mintAccount === null ? null : decodeMint(mintAccount.owner, mintAccount.data);
  return mint === null ? null : uiTokenAmount(token.amount, mint.decimals);
}

export function encodeTokenBalance(balance: TokenBalance): unknown {
  return {
    accountIndex: balance.accountIndex,
    mint: balance.mint,
    uiTokenAmount: uiTokenAmount(balance.amount, balance.decimals),
    owner: balance.owner,
    programId: balance.programId,
  };
}

export function transactionStatusOf(err: TransactionErrorJson | null): unknown {
  return err === null ? { Ok: null } : { Err: err };
}

/**
 * An instruction in jsonParsed: parsed where the validator parses it (the System program's), else
 * partially decoded (program, accounts by address, base58 data).
 */
function uiParsedInstruction(
  programId: string,
  accounts: string[],
  data: Uint8Array,
  stackHeight: number | null,
): unknown {
  const parsed = programId === SYSTEM_PROGRAM_ID ? parseSystemInstruction(data, accounts) : null;
  return parsed === null
    ? { programId, accounts, data: bs58.encode(data), stackHeight }
    : { program: "system", programId, parsed, stackHeight };
}

function encodeInnerInstructions(inner: InnerInstructions[], keys: string[], parsed: boolean): unknown[] {
  return inner.map((group) => ({
    index: group.index,
    instructions: group.instructions.map((instruction) =>
      parsed
        ? uiParsedInstruction(
            keys[instruction.programIdIndex] ?? "",
            instruction.accounts.map((index) => keys[index] ?? ""),
            instruction.data,
            instruction.stackHeight,
          )
        : {
            programIdIndex: instruction.programIdIndex,
            accounts: instruction.accounts,
            data: bs58.encode(instruction.data),
            stackHeight: instruction.stackHeight,
          },
    ),
  }));
}

function encodeMessage(record: TransactionRecord, parsed: boolean): unknown {
  const transaction = decodeTransaction(record.wire);
  const { message } = transaction;
  const staticCount = transaction.staticAccountKeys.length;
  const signerCount = message.header.numRequiredSignatures;
  const lookups = message.addressTableLookups.map((lookup) => ({
    accountKey: lookup.accountKey.toBase58(),
    writableIndexes: lookup.writableIndexes,
    readonlyIndexes: lookup.readonlyIndexes,
  }));
  const accountKeys = parsed
    ? record.accountKeys.map((pubkey, index) => ({
        pubkey,
        writable: record.writable[index] ?? false,
        signer: index < signerCount,
        source: index < staticCount ? "transaction" : "lookupTable",
      }))
    : transaction.staticAccountKeys.map((key) => key.toBase58());
  const instructions = transaction.instructions.map((instruction) =>
    parsed
      ? uiParsedInstruction(
          record.accountKeys[instruction.programIdIndex] ?? "",
          instruction.accountKeyIndexes.map((index) => record.accountKeys[index] ?? ""),
          instruction.data,
          null,
        )
      : {
          programIdIndex: instruction.programIdIndex,
          accounts: instruction.accountKeyIndexes,
          data: bs58.encode(instruction.data),
          stackHeight: null,
        },
  );
  return {
    accountKeys,
    ...(parsed ? {} : { header: message.header }),
    recentBlockhash: message.recentBlockhash,
    instructions,
    ...(record.version === 0 ? { addressTableLookups: lookups } : {}),
  };
}

export function encodeTransactionMeta(record: TransactionRecord, parsed: boolean): Record<string, unknown> {
  const meta: Record<string, unknown> = {
    err: record.err,
    status: transactionStatusOf(record.err),
    fee: record.fee,
    preBalances: record.preBalances,
    postBalances: record.postBalances,
    innerInstructions: encodeInnerInstructions(record.innerInstructions, record.accountKeys, parsed),
    logMessages: record.logs,
    preTokenBalances: record.preTokenBalances.map(encodeTokenBalance),
    postTokenBalances: record.postTokenBalances.map(encodeTokenBalance),
    rewards: [],
    computeUnitsConsumed: record.computeUnitsConsumed,
  };
  if (!parsed) {
    meta.loadedAddresses = record.loadedAddresses;
  }
  if (record.returnData !== null) {
    meta.returnData = {
      programId: record.returnData.programId,
      data: [Buffer.from(record.returnData.data).toString("base64"), "base64"],
    };
  }
  return meta;
}

/** getTransaction's result for a recorded transaction. */
export function encodeConfirmedTransaction(
  record: TransactionRecord,
  encoding: TransactionEncoding,
  withVersion: boolean,
): unknown {
  const signatures = decodeTransaction(record.wire).signatures.map((signature) => bs58.encode(signature));
  let transaction: unknown;
  switch (encoding) {
    case "base64":
      transaction = [Buffer.from(record.wire).toString("base64"), "base64"];
      break;
    case "base58":
      transaction = [bs58.encode(record.wire), "base58"];
      break;
    case "binary":
      transaction = bs58.encode(record.wire);
      break;
    case "json":
    case "jsonParsed":
      transaction = { signatures, message: encodeMessage(record, encoding === "jsonParsed") };
      break;
  }
  return {
    slot: record.slot,
    transaction,
    meta: encodeTransactionMeta(record, encoding === "jsonParsed"),
    ...(withVersion ? { version: record.version } : {}),
    blockTime: record.blockTime,
  };
}

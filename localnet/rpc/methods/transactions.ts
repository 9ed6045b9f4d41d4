// The transaction methods: send, simulate, signature statuses, transactions, signatures for an address,
// block times and airdrops.
import bs58 from "bs58";
import { z } from "zod";

import type { Commitment } from "../../chain-types";
import { STATUS_CACHE_SLOTS } from "../../ledger";
import { verifySignature } from "../../keys";
import {
  TransactionDecodeError,
  decodeTransaction,
  hasValidSignatures,
  sanitizeTransaction,
  withRecentBlockhash,
  type DecodedTransaction,
} from "../../transaction";
import { describeTransactionError } from "../../transaction-error";
import { encodeConfirmedTransaction, encodeTokenBalance, transactionStatusOf } from "../encoding";
import {
  RpcError,
  SEND_TRANSACTION_PREFLIGHT_FAILURE,
  blockNotAvailable,
  invalidParams,
  signatureVerificationFailure,
  unsupportedTransactionVersion,
} from "../errors";
import {
  airdropConfig,
  parseHash,
  parseParams,
  parsePubkey,
  parseSignature,
  sendTransactionConfig,
  signatureStatusConfig,
  signaturesForAddressConfig,
  simulateTransactionConfig,
  transactionConfig,
  u64,
  type TransactionEncoding,
} from "../params";
import { type RpcMethod, contextSlot, encodeOrNull, single, withContext } from "./context";

const MAX_SIGNATURE_STATUSES = 256;
const MAX_SIGNATURES_FOR_ADDRESS = 1000;
const MAX_BASE58_TRANSACTION = 1683;
export const MAX_BASE64_TRANSACTION = 1644;
const TRANSACTION_TYPE = "solana_transaction::versioned::VersionedTransaction";

export function decodeBase64(text: string, maxLength: number, typeName: string): Uint8Array {
  if (text.length > maxLength) {
    throw invalidParams(
      `base64 encoded ${typeName} too large: ${text.length} bytes (max: encoded/raw ${MAX_BASE64_TRANSACTION}/1232)`,
    );
  }
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) {
    throw invalidParams("invalid base64 encoding: InvalidByte");
  }
  return new Uint8Array(Buffer.from(text, "base64"));
}

function decodeWireTransaction(text: string, encoding: TransactionEncoding): DecodedTransaction {
  let bytes: Uint8Array;
  if (encoding === "base64") {
    bytes = decodeBase64(text, MAX_BASE64_TRANSACTION, TRANSACTION_TYPE);
  } else if (encoding === "base58") {
    if (text.length > MAX_BASE58_TRANSACTION) {
      throw invalidParams(
        `base58 encoded ${TRANSACTION_TYPE} too large: ${text.length} bytes (max: encoded/raw ${MAX_BASE58_TRANSACTION}/1232)`,
      );
    }
    try {
      bytes = bs58.decode(text);
    } catch {
      throw invalidParams("invalid base58 encoding: InvalidCharacter");
    }
  } else {
    throw invalidParams(`unsupported encoding: ${encoding}. Supported encodings: base58, base64`);
  }
  let transaction: DecodedTransaction;
  try {
    transaction = decodeTransaction(bytes);
  } catch (error) {
    if (error instanceof TransactionDecodeError) {
      throw invalidParams(error.message);
    }
    throw error;
  }
  const sanitizeError = sanitizeTransaction(transaction);
  if (sanitizeError !== null) {
    throw invalidParams(`invalid transaction: ${describeTransactionError(sanitizeError)}`);
  }
  return transaction;
}

export const sendTransaction: RpcMethod = (params, context) => {
  const [encoded, config] = parseParams(z.tuple([z.string(), sendTransactionConfig]), params);
  const transaction = decodeWireTransaction(encoded, config?.encoding ?? "base58");
  const skipPreflight = config?.skipPreflight === true;
  contextSlot(context.chain, {
    commitment: skipPreflight ? "processed" : (config?.preflightCommitment ?? "finalized"),
    minContextSlot: config?.minContextSlot,
  });
  if (!skipPreflight) {
    if (!hasValidSignatures(transaction, verifySignature)) {
      throw signatureVerificationFailure();
    }
    const simulation = context.chain.simulate(transaction, { sigVerify: false, balances: false });
    if (simulation.err !== null) {
      const executed = simulation.unitsConsumed > 0n || simulation.logs.length > 0;
      throw new RpcError(
        SEND_TRANSACTION_PREFLIGHT_FAILURE,
        `Transaction simulation failed: ${describeTransactionError(simulation.err)}`,
        {
          accounts: null,
          err: simulation.err,
          innerInstructions: null,
          loadedAccountsDataSize: simulation.loadedAccountsDataSize,
          logs: simulation.logs,
          replacementBlockhash: null,
          returnData: encodeReturnData(simulation.returnData),
          unitsConsumed: simulation.unitsConsumed,
          fee: executed ? simulation.fee : null,
          preBalances: null,
          postBalances: null,
          preTokenBalances: null,
          postTokenBalances: null,
          loadedAddresses: null,
        },
      );
    }
  }
  // Like a validator, the signature is returned even when the leader then drops the transaction.
  context.chain.submit(transaction);
  return transaction.signature;
};

function encodeReturnData(returnData: { programId: string; data: Uint8Array } | null): unknown {
  return returnData === null
    ? null
    : { programId: returnData.programId, data: [Buffer.from(returnData.data).toString("base64"), "base64"] };
}

export const simulateTransaction: RpcMethod = (params, context) => {
  const [encoded, config] = parseParams(z.tuple([z.string(), simulateTransactionConfig]), params);
  let transaction = decodeWireTransaction(encoded, config?.encoding ?? "base58");
  const slot = contextSlot(context.chain, config);
  const sigVerify = config?.sigVerify === true;
  let replacementBlockhash: { blockhash: string; lastValidBlockHeight: bigint } | null = null;
  if (config?.replaceRecentBlockhash === true) {
    if (sigVerify) {
      throw invalidParams("sigVerify may not be used with replaceRecentBlockhash");
    }
    const latest = context.chain.latestBlockhash(config.commitment ?? "finalized");
    transaction = withRecentBlockhash(transaction, latest.blockhash);
    replacementBlockhash = { blockhash: latest.blockhash, lastValidBlockHeight: latest.lastValidBlockHeight };
  }
  const accountsConfig = config?.accounts;
  const accountsEncoding = accountsConfig?.encoding ?? "base64";
  if (accountsConfig !== null && accountsConfig !== undefined) {
    if (accountsEncoding === "binary" || accountsEncoding === "base58") {
      throw invalidParams("base58 encoding not supported");
    }
    accountsConfig.addresses.forEach(parsePubkey);
  }
  const simulation =
    sigVerify && !hasValidSignatures(transaction, verifySignature)
      ? null
      : context.chain.simulate(transaction, { sigVerify: false });
  if (simulation === null) {
    return withContext(context, slot, {
      err: "SignatureFailure",
      logs: [],
      accounts: null,
      unitsConsumed: 0,
      loadedAccountsDataSize: 0,
      returnData: null,
      innerInstructions: null,
      replacementBlockhash,
      fee: null,
      preBalances: null,
      postBalances: null,
      preTokenBalances: null,
      postTokenBalances: null,
      loadedAddresses: null,
    });
  }
  if (
    accountsConfig !== null &&
    accountsConfig !== undefined &&
    accountsConfig.addresses.length > simulation.accountKeys.length
  ) {
    throw invalidParams(`Too many accounts provided; max ${simulation.accountKeys.length}`);
  }
  const accounts =
    accountsConfig === null || accountsConfig === undefined
      ? null
      : accountsConfig.addresses.map((address) =>
          simulation.err === null
            ? encodeOrNull(
                context.chain,
                simulation.postAccounts.get(address) ?? context.chain.getAccount(address),
                accountsEncoding,
                null,
              )
            : null,
        );
  const keys = simulation.accountKeys;
  return withContext(context, slot, {
    err: simulation.err,
    logs: simulation.logs,
    accounts,
    unitsConsumed: simulation.unitsConsumed,
    loadedAccountsDataSize: simulation.loadedAccountsDataSize,
    returnData: encodeReturnData(simulation.returnData),
    innerInstructions:
      config?.innerInstructions === true
        ? simulation.innerInstructions.map((group) => ({
            index: group.index,
            instructions: group.instructions.map((instruction) => ({
              programId: keys[instruction.programIdIndex] ?? "",
              accounts: instruction.accounts.map((index) => keys[index] ?? ""),
              data: bs58.encode(instruction.data),
              stackHeight: instruction.stackHeight,
            })),
          }))
        : null,
    replacementBlockhash,
    fee: simulation.fee,
    preBalances: simulation.pre.balances,
    postBalances: simulation.post.balances,
    preTokenBalances: simulation.pre.tokenBalances.map(encodeTokenBalance),
    postTokenBalances: simulation.post.tokenBalances.map(encodeTokenBalance),
    loadedAddresses: simulation.loadedAddresses,
  });
};

export const getSignatureStatuses: RpcMethod = (params, context) => {
  const [signatures, config] = parseParams(z.tuple([z.array(z.string()), signatureStatusConfig]), params);
  if (signatures.length > MAX_SIGNATURE_STATUSES) {
    throw invalidParams(`Too many inputs provided; max ${MAX_SIGNATURE_STATUSES}`);
  }
  signatures.forEach(parseSignature);
  const { chain } = context;
  const searchHistory = config?.searchTransactionHistory === true;
  return withContext(
    context,
    chain.slot,
    signatures.map((signature) => {
      const status = chain.statusOf(signature);
      if (status === null || (!searchHistory && chain.slot - status.record.slot > STATUS_CACHE_SLOTS)) {
        return null;
      }
      return {
        slot: status.record.slot,
        confirmations: status.confirmations,
        err: status.record.err,
        status: transactionStatusOf(status.record.err),
        confirmationStatus: status.commitment,
      };
    }),
  );
};

function requireConfirmed(commitment: Commitment | null | undefined): Commitment {
  const level = commitment ?? "finalized";
  if (level === "processed") {
    throw invalidParams("Method does not support commitment below `confirmed`");
  }
  return level;
}

export const getTransaction: RpcMethod = (params, { chain }) => {
  const [signature, config] = parseParams(z.tuple([z.string(), transactionConfig]), params);
  parseSignature(signature);
  const commitment = requireConfirmed("commitment" in config ? config.commitment : null);
  const status = chain.statusOf(signature);
  if (status === null || !chain.hasReached(status, commitment)) {
    return null;
  }
  const maxVersion =
    "maxSupportedTransactionVersion" in config ? config.maxSupportedTransactionVersion : null;
  const hasMaxVersion = maxVersion !== null && maxVersion !== undefined;
  if (status.record.version === 0 && !hasMaxVersion) {
    throw unsupportedTransactionVersion(0);
  }
  return encodeConfirmedTransaction(status.record, config.encoding ?? "json", hasMaxVersion);
};

export const getSignaturesForAddress: RpcMethod = (params, { chain }) => {
  const [address, config] = parseParams(z.tuple([z.string(), signaturesForAddressConfig]), params);
  parsePubkey(address);
  const before = config?.before ?? null;
  const until = config?.until ?? null;
  if (before !== null) {
    parseSignature(before);
  }
  if (until !== null) {
    parseSignature(until);
  }
  const limit = config?.limit ?? MAX_SIGNATURES_FOR_ADDRESS;
  if (limit <= 0 || limit > MAX_SIGNATURES_FOR_ADDRESS) {
    throw invalidParams(`Invalid limit; max ${MAX_SIGNATURES_FOR_ADDRESS}`);
  }
  const commitment = requireConfirmed(config?.commitment);
  contextSlot(chain, { commitment, minContextSlot: config?.minContextSlot });
  if (before !== null && !chain.ledger.has(before)) {
    return [];
  }
  const results: unknown[] = [];
  let passedBefore = before === null;
  for (const record of chain.ledger.forAddressNewestFirst(address)) {
    if (!passedBefore) {
      passedBefore = record.signature === before;
      continue;
    }
    if (record.signature === until || results.length >= limit) {
      break;
    }
    const status = chain.statusOf(record.signature);
    if (status === null || !chain.hasReached(status, commitment)) {
      continue;
    }
    results.push({
      signature: record.signature,
      slot: record.slot,
      err: record.err,
      memo: record.memo,
      blockTime: record.blockTime,
      confirmationStatus: status.commitment,
    });
  }
  return results;
};

export const getBlockTime: RpcMethod = (params, { chain }) => {
  const [slot] = parseParams(single(u64), params);
  const time = chain.blockTime(slot);
  if (time === null) {
    throw blockNotAvailable(slot);
  }
  return time;
};

export const requestAirdrop: RpcMethod = (params, context) => {
  const [address, lamports, config] = parseParams(z.tuple([z.string(), u64, airdropConfig]), params);
  parsePubkey(address);
  const blockhash = config?.recentBlockhash ?? null;
  if (blockhash !== null) {
    parseHash(blockhash, "Invalid param: ");
  }
  return context.requestAirdrop(address, lamports, blockhash);
};

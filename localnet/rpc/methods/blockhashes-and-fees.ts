// The blockhash and fee methods: latest blockhash, its validity, message fees, rent, prioritization fees.
import { VersionedMessage } from "@solana/web3.js";
import { z } from "zod";

import { MAX_PROCESSING_AGE } from "../../chain-types";
import type { TransactionRecord } from "../../ledger";
import { feeOf, type DecodedTransaction } from "../../transaction";
import { invalidParams, invalidRequest } from "../errors";
import { commitmentConfig, contextConfig, parseHash, parseParams, parsePubkey, u64 } from "../params";
import { type RpcMethod, contextSlot, withContext } from "./context";
import { MAX_BASE64_TRANSACTION, decodeBase64 } from "./transactions";

const MAX_ACCOUNT_DATA_LENGTH = 10n * 1024n * 1024n;
const MAX_TX_ACCOUNT_LOCKS = 128;
const PRIORITIZATION_FEE_SLOTS = 150n;

export const getLatestBlockhash: RpcMethod = (params, context) => {
  const [config] = parseParams(z.tuple([contextConfig]), params);
  const slot = contextSlot(context.chain, config);
  const latest = context.chain.latestBlockhash(config?.commitment ?? "finalized");
  return withContext(context, slot, {
    blockhash: latest.blockhash,
    lastValidBlockHeight: latest.lastValidBlockHeight,
  });
};

export const isBlockhashValid: RpcMethod = (params, context) => {
  const [blockhash, config] = parseParams(z.tuple([z.string(), contextConfig]), params);
  parseHash(blockhash);
  const slot = contextSlot(context.chain, config);
  return withContext(context, slot, context.chain.isBlockhashValid(blockhash, MAX_PROCESSING_AGE));
};

export const getFeeForMessage: RpcMethod = (params, context) => {
  const [encoded, config] = parseParams(z.tuple([z.string(), contextConfig]), params);
  const bytes = decodeBase64(encoded, MAX_BASE64_TRANSACTION, "solana_message::versions::VersionedMessage");
  let message: VersionedMessage;
  try {
    message = VersionedMessage.deserialize(bytes);
  } catch (error) {
    throw invalidParams(
      `failed to deserialize solana_message::versions::VersionedMessage: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const slot = contextSlot(context.chain, config);
  if (message.version !== "legacy" && message.version !== 0) {
    throw invalidParams(`invalid transaction message: unsupported version ${message.version}`);
  }
  if (!context.chain.isBlockhashValid(message.recentBlockhash)) {
    return withContext(context, slot, null);
  }
  const transaction: DecodedTransaction = {
    wire: bytes,
    message,
    messageBytes: bytes,
    signatures: [],
    signature: "",
    version: message.version,
    recentBlockhash: message.recentBlockhash,
    staticAccountKeys: message.staticAccountKeys,
    instructions: message.compiledInstructions,
  };
  return withContext(context, slot, feeOf(transaction));
};

export const getMinimumBalanceForRentExemption: RpcMethod = (params, { chain }) => {
  const [length] = parseParams(z.tuple([u64, commitmentConfig]), params);
  if (length > MAX_ACCOUNT_DATA_LENGTH) {
    throw invalidRequest();
  }
  return chain.minimumBalanceForRentExemption(length);
};

export const getRecentPrioritizationFees: RpcMethod = (params, { chain }) => {
  const [addresses] = parseParams(z.tuple([z.array(z.string()).nullish()]), params);
  const accounts = addresses ?? [];
  if (accounts.length > MAX_TX_ACCOUNT_LOCKS) {
    throw invalidParams(`Too many inputs provided; max ${MAX_TX_ACCOUNT_LOCKS}`);
  }
  accounts.forEach(parsePubkey);
  const fees: { slot: bigint; prioritizationFee: bigint }[] = [];
  const last = chain.slot - 1n;
  const first = last - PRIORITIZATION_FEE_SLOTS + 1n < 0n ? 0n : last - PRIORITIZATION_FEE_SLOTS + 1n;
  for (let slot = first; slot <= last; slot += 1n) {
    const records = chain.ledger.inSlot(slot);
    let fee = minPrice(records);
    for (const account of accounts) {
      const touching = records.filter((record) =>
        record.accountKeys.some((key, index) => key === account && record.writable[index] === true),
      );
      const accountFee = minPrice(touching);
      fee = accountFee > fee ? accountFee : fee;
    }
    fees.push({ slot, prioritizationFee: fee });
  }
  return fees;
};

function minPrice(records: TransactionRecord[]): bigint {
  if (records.length === 0) {
    return 0n;
  }
  return records.reduce(
    (min, record) => (record.computeUnitPrice < min ? record.computeUnitPrice : min),
    records[0]?.computeUnitPrice ?? 0n,
  );
}

// The JSON-RPC methods: one function per method, each parsing its positional params and answering
// from the chain in the shapes agave's rpc.rs returns (context/value wrappers, error codes and data).
import bs58 from "bs58";
import { VersionedMessage } from "@solana/web3.js";
import { z } from "zod";

import {
  MAX_PROCESSING_AGE,
  SLOTS_PER_EPOCH,
  type Chain,
  type ChainAccount,
  type Commitment,
} from "../chain";
import { STATUS_CACHE_SLOTS, type TransactionRecord } from "../ledger";
import { verifySignature } from "../keys";
import {
  TOKEN_ACCOUNT_MINT_OFFSET,
  TOKEN_ACCOUNT_OWNER_OFFSET,
  decodeMint,
  decodeTokenAccount,
  isTokenProgram,
} from "../../lib/chain/spl-token";
import { uiTokenAmount } from "../ui-token-amount";
import {
  TransactionDecodeError,
  decodeTransaction,
  feeOf,
  hasValidSignatures,
  sanitizeTransaction,
  withRecentBlockhash,
  type DecodedTransaction,
} from "../transaction";
import { describeTransactionError } from "../transaction-error";
import {
  encodeAccount,
  encodeConfirmedTransaction,
  encodeTokenBalance,
  tokenAccountAmount,
  transactionStatusOf,
  type UiAccount,
} from "./encoding";
import {
  RpcError,
  SEND_TRANSACTION_PREFLIGHT_FAILURE,
  blockNotAvailable,
  invalidParams,
  invalidRequest,
  minContextSlotNotReached,
  signatureVerificationFailure,
  unsupportedTransactionVersion,
} from "./errors";
import {
  accountInfoConfig,
  airdropConfig,
  commitmentConfig,
  contextConfig,
  parseHash,
  parseParams,
  parsePubkey,
  parseSignature,
  programAccountsConfig,
  sendTransactionConfig,
  signatureStatusConfig,
  signaturesForAddressConfig,
  simulateTransactionConfig,
  tokenAccountsFilter,
  transactionConfig,
  u64,
  type AccountEncoding,
  type DataSlice,
  type ProgramAccountsFilter,
  type TransactionEncoding,
} from "./params";

export interface RpcContext {
  chain: Chain;
  version: { solanaCore: string; featureSet: number };
  /** Sends the faucet's transfer; returns its signature. */
  requestAirdrop(recipient: string, lamports: bigint, recentBlockhash: string | null): string;
  clusterNode: { rpc: string; pubsub: string };
}

export type RpcMethod = (params: unknown, context: RpcContext) => unknown;

const MAX_MULTIPLE_ACCOUNTS = 100;
const MAX_SIGNATURE_STATUSES = 256;
const MAX_SIGNATURES_FOR_ADDRESS = 1000;
const MAX_PROGRAM_ACCOUNT_FILTERS = 4;
const MAX_MEMCMP_BYTES = 128;
const MAX_MEMCMP_BASE58 = 175;
const MAX_ACCOUNT_DATA_LENGTH = 10n * 1024n * 1024n;
const MAX_BASE58_TRANSACTION = 1683;
const MAX_BASE64_TRANSACTION = 1644;
const MAX_TX_ACCOUNT_LOCKS = 128;
const PRIORITIZATION_FEE_SLOTS = 150n;
const TRANSACTION_TYPE = "solana_transaction::versioned::VersionedTransaction";

interface ContextOptions {
  commitment?: Commitment | null;
  minContextSlot?: bigint | null;
}

/** The slot a read is answered at, refusing reads that ask for a later context slot. */
function contextSlot(chain: Chain, options: ContextOptions | null | undefined): bigint {
  const slot = chain.slotFor(options?.commitment ?? "finalized");
  const minContextSlot = options?.minContextSlot;
  if (minContextSlot !== null && minContextSlot !== undefined && slot < minContextSlot) {
    throw minContextSlotNotReached(slot);
  }
  return slot;
}

function withContext(context: RpcContext, slot: bigint, value: unknown): unknown {
  return { context: { slot, apiVersion: context.version.solanaCore }, value };
}

function encodeOrNull(
  chain: Chain,
  account: ChainAccount | null,
  encoding: AccountEncoding,
  slice: DataSlice | null | undefined,
): UiAccount | null {
  return account === null ? null : encodeAccount(chain, account, encoding, slice);
}

const single = <T extends z.ZodTypeAny>(schema: T) => z.tuple([schema]);
const noParams = z.tuple([]);

// ---- cluster and node -----------------------------------------------------------------------------

const getHealth: RpcMethod = (params) => {
  parseParams(noParams, params);
  return "ok";
};

const getVersion: RpcMethod = (params, { version }) => {
  parseParams(noParams, params);
  return { "solana-core": version.solanaCore, "feature-set": version.featureSet };
};

const getGenesisHash: RpcMethod = (params, { chain }) => {
  parseParams(noParams, params);
  return chain.identity.genesisHash;
};

const getIdentity: RpcMethod = (params, { chain }) => {
  parseParams(noParams, params);
  return { identity: chain.identity.identity };
};

const getClusterNodes: RpcMethod = (params, { chain, version, clusterNode }) => {
  parseParams(noParams, params);
  return [
    {
      pubkey: chain.identity.identity,
      gossip: null,
      tvu: null,
      tpu: null,
      tpuQuic: null,
      tpuForwards: null,
      tpuForwardsQuic: null,
      tpuVote: null,
      serveRepair: null,
      rpc: clusterNode.rpc,
      pubsub: clusterNode.pubsub,
      version: version.solanaCore,
      featureSet: version.featureSet,
      shredVersion: 0,
    },
  ];
};

const getSlot: RpcMethod = (params, { chain }) => {
  const [config] = parseParams(z.tuple([contextConfig]), params);
  return contextSlot(chain, config);
};

const getBlockHeight: RpcMethod = (params, { chain }) => {
  const [config] = parseParams(z.tuple([contextConfig]), params);
  contextSlot(chain, config);
  return chain.blockHeightFor(config?.commitment ?? "finalized");
};

const getSlotLeader: RpcMethod = (params, { chain }) => {
  const [config] = parseParams(z.tuple([contextConfig]), params);
  contextSlot(chain, config);
  return chain.identity.identity;
};

const getEpochInfo: RpcMethod = (params, { chain }) => {
  const [config] = parseParams(z.tuple([contextConfig]), params);
  contextSlot(chain, config);
  return chain.epochInfo(config?.commitment ?? "finalized");
};

const getEpochSchedule: RpcMethod = (params) => {
  parseParams(noParams, params);
  return {
    slotsPerEpoch: SLOTS_PER_EPOCH,
    leaderScheduleSlotOffset: SLOTS_PER_EPOCH,
    warmup: false,
    firstNormalEpoch: 0,
    firstNormalSlot: 0,
  };
};

const getTransactionCount: RpcMethod = (params, { chain }) => {
  const [config] = parseParams(z.tuple([contextConfig]), params);
  contextSlot(chain, config);
  return BigInt(chain.ledger.transactionCount);
};

const getFirstAvailableBlock: RpcMethod = (params) => {
  parseParams(noParams, params);
  return 0;
};

const minimumLedgerSlot: RpcMethod = (params) => {
  parseParams(noParams, params);
  return 0;
};

// ---- blockhashes and fees -------------------------------------------------------------------------

const getLatestBlockhash: RpcMethod = (params, context) => {
  const [config] = parseParams(z.tuple([contextConfig]), params);
  const slot = contextSlot(context.chain, config);
  const latest = context.chain.latestBlockhash(config?.commitment ?? "finalized");
  return withContext(context, slot, {
    blockhash: latest.blockhash,
    lastValidBlockHeight: latest.lastValidBlockHeight,
  });
};

const isBlockhashValid: RpcMethod = (params, context) => {
  const [blockhash, config] = parseParams(z.tuple([z.string(), contextConfig]), params);
  parseHash(blockhash);
  const slot = contextSlot(context.chain, config);
  return withContext(context, slot, context.chain.isBlockhashValid(blockhash, MAX_PROCESSING_AGE));
};

const getFeeForMessage: RpcMethod = (params, context) => {
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

const getMinimumBalanceForRentExemption: RpcMethod = (params, { chain }) => {
  const [length] = parseParams(z.tuple([u64, commitmentConfig]), params);
  if (length > MAX_ACCOUNT_DATA_LENGTH) {
    throw invalidRequest();
  }
  return chain.minimumBalanceForRentExemption(length);
};

const getRecentPrioritizationFees: RpcMethod = (params, { chain }) => {
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

// ---- accounts -------------------------------------------------------------------------------------

const getBalance: RpcMethod = (params, context) => {
  const [address, config] = parseParams(z.tuple([z.string(), contextConfig]), params);
  parsePubkey(address);
  const slot = contextSlot(context.chain, config);
  return withContext(context, slot, context.chain.getAccount(address)?.lamports ?? 0n);
};

const getAccountInfo: RpcMethod = (params, context) => {
  const [address, config] = parseParams(z.tuple([z.string(), accountInfoConfig]), params);
  parsePubkey(address);
  const slot = contextSlot(context.chain, config);
  const account = context.chain.getAccount(address);
  return withContext(
    context,
    slot,
    encodeOrNull(context.chain, account, config?.encoding ?? "binary", config?.dataSlice),
  );
};

const getMultipleAccounts: RpcMethod = (params, context) => {
  const [addresses, config] = parseParams(z.tuple([z.array(z.string()), accountInfoConfig]), params);
  if (addresses.length > MAX_MULTIPLE_ACCOUNTS) {
    throw invalidParams(`Too many inputs provided; max ${MAX_MULTIPLE_ACCOUNTS}`);
  }
  addresses.forEach(parsePubkey);
  const slot = contextSlot(context.chain, config);
  const encoding = config?.encoding ?? "base64";
  return withContext(
    context,
    slot,
    addresses.map((address) =>
      encodeOrNull(context.chain, context.chain.getAccount(address), encoding, config?.dataSlice),
    ),
  );
};

interface CompiledFilter {
  matches(account: ChainAccount): boolean;
}

function compileFilter(filter: ProgramAccountsFilter): CompiledFilter {
  if (filter === "tokenAccountState") {
    return { matches: (account) => decodeTokenAccount(account.owner, account.data) !== null };
  }
  if ("dataSize" in filter) {
    return { matches: (account) => account.data.length === filter.dataSize };
  }
  const { offset, bytes: text, encoding } = filter.memcmp;
  let bytes: Uint8Array;
  if (encoding === "base64") {
    bytes = new Uint8Array(Buffer.from(text, "base64"));
  } else {
    if (text.length > MAX_MEMCMP_BASE58) {
      throw invalidParams("Invalid param: DataTooLarge");
    }
    try {
      bytes = bs58.decode(text);
    } catch {
      throw invalidParams("Invalid param: Base58DecodeError(InvalidCharacter)");
    }
  }
  if (bytes.length > MAX_MEMCMP_BYTES) {
    throw invalidParams("Invalid param: DataTooLarge");
  }
  return {
    matches: (account) =>
      offset + bytes.length <= account.data.length &&
      bytes.every((byte, index) => account.data[offset + index] === byte),
  };
}

function compileFilters(filters: ProgramAccountsFilter[] | null | undefined): CompiledFilter[] {
  const list = filters ?? [];
  if (list.length > MAX_PROGRAM_ACCOUNT_FILTERS) {
    throw invalidParams(`Too many filters provided; max ${MAX_PROGRAM_ACCOUNT_FILTERS}`);
  }
  return list.map(compileFilter);
}

function keyedAccounts(
  chain: Chain,
  owner: string,
  filters: CompiledFilter[],
  encoding: AccountEncoding,
  slice: DataSlice | null | undefined,
): { pubkey: string; account: UiAccount }[] {
  return chain
    .getProgramAccounts(owner)
    .filter(({ account }) => filters.every((filter) => filter.matches(account)))
    .map(({ address, account }) => ({
      pubkey: address,
      account: encodeAccount(chain, account, encoding, slice),
    }));
}

const getProgramAccounts: RpcMethod = (params, context) => {
  const [programId, config] = parseParams(z.tuple([z.string(), programAccountsConfig]), params);
  parsePubkey(programId);
  const filters = compileFilters(config?.filters);
  const slot = contextSlot(context.chain, config);
  const accounts = keyedAccounts(
    context.chain,
    programId,
    filters,
    config?.encoding ?? "binary",
    config?.dataSlice,
  );
  return config?.withContext === true ? withContext(context, slot, accounts) : accounts;
};

// ---- tokens ---------------------------------------------------------------------------------------

const getTokenAccountBalance: RpcMethod = (params, context) => {
  const [address, config] = parseParams(z.tuple([z.string(), commitmentConfig]), params);
  parsePubkey(address);
  const slot = contextSlot(context.chain, config);
  const account = context.chain.getAccount(address);
  if (account === null) {
    throw invalidParams("Invalid param: could not find account");
  }
  const amount = tokenAccountAmount(context.chain, account);
  if (amount === null) {
    throw invalidParams("Invalid param: not a Token account");
  }
  return withContext(context, slot, amount);
};

const getTokenSupply: RpcMethod = (params, context) => {
  const [address, config] = parseParams(z.tuple([z.string(), commitmentConfig]), params);
  parsePubkey(address);
  const slot = contextSlot(context.chain, config);
  const account = context.chain.getAccount(address);
  if (account === null) {
    throw invalidParams("Invalid param: could not find account");
  }
  const mint = decodeMint(account.owner, account.data);
  if (mint === null) {
    throw invalidParams("Invalid param: not a Token mint");
  }
  return withContext(context, slot, uiTokenAmount(mint.supply, mint.decimals));
};

/** The token program and, for a mint filter, the mint, as get_token_program_id_and_mint resolves them. */
function tokenProgramAndMint(
  chain: Chain,
  filter: z.infer<typeof tokenAccountsFilter>,
): { programId: string; mint: string | null } {
  if ("mint" in filter) {
    parsePubkey(filter.mint);
    const mint = chain.getAccount(filter.mint);
    if (mint === null) {
      throw invalidParams("Invalid param: could not find mint");
    }
    if (!isTokenProgram(mint.owner)) {
      throw invalidParams("Invalid param: not a Token mint");
    }
    return { programId: mint.owner, mint: filter.mint };
  }
  parsePubkey(filter.programId);
  if (!isTokenProgram(filter.programId)) {
    throw invalidParams("Invalid param: unrecognized Token program id");
  }
  return { programId: filter.programId, mint: null };
}

function memcmpAddress(offset: number, address: string): ProgramAccountsFilter {
  return { memcmp: { offset, bytes: address, encoding: "base58" } };
}

const getTokenAccountsByOwner: RpcMethod = (params, context) => {
  const [owner, filter, config] = parseParams(
    z.tuple([z.string(), tokenAccountsFilter, accountInfoConfig]),
    params,
  );
  parsePubkey(owner);
  const { programId, mint } = tokenProgramAndMint(context.chain, filter);
  const filters: ProgramAccountsFilter[] = [
    "tokenAccountState",
    memcmpAddress(TOKEN_ACCOUNT_OWNER_OFFSET, owner),
  ];
  if (mint !== null) {
    filters.push(memcmpAddress(TOKEN_ACCOUNT_MINT_OFFSET, mint));
  }
  const slot = contextSlot(context.chain, config);
  return withContext(
    context,
    slot,
    keyedAccounts(
      context.chain,
      programId,
      filters.map(compileFilter),
      config?.encoding ?? "binary",
      config?.dataSlice,
    ),
  );
};

const getTokenLargestAccounts: RpcMethod = (params, context) => {
  const [address, config] = parseParams(z.tuple([z.string(), commitmentConfig]), params);
  parsePubkey(address);
  const slot = contextSlot(context.chain, config);
  const account = context.chain.getAccount(address);
  const mint = account === null ? null : decodeMint(account.owner, account.data);
  if (account === null || mint === null) {
    throw invalidParams("Invalid param: not a Token mint");
  }
  const holders = context.chain
    .getProgramAccounts(account.owner)
    .flatMap(({ address: holder, account: candidate }) => {
      const token = decodeTokenAccount(candidate.owner, candidate.data);
      return token !== null && token.mint.toBase58() === address
        ? [{ address: holder, amount: token.amount }]
        : [];
    })
    .sort((left, right) => (left.amount === right.amount ? 0 : left.amount > right.amount ? -1 : 1))
    .slice(0, 20);
  return withContext(
    context,
    slot,
    holders.map((holder) => ({ address: holder.address, ...uiTokenAmount(holder.amount, mint.decimals) })),
  );
};

// ---- transactions ---------------------------------------------------------------------------------

function decodeBase64(text: string, maxLength: number, typeName: string): Uint8Array {
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

const sendTransaction: RpcMethod = (params, context) => {
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

const simulateTransaction: RpcMethod = (params, context) => {
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

const getSignatureStatuses: RpcMethod = (params, context) => {
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

const getTransaction: RpcMethod = (params, { chain }) => {
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

const getSignaturesForAddress: RpcMethod = (params, { chain }) => {
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

const getBlockTime: RpcMethod = (params, { chain }) => {
  const [slot] = parseParams(single(u64), params);
  const time = chain.blockTime(slot);
  if (time === null) {
    throw blockNotAvailable(slot);
  }
  return time;
};

const requestAirdrop: RpcMethod = (params, context) => {
  const [address, lamports, config] = parseParams(z.tuple([z.string(), u64, airdropConfig]), params);
  parsePubkey(address);
  const blockhash = config?.recentBlockhash ?? null;
  if (blockhash !== null) {
    parseHash(blockhash, "Invalid param: ");
  }
  return context.requestAirdrop(address, lamports, blockhash);
};

export const rpcMethods: Readonly<Record<string, RpcMethod>> = {
  getAccountInfo,
  getBalance,
  getBlockHeight,
  getBlockTime,
  getClusterNodes,
  getEpochInfo,
  getEpochSchedule,
  getFeeForMessage,
  getFirstAvailableBlock,
  getGenesisHash,
  getHealth,
  getIdentity,
  getLatestBlockhash,
  getMinimumBalanceForRentExemption,
  getMultipleAccounts,
  getProgramAccounts,
  getRecentPrioritizationFees,
  getSignatureStatuses,
  getSignaturesForAddress,
  getSlot,
  getSlotLeader,
  getTokenAccountBalance,
  getTokenAccountsByOwner,
  getTokenLargestAccounts,
  getTokenSupply,
  getTransaction,
  getTransactionCount,
  getVersion,
  isBlockhashValid,
  minimumLedgerSlot,
  requestAirdrop,
  sendTransaction,
  simulateTransaction,
};

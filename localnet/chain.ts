// The chain: a LiteSVM that behaves like a single validator. Slots advance on a timer with the Clock
// sysvar following wall time; each slot gets a new blockhash that stays valid for 150 slots; every
// executed transaction is recorded with its slot, block time and full metadata; commitment levels
// advance as slots pass (confirmed after one slot, finalized after `finalizationDepth`).
import {
  Account,
  Clock,
  EpochSchedule,
  FailedTransactionMetadata,
  LiteSvm,
  type TransactionMetadata,
} from "litesvm/dist/internal";
import bs58 from "bs58";
import { PublicKey } from "@solana/web3.js";

import { Ledger, type InnerInstructions, type TokenBalance, type TransactionRecord } from "./ledger";
import { decodeMint, decodeTokenAccount } from "../lib/chain/spl-token";
import {
  computeBudgetOf,
  feeOf,
  isStaticKeyWritable,
  memoOf,
  usesDurableNonce,
  type DecodedTransaction,
} from "./transaction";
import { transactionErrorFromLiteSvm, type TransactionErrorJson } from "./transaction-error";

export type Commitment = "processed" | "confirmed" | "finalized";

/** Blocks a blockhash stays usable for (MAX_PROCESSING_AGE). */
export const MAX_PROCESSING_AGE = 150n;
/** Preflight simulation leaves room for forwarding (MAX_TRANSACTION_FORWARDING_DELAY). */
export const SIMULATION_MAX_AGE = MAX_PROCESSING_AGE - 6n;
export const SLOTS_PER_EPOCH = 432_000n;
/** Blockhashes kept for lookups; older ones are unknown, as in a validator's blockhash queue. */
const BLOCKHASH_QUEUE_LENGTH = 300;
const ACCOUNT_BASE_SIZE = 64n;
const UPGRADEABLE_LOADER = "BPFLoaderUpgradeab1e11111111111111111111111";

export interface ChainAccount {
  lamports: bigint;
  data: Uint8Array;
  owner: string;
  executable: boolean;
  rentEpoch: bigint;
}

export interface SlotInfo {
  slot: bigint;
  parent: bigint;
  root: bigint;
}

export interface BlockhashInfo {
  blockhash: string;
  slot: bigint;
  blockHeight: bigint;
  lastValidBlockHeight: bigint;
}

export interface TransactionStatus {
  record: TransactionRecord;
  commitment: Commitment;
  /** Slots since execution; null once finalized, as a validator reports rooted transactions. */
  confirmations: number | null;
}

export interface ExecutionSnapshot {
  balances: bigint[];
  tokenBalances: TokenBalance[];
}

export interface SimulationResult {
  err: TransactionErrorJson | null;
  logs: string[];
  unitsConsumed: bigint;
  loadedAccountsDataSize: number;
  returnData: { programId: string; data: Uint8Array } | null;
  innerInstructions: InnerInstructions[];
  fee: bigint;
  accountKeys: string[];
  loadedAddresses: { writable: string[]; readonly: string[] };
  pre: ExecutionSnapshot;
  post: ExecutionSnapshot;
  /** Accounts as they would be after the transaction (absent: unchanged). */
  postAccounts: Map<string, ChainAccount>;
}

export type SubmitResult =
  | { status: "executed"; record: TransactionRecord }
  /** Not included in a block, as a validator drops it: no fee, no record. */
  | { status: "dropped"; err: TransactionErrorJson };

export interface ChainOptions {
  slotDurationMs: number;
  finalizationDepth: number;
}

export interface ChainIdentity {
  genesisHash: string;
  identity: string;
}

export interface ChainSnapshot {
  svm: Uint8Array;
  state: ChainState;
}

export interface ChainState {
  identity: ChainIdentity;
  slot: string;
  blockHeight: string;
  genesisTime: number;
  blockhashes: { blockhash: string; slot: string; blockHeight: string }[];
  slotTimes: [slot: string, unixTime: number][];
  ledger: unknown;
}

type SlotListener = (info: SlotInfo) => void;
type TransactionListener = (record: TransactionRecord, commitment: Commitment) => void;

function toAddress(bytes: Uint8Array): string {
  return bs58.encode(bytes);
}

function addressBytes(address: string): Uint8Array {
  return new PublicKey(address).toBytes();
}

function unixNow(): number {
  return Math.floor(Date.now() / 1000);
}

function accountFromSvm(account: Account): ChainAccount {
  return {
    lamports: account.lamports(),
    data: account.data(),
    owner: toAddress(account.owner()),
    executable: account.executable(),
    rentEpoch: account.rentEpoch(),
  };
}

export class Chain {
  readonly identity: ChainIdentity;
  readonly ledger: Ledger;
  private readonly svm: LiteSvm;
  private readonly options: ChainOptions;
  private currentSlot: bigint;
  private currentBlockHeight: bigint;
  private readonly genesisTime: number;
  private readonly blockhashQueue: { blockhash: string; slot: bigint; blockHeight: bigint }[];
  private readonly blockhashIndex = new Map<string, { slot: bigint; blockHeight: bigint }>();
  /** (slot, unix time) at each slot where the time changed; block times are looked up from these. */
  private readonly slotTimes: [bigint, number][];
  private timer: NodeJS.Timeout | null = null;
  private readonly slotListeners = new Set<SlotListener>();
  private readonly transactionListeners = new Set<TransactionListener>();

  private constructor(
    svm: LiteSvm,
    options: ChainOptions,
    identity: ChainIdentity,
    ledger: Ledger,
    state: { slot: bigint; blockHeight: bigint; genesisTime: number; slotTimes: [bigint, number][] },
  ) {
    this.svm = svm;
    this.options = options;
    this.identity = identity;
    this.ledger = ledger;
    this.currentSlot = state.slot;
    this.currentBlockHeight = state.blockHeight;
    this.genesisTime = state.genesisTime;
    this.slotTimes = state.slotTimes;
    this.blockhashQueue = [];
    // Transactions go through our own age and status checks (150 slots, not only the latest hash).
    svm.setBlockhashCheck(false);
    svm.setTransactionHistory(0n);
    svm.setSigverify(true);
    svm.setEpochSchedule(new EpochSchedule(SLOTS_PER_EPOCH, SLOTS_PER_EPOCH, false, 0n, 0n));
  }

  /** A fresh chain at slot 0 with the builtins, sysvars and SPL programs a validator's genesis has. */
  static create(options: ChainOptions, identity: ChainIdentity): Chain {
    const now = unixNow();
    const chain = new Chain(new LiteSvm(), options, identity, new Ledger(), {
      slot: 0n,
      blockHeight: 0n,
      genesisTime: now,
      slotTimes: [[0n, now]],
    });
    chain.setClock(now);
    chain.pushBlockhash(chain.svm.latestBlockhash());
    return chain;
  }

  static restore(options: ChainOptions, snapshot: ChainSnapshot): Chain {
    const { state } = snapshot;
    const chain = new Chain(
      LiteSvm.fromBytes(snapshot.svm),
      options,
      state.identity,
      Ledger.fromJSON(state.ledger),
      {
        slot: BigInt(state.slot),
        blockHeight: BigInt(state.blockHeight),
        genesisTime: state.genesisTime,
        slotTimes: state.slotTimes.map(([slot, time]) => [BigInt(slot), time]),
      },
    );
    for (const entry of state.blockhashes) {
      chain.blockhashQueue.push({
        blockhash: entry.blockhash,
        slot: BigInt(entry.slot),
        blockHeight: BigInt(entry.blockHeight),
      });
      chain.blockhashIndex.set(entry.blockhash, {
        slot: BigInt(entry.slot),
        blockHeight: BigInt(entry.blockHeight),
      });
    }
    // Time moved on while the chain was stopped: the next slot starts now.
    chain.produceSlot();
    return chain;
  }

  snapshot(): ChainSnapshot {
    return {
      svm: this.svm.toBytes(),
      state: {
        identity: this.identity,
        slot: this.currentSlot.toString(),
        blockHeight: this.currentBlockHeight.toString(),
        genesisTime: this.genesisTime,
        blockhashes: this.blockhashQueue.map((entry) => ({
          blockhash: entry.blockhash,
          slot: entry.slot.toString(),
          blockHeight: entry.blockHeight.toString(),
        })),
        slotTimes: this.slotTimes.map(([slot, time]) => [slot.toString(), time]),
        ledger: this.ledger.toJSON(),
      },
    };
  }

  // ---- time -------------------------------------------------------------------------------------

  start(): void {
    if (this.timer === null) {
      this.timer = setInterval(() => this.produceSlot(), this.options.slotDurationMs);
    }
  }

  stop(): void {
    if (this.timer !== null) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  get slotDurationMs(): number {
    return this.options.slotDurationMs;
  }

  /** Ends the current slot and starts the next: new blockhash, clock, commitment progress. */
  produceSlot(): void {
    const parent = this.currentSlot;
    this.currentSlot += 1n;
    this.currentBlockHeight += 1n;
    const now = unixNow();
    const lastTime = this.slotTimes.at(-1)?.[1];
    if (lastTime !== now) {
      this.slotTimes.push([this.currentSlot, now]);
    }
    this.setClock(now);
    this.svm.expireBlockhash();
    this.pushBlockhash(this.svm.latestBlockhash());
    const info: SlotInfo = { slot: this.currentSlot, parent, root: this.slotFor("finalized") };
    for (const listener of this.slotListeners) {
      listener(info);
    }
    this.announceCommitment(this.currentSlot - 1n, "confirmed");
    this.announceCommitment(this.currentSlot - BigInt(this.options.finalizationDepth), "finalized");
  }

  /** Produces `count` slots at once (tests use it to age blockhashes without waiting). */
  produceSlots(count: number): void {
    for (let produced = 0; produced < count; produced += 1) {
      this.produceSlot();
    }
  }

  private announceCommitment(slot: bigint, commitment: Commitment): void {
    if (slot < 0n) {
      return;
    }
    for (const record of this.ledger.inSlot(slot)) {
      this.emitTransaction(record, commitment);
    }
  }

  private setClock(unixTimestamp: number): void {
    const epoch = this.currentSlot / SLOTS_PER_EPOCH;
    this.svm.setClock(
      new Clock(this.currentSlot, BigInt(this.genesisTime), epoch, epoch + 1n, BigInt(unixTimestamp)),
    );
  }

  private pushBlockhash(blockhash: string): void {
    const entry = { blockhash, slot: this.currentSlot, blockHeight: this.currentBlockHeight };
    this.blockhashQueue.push(entry);
    this.blockhashIndex.set(blockhash, { slot: entry.slot, blockHeight: entry.blockHeight });
    while (this.blockhashQueue.length > BLOCKHASH_QUEUE_LENGTH) {
      const expired = this.blockhashQueue.shift();
      if (expired !== undefined) {
        this.blockhashIndex.delete(expired.blockhash);
      }
    }
  }

  get slot(): bigint {
    return this.currentSlot;
  }

  get blockHeight(): bigint {
    return this.currentBlockHeight;
  }

  private depthOf(commitment: Commitment): bigint {
    switch (commitment) {
      case "processed":
        return 0n;
      case "confirmed":
        return 1n;
      case "finalized":
        return BigInt(this.options.finalizationDepth);
    }
  }

  slotFor(commitment: Commitment): bigint {
    const slot = this.currentSlot - this.depthOf(commitment);
    return slot < 0n ? 0n : slot;
  }

  blockHeightFor(commitment: Commitment): bigint {
    const height = this.currentBlockHeight - this.depthOf(commitment);
    return height < 0n ? 0n : height;
  }

  latestBlockhash(commitment: Commitment): BlockhashInfo {
    const slot = this.slotFor(commitment);
    const entry =
      [...this.blockhashQueue].reverse().find((candidate) => candidate.slot <= slot) ??
      this.blockhashQueue[0];
    if (entry === undefined) {
      throw new Error("The chain has no blockhash yet");
    }
    return { ...entry, lastValidBlockHeight: entry.blockHeight + MAX_PROCESSING_AGE };
  }

  /** Blocks since the hash was issued, or null for a hash this chain does not know (or forgot). */
  blockhashAge(blockhash: string): bigint | null {
    const entry = this.blockhashIndex.get(blockhash);
    return entry === undefined ? null : this.currentBlockHeight - entry.blockHeight;
  }

  isBlockhashValid(blockhash: string, maxAge: bigint = MAX_PROCESSING_AGE): boolean {
    const age = this.blockhashAge(blockhash);
    return age !== null && age <= maxAge;
  }

  lastValidBlockHeight(blockhash: string): bigint | null {
    const entry = this.blockhashIndex.get(blockhash);
    return entry === undefined ? null : entry.blockHeight + MAX_PROCESSING_AGE;
  }

  /** Unix time of a slot's block, or null for a slot not produced yet. */
  blockTime(slot: bigint): number | null {
    if (slot > this.currentSlot || slot < 0n) {
      return null;
    }
    let time: number | null = null;
    let low = 0;
    let high = this.slotTimes.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const entry = this.slotTimes[middle];
      if (entry === undefined) {
        break;
      }
      if (entry[0] <= slot) {
        time = entry[1];
        low = middle + 1;
      } else {
        high = middle - 1;
      }
    }
    return time ?? this.genesisTime;
  }

  epochInfo(commitment: Commitment): {
    absoluteSlot: bigint;
    blockHeight: bigint;
    epoch: bigint;
    slotIndex: bigint;
    slotsInEpoch: bigint;
    transactionCount: bigint;
  } {
    const slot = this.slotFor(commitment);
    return {
      absoluteSlot: slot,
      blockHeight: this.blockHeightFor(commitment),
      epoch: slot / SLOTS_PER_EPOCH,
      slotIndex: slot % SLOTS_PER_EPOCH,
      slotsInEpoch: SLOTS_PER_EPOCH,
      transactionCount: BigInt(this.ledger.transactionCount),
    };
  }

  // ---- events -----------------------------------------------------------------------------------

  /** Resolves when the next slot starts. */
  nextSlot(): Promise<SlotInfo> {
    return new Promise((resolve) => {
      const stop = this.onSlot((info) => {
        stop();
        resolve(info);
      });
    });
  }

  onSlot(listener: SlotListener): () => void {
    this.slotListeners.add(listener);
    return () => this.slotListeners.delete(listener);
  }

  /** Called for each transaction as it reaches processed, confirmed and finalized. */
  onTransaction(listener: TransactionListener): () => void {
    this.transactionListeners.add(listener);
    return () => this.transactionListeners.delete(listener);
  }

  private emitTransaction(record: TransactionRecord, commitment: Commitment): void {
    for (const listener of this.transactionListeners) {
      try {
        listener(record, commitment);
      } catch (error) {
        console.error("localnet: a transaction listener failed", error);
      }
    }
  }

  // ---- accounts ---------------------------------------------------------------------------------

  getAccount(address: string): ChainAccount | null {
    const account = this.svm.getAccount(addressBytes(address));
    return account === null || (account.lamports() === 0n && account.data().length === 0)
      ? null
      : accountFromSvm(account);
  }

  getProgramAccounts(owner: string): { address: string; account: ChainAccount }[] {
    return this.svm
      .getProgramAccounts(addressBytes(owner))
      .map((entry) => ({ address: toAddress(entry.address), account: accountFromSvm(entry.account()) }))
      .filter(({ account }) => account.lamports > 0n);
  }

  minimumBalanceForRentExemption(dataLength: bigint): bigint {
    return this.svm.minimumBalanceForRentExemption(dataLength);
  }

  /** Writes an account directly; only genesis uses this, as a validator's genesis config would. */
  setAccount(address: string, account: Omit<ChainAccount, "rentEpoch">): void {
    this.svm.setAccount(
      addressBytes(address),
      new Account(account.lamports, account.data, addressBytes(account.owner), account.executable, 0n),
    );
  }

  addProgram(programId: string, bytes: Uint8Array): void {
    this.svm.addProgram(addressBytes(programId), bytes);
  }

  // ---- transactions -----------------------------------------------------------------------------

  /** Keys from address lookup tables; null when a table or index cannot be resolved. */
  private loadedAddresses(
    transaction: DecodedTransaction,
  ): { writable: string[]; readonly: string[] } | null {
    const loaded = { writable: [] as string[], readonly: [] as string[] };
    for (const lookup of transaction.message.addressTableLookups) {
      const table = this.getAccount(lookup.accountKey.toBase58());
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

  private accountKeysOf(transaction: DecodedTransaction): {
    keys: string[];
    writable: boolean[];
    loaded: { writable: string[]; readonly: string[] };
  } {
    const loaded = this.loadedAddresses(transaction) ?? { writable: [], readonly: [] };
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

  private snapshotAccounts(keys: string[], override?: Map<string, ChainAccount>): ExecutionSnapshot {
    const accounts = keys.map((key) => override?.get(key) ?? this.getAccount(key));
    const decimalsOf = (mint: string): number | null => {
      const mintAccount = override?.get(mint) ?? this.getAccount(mint);
      return mintAccount === null
        ? null
        : (decodeMint(mintAccount.owner, mintAccount.data)?.decimals ?? null);
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

  private loadedAccountsDataSize(keys: string[]): number {
    let size = 0n;
    for (const key of keys) {
      const account = this.getAccount(key);
      size += ACCOUNT_BASE_SIZE + BigInt(account?.data.length ?? 0);
      if (
        account !== null &&
        account.executable &&
        account.owner === UPGRADEABLE_LOADER &&
        account.data.length >= 36
      ) {
        const programData = this.getAccount(toAddress(account.data.subarray(4, 36)));
        size += ACCOUNT_BASE_SIZE + BigInt(programData?.data.length ?? 0);
      }
    }
    return Number(size);
  }

  /** The checks a bank makes before loading a transaction: blockhash age, then the status cache. */
  private precheck(transaction: DecodedTransaction, maxAge: bigint): TransactionErrorJson | null {
    if (!usesDurableNonce(transaction) && !this.isBlockhashValid(transaction.recentBlockhash, maxAge)) {
      return "BlockhashNotFound";
    }
    if (this.ledger.has(transaction.signature)) {
      return "AlreadyProcessed";
    }
    return null;
  }

  /**
   * Runs the transaction against the current state without committing it. `balances: false` (a
   * preflight) skips the balance snapshots, which only simulateTransaction reports.
   */
  simulate(
    transaction: DecodedTransaction,
    options: { sigVerify: boolean; balances?: boolean },
  ): SimulationResult {
    const { keys, loaded } = this.accountKeysOf(transaction);
    const withBalances = options.balances ?? true;
    const pre = withBalances ? this.snapshotAccounts(keys) : { balances: [], tokenBalances: [] };
    const base = {
      accountKeys: keys,
      loadedAddresses: loaded,
      fee: feeOf(transaction),
      pre,
      innerInstructions: [],
      returnData: null,
    };
    const refused = this.precheck(transaction, SIMULATION_MAX_AGE);
    if (refused !== null) {
      return {
        ...base,
        err: refused,
        logs: [],
        unitsConsumed: 0n,
        loadedAccountsDataSize: 0,
        post: pre,
        postAccounts: new Map(),
      };
    }
    this.svm.setSigverify(options.sigVerify);
    let outcome: ReturnType<LiteSvm["simulateLegacyTransaction"]>;
    try {
      outcome =
        transaction.version === "legacy"
          ? this.svm.simulateLegacyTransaction(transaction.wire)
          : this.svm.simulateVersionedTransaction(transaction.wire);
    } finally {
      this.svm.setSigverify(true);
    }
    const loadedAccountsDataSize = this.loadedAccountsDataSize(keys);
    if (outcome instanceof FailedTransactionMetadata) {
      const meta = outcome.meta();
      return {
        ...base,
        ...this.executionDetails(meta),
        err: transactionErrorFromLiteSvm(outcome.err()),
        loadedAccountsDataSize,
        post: pre,
        postAccounts: new Map(),
      };
    }
    const postAccounts = new Map<string, ChainAccount>();
    for (const entry of outcome.postAccounts()) {
      postAccounts.set(toAddress(entry.address), accountFromSvm(entry.account()));
    }
    return {
      ...base,
      ...this.executionDetails(outcome.meta()),
      err: null,
      loadedAccountsDataSize,
      post: withBalances ? this.snapshotAccounts(keys, postAccounts) : pre,
      postAccounts,
    };
  }

  private executionDetails(
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

  /**
   * Executes the transaction in the current slot. Transactions a validator would drop (stale
   * blockhash, duplicate, bad signature, unpayable fee) leave no trace; others are recorded, failed
   * ones with their error and the fee charged.
   */
  submit(transaction: DecodedTransaction): SubmitResult {
    const refused = this.precheck(transaction, MAX_PROCESSING_AGE);
    if (refused !== null) {
      return { status: "dropped", err: refused };
    }
    const { keys, writable, loaded } = this.accountKeysOf(transaction);
    const pre = this.snapshotAccounts(keys);
    const outcome =
      transaction.version === "legacy"
        ? this.svm.sendLegacyTransaction(transaction.wire)
        : this.svm.sendVersionedTransaction(transaction.wire);
    const post = this.snapshotAccounts(keys);
    const failed = outcome instanceof FailedTransactionMetadata;
    const err = failed ? transactionErrorFromLiteSvm(outcome.err()) : null;
    const feePayerCharged = (post.balances[0] ?? 0n) < (pre.balances[0] ?? 0n);
    if (failed && !feePayerCharged && err !== null) {
      return { status: "dropped", err };
    }
    const { logs, unitsConsumed, returnData, innerInstructions } = this.executionDetails(
      failed ? outcome.meta() : outcome,
    );
    const blockTime = this.blockTime(this.currentSlot) ?? unixNow();
    const record: TransactionRecord = {
      signature: transaction.signature,
      slot: this.currentSlot,
      blockTime,
      index: this.ledger.countInSlot(this.currentSlot),
      wire: transaction.wire,
      version: transaction.version,
      accountKeys: keys,
      writable,
      loadedAddresses: loaded,
      err,
      fee: feeOf(transaction),
      preBalances: pre.balances,
      postBalances: post.balances,
      preTokenBalances: pre.tokenBalances,
      postTokenBalances: post.tokenBalances,
      logs,
      innerInstructions,
      computeUnitsConsumed: unitsConsumed,
      returnData,
      computeUnitPrice: computeBudgetOf(transaction).unitPrice,
      memo: memoOf(transaction),
    };
    this.ledger.add(record);
    this.emitTransaction(record, "processed");
    return { status: "executed", record };
  }

  statusOf(signature: string): TransactionStatus | null {
    const record = this.ledger.get(signature);
    if (record === undefined) {
      return null;
    }
    const age = this.currentSlot - record.slot;
    if (age >= BigInt(this.options.finalizationDepth)) {
      return { record, commitment: "finalized", confirmations: null };
    }
    return { record, commitment: age >= 1n ? "confirmed" : "processed", confirmations: Number(age) };
  }

  /** Whether a transaction has reached `commitment`. */
  hasReached(status: TransactionStatus, commitment: Commitment): boolean {
    const rank: Record<Commitment, number> = { processed: 0, confirmed: 1, finalized: 2 };
    return rank[status.commitment] >= rank[commitment];
  }
}

// The chain: a LiteSVM that behaves like a single validator. Slots advance on a timer with the Clock
// sysvar following wall time (plus however far a test moved it ahead with advanceClock); each slot
// gets a new blockhash that stays valid for 150 slots; every executed transaction is recorded with its
// slot, block time and full metadata; commitment levels advance as slots pass (confirmed after one
// slot, finalized after `finalizationDepth`). The slot clock and blockhash window are in slot-clock.ts,
// the reads around an execution in svm-execution.ts, the shapes it hands out in chain-types.ts.
import { Account, Clock, EpochSchedule, FailedTransactionMetadata, LiteSvm } from "litesvm/dist/internal";

import {
  MAX_PROCESSING_AGE,
  SIMULATION_MAX_AGE,
  SLOTS_PER_EPOCH,
  type BlockhashInfo,
  type ChainAccount,
  type ChainIdentity,
  type ChainOptions,
  type ChainSnapshot,
  type Commitment,
  type SimulationResult,
  type SlotInfo,
  type SubmitResult,
  type TransactionStatus,
} from "./chain-types";
import { Ledger, type TransactionRecord } from "./ledger";
import { SlotClock, unixNow } from "./slot-clock";
import {
  accountFromSvm,
  accountKeysOf,
  addressBytes,
  executionDetails,
  loadedAccountsDataSizeOf,
  snapshotAccounts,
  toAddress,
} from "./svm-execution";
import { computeBudgetOf, feeOf, memoOf, usesDurableNonce, type DecodedTransaction } from "./transaction";
import { transactionErrorFromLiteSvm, type TransactionErrorJson } from "./transaction-error";

type SlotListener = (info: SlotInfo) => void;
type TransactionListener = (record: TransactionRecord, commitment: Commitment) => void;

export class Chain {
  readonly identity: ChainIdentity;
  readonly ledger: Ledger;
  private readonly svm: LiteSvm;
  private readonly options: ChainOptions;
  private readonly clock: SlotClock;
  private timer: NodeJS.Timeout | null = null;
  /** Seconds the clock runs ahead of wall time: advanceClock's, and a restored chain's lead. */
  private clockLeadSeconds = 0;
  private readonly slotListeners = new Set<SlotListener>();
  private readonly transactionListeners = new Set<TransactionListener>();
  private readonly read = (address: string): ChainAccount | null => this.getAccount(address);

  private constructor(
    svm: LiteSvm,
    options: ChainOptions,
    identity: ChainIdentity,
    ledger: Ledger,
    clock: SlotClock,
  ) {
    this.svm = svm;
    this.options = options;
    this.identity = identity;
    this.ledger = ledger;
    this.clock = clock;
    // Transactions go through our own age and status checks (150 slots, not only the latest hash).
    svm.setBlockhashCheck(false);
    svm.setTransactionHistory(0n);
    svm.setSigverify(true);
    svm.setEpochSchedule(new EpochSchedule(SLOTS_PER_EPOCH, SLOTS_PER_EPOCH, false, 0n, 0n));
  }

  /** A fresh chain at slot 0 with the builtins, sysvars and SPL programs a validator's genesis has. */
  static create(options: ChainOptions, identity: ChainIdentity): Chain {
    const now = unixNow();
    const chain = new Chain(
      new LiteSvm(),
      options,
      identity,
      new Ledger(),
      SlotClock.genesis(options.finalizationDepth, now),
    );
    chain.setClock(now);
    chain.clock.pushBlockhash(chain.svm.latestBlockhash());
    return chain;
  }

  static restore(options: ChainOptions, snapshot: ChainSnapshot): Chain {
    const { state } = snapshot;
    const chain = new Chain(
      LiteSvm.fromBytes(snapshot.svm),
      options,
      state.identity,
      Ledger.fromJSON(state.ledger),
      SlotClock.restore(options.finalizationDepth, state),
    );
    // Time moved on while the chain was stopped: the next slot starts now, or at the saved chain's own
    // time if that is ahead (its clock was advanced), as a chain's time never goes back.
    const savedTime = chain.clock.blockTime(chain.clock.slot) ?? chain.clock.genesisTime;
    chain.clockLeadSeconds = Math.max(0, savedTime - unixNow());
    chain.produceSlot();
    return chain;
  }

  snapshot(): ChainSnapshot {
    return {
      svm: this.svm.toBytes(),
      state: { identity: this.identity, ...this.clock.toState(), ledger: this.ledger.toJSON() },
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

  /** The chain's unix time: the wall clock plus the lead advanceClock gave it. */
  now(): number {
    return unixNow() + this.clockLeadSeconds;
  }

  /**
   * Moves the chain's clock `seconds` ahead of where it would be (solana-test-validator's warp, in
   * time) and starts a slot at the new time: tests drive time-based rules (NAV strikes, intervals,
   * caps) without waiting for the wall clock, and without depending on a timer being on time.
   */
  advanceClock(seconds: number): void {
    if (!Number.isSafeInteger(seconds) || seconds <= 0) {
      throw new Error(`advanceClock takes a whole number of seconds above 0, got ${seconds}`);
    }
    this.clockLeadSeconds += seconds;
    this.produceSlot();
  }

  /** Ends the current slot and starts the next: new blockhash, clock, commitment progress. */
  produceSlot(): void {
    const now = this.now();
    const parent = this.clock.advance(now);
    this.setClock(now);
    this.svm.expireBlockhash();
    this.clock.pushBlockhash(this.svm.latestBlockhash());
    const info: SlotInfo = { slot: this.clock.slot, parent, root: this.slotFor("finalized") };
    for (const listener of this.slotListeners) {
      listener(info);
    }
    this.announceCommitment(this.clock.slot - 1n, "confirmed");
    this.announceCommitment(this.clock.slot - BigInt(this.options.finalizationDepth), "finalized");
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
    const slot = this.clock.slot;
    const epoch = slot / SLOTS_PER_EPOCH;
    this.svm.setClock(
      new Clock(slot, BigInt(this.clock.genesisTime), epoch, epoch + 1n, BigInt(unixTimestamp)),
    );
  }

  get slot(): bigint {
    return this.clock.slot;
  }

  get blockHeight(): bigint {
    return this.clock.blockHeight;
  }

  slotFor(commitment: Commitment): bigint {
    return this.clock.slotFor(commitment);
  }

  blockHeightFor(commitment: Commitment): bigint {
    return this.clock.blockHeightFor(commitment);
  }

  latestBlockhash(commitment: Commitment): BlockhashInfo {
    return this.clock.latestBlockhash(commitment);
  }

  /** Blocks since the hash was issued, or null for a hash this chain does not know (or forgot). */
  blockhashAge(blockhash: string): bigint | null {
    return this.clock.blockhashAge(blockhash);
  }

  isBlockhashValid(blockhash: string, maxAge: bigint = MAX_PROCESSING_AGE): boolean {
    return this.clock.isBlockhashValid(blockhash, maxAge);
  }

  lastValidBlockHeight(blockhash: string): bigint | null {
    return this.clock.lastValidBlockHeight(blockhash);
  }

  /** Unix time of a slot's block, or null for a slot not produced yet. */
  blockTime(slot: bigint): number | null {
    return this.clock.blockTime(slot);
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
    const { keys, loaded } = accountKeysOf(this.read, transaction);
    const withBalances = options.balances ?? true;
    const pre = withBalances ? snapshotAccounts(this.read, keys) : { balances: [], tokenBalances: [] };
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
    const loadedAccountsDataSize = loadedAccountsDataSizeOf(this.read, keys);
    if (outcome instanceof FailedTransactionMetadata) {
      const meta = outcome.meta();
      return {
        ...base,
        ...executionDetails(meta),
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
      ...executionDetails(outcome.meta()),
      err: null,
      loadedAccountsDataSize,
      post: withBalances ? snapshotAccounts(this.read, keys, postAccounts) : pre,
      postAccounts,
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
    const { keys, writable, loaded } = accountKeysOf(this.read, transaction);
    const pre = snapshotAccounts(this.read, keys);
    const outcome =
      transaction.version === "legacy"
        ? this.svm.sendLegacyTransaction(transaction.wire)
        : this.svm.sendVersionedTransaction(transaction.wire);
    const post = snapshotAccounts(this.read, keys);
    const failed = outcome instanceof FailedTransactionMetadata;
    const err = failed ? transactionErrorFromLiteSvm(outcome.err()) : null;
    const feePayerCharged = (post.balances[0] ?? 0n) < (pre.balances[0] ?? 0n);
    if (failed && !feePayerCharged && err !== null) {
      return { status: "dropped", err };
    }
    const { logs, unitsConsumed, returnData, innerInstructions } = executionDetails(
      failed ? outcome.meta() : outcome,
    );
    const blockTime = this.blockTime(this.clock.slot) ?? this.now();
    const record: TransactionRecord = {
      signature: transaction.signature,
      slot: this.clock.slot,
      blockTime,
      index: this.ledger.countInSlot(this.clock.slot),
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
    const age = this.clock.slot - record.slot;
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

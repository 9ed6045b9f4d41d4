// The indexer: on a schedule, the leader (one instance, see leader-lock.ts) reads every vault of the
// deployment's protocol (PROTOCOL_ID; the program's other vaults are not indexed), stores its account,
// a NAV/supply/queue snapshot and its holders, then walks the vault's signatures newer than its cursor
// (all of them on first run, or after downtime) and stores each successful transaction's program
// events together with the cursor, and the history rows of the claims in it that someone other than
// their owner sent (a delivery, which the owner cannot post). Reads are served from these rows. Woken
// (the program's logs over the node's WebSocket, program-watch.ts), it runs a lighter pass at once: the
// vaults' new transactions only, without the snapshot and holder reads of the scheduled pass.
import { PublicKey } from "@solana/web3.js";

import type { GenesisWatch } from "../chain/genesis-watch";
import type { RpcClient } from "../chain/rpc";
import type { ConfirmedTransaction, VaultChain } from "../chain/vault-chain";
import type { SqlIndexerStore, StoredEvent } from "../store/indexer";
import { DomainError } from "../vault/model/domain-errors";
import type { VaultState } from "../vault/program/accounts";
import { decodeVaultEvents, eventVault, type VaultEvent } from "../vault/program/events";
import {
  classifyVaultTransaction,
  deliveredActivity,
  type HistoryTokens,
  type NewActivityRecord,
} from "../vault/reads/history";
import { countHolders, readProtocolVaults, readTokenBalances, signaturesSince } from "./chain-reads";
import type { LeaderLock } from "./leader-lock";
import { ProgramWatch } from "./program-watch";
import {
  vaultOutboxContext,
  writePartnerEvents,
  type PartnerEventSettings,
  type VaultOutboxContext,
} from "./partner-events";

export interface IndexerOptions {
  rpc: RpcClient;
  chain: Pick<VaultChain, "getTransaction">;
  store: SqlIndexerStore;
  lock: LeaderLock;
  /**
   * The chain's genesis hash, read at the start of each run: rows of a chain with another genesis are
   * deleted and the new chain is indexed from scratch. A change seen by the watch wakes the indexer.
   */
  genesis: GenesisWatch;
  /** Told when the rows of the previous chain were deleted for a new one. */
  onNewChain?: (change: { previous: string; current: string }) => void;
  programId: PublicKey;
  /** Only the vaults registered under this protocol are indexed. */
  protocolId: PublicKey;
  /** Milliseconds between runs. */
  intervalMs: number;
  /** Wakes within this many milliseconds are served by one pass (default 25). */
  wakeDebounceMs?: number;
  /** The node's PubSub endpoint: the program's confirmed transactions wake the indexer. */
  wsUrl?: string | null;
  now?: () => number;
  onError?: (error: unknown) => void;
  /** Partner events are derived from the stored program events when given. */
  partnerEvents?: PartnerEventSettings;
  /** Called after a transaction's rows committed with deliveries queued (wakes the webhook worker). */
  onDeliveriesQueued?: (count: number) => void;
  /** Called after a transaction's program events committed (wakes the pages' live event feed). */
  onEventsRecorded?: () => void;
  /** Told when this instance becomes the leader (true) or stops being it (false). */
  onLeadership?: (leader: boolean) => void;
  /** Told after each run as leader: the slot it read and each vault's strike and queue state. */
  onRun?: (progress: IndexerProgress) => void;
}

export interface IndexerProgress {
  slot: number;
  vaults: { address: string; navUpdatedAt: bigint; unfundedShares: bigint }[];
}

export interface IndexerRun {
  vaults: number;
  transactions: number;
  events: number;
}

/** An event's fields as JSON: addresses in base58, integers as decimal strings. */
export function eventJson(event: VaultEvent): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(event.data).map(([name, value]) => [
      name,
      value instanceof PublicKey ? value.toBase58() : typeof value === "bigint" ? value.toString() : value,
    ]),
  );
}

function storedEvents(
  vault: string,
  signature: string,
  slot: number,
  blockTime: number | null,
  events: readonly VaultEvent[],
): StoredEvent[] {
  const stored: StoredEvent[] = [];
  events.forEach((event, eventIndex) => {
    if (eventVault(event)?.toBase58() !== vault) {
      return;
    }
    const data = eventJson(event);
    stored.push({
      signature,
      eventIndex,
      vault,
      name: event.name,
      owner: "owner" in event.data ? event.data.owner.toBase58() : null,
      requestId: "requestId" in event.data ? event.data.requestId : null,
      slot,
      blockTime: blockTime === null ? null : new Date(blockTime * 1000),
      data,
    });
  });
  return stored;
}

/** A vault of the protocol as this run read it. */
interface ReadVault {
  address: PublicKey;
  data: Buffer;
  state: VaultState;
}

export class Indexer {
  private timer: NodeJS.Timeout | null = null;
  /** The pass under way (full or woken): one at a time. */
  private running: Promise<IndexerRun | null> | null = null;
  private fullRun: Promise<IndexerRun | null> | null = null;
  private readonly watch: ProgramWatch | null;
  private leader = false;
  private stopped = true;
  private unwatchGenesis: (() => void) | null = null;
  private wakeTimer: NodeJS.Timeout | null = null;
  private waking: Promise<void> | null = null;
  private wokenAgain = false;
  /** Completed scheduled runs, for tests and health. */
  runs = 0;
  /** Completed passes run because the indexer was woken (tests). */
  wokenRuns = 0;

  constructor(private readonly options: IndexerOptions) {
    const { wsUrl } = options;
    this.watch =
      wsUrl === undefined || wsUrl === null
        ? null
        : new ProgramWatch({
            wsUrl,
            programId: options.programId,
            onActivity: () => this.wake(),
            onError: (error) => options.onError?.(error),
          });
  }

  /** Whether the WebSocket subscription that wakes it is up (false without one). */
  get watching(): boolean {
    return this.watch?.subscribed ?? false;
  }

  get isLeader(): boolean {
    return this.leader;
  }

  start(): void {
    if (this.timer !== null) {
      return;
    }
    this.stopped = false;
    this.unwatchGenesis = this.options.genesis.onChange(() => {
      this.runOnce().catch((error: unknown) => this.options.onError?.(error));
    });
    this.watch?.start();
    // The first pass at once, then one interval after each pass ends.
    const schedule = (delayMs: number): void => {
      this.timer = setTimeout(() => {
        this.runOnce()
          .catch((error: unknown) => this.options.onError?.(error))
          .finally(() => {
            if (!this.stopped) {
              schedule(this.options.intervalMs);
            }
          });
      }, delayMs);
    };
    schedule(0);
  }

  /**
   * Runs a pass of new transactions soon (something happened on chain): wakes close together share one
   * pass, and a wake during a pass is served by one more after it. Ignored unless started.
   */
  wake(): void {
    if (this.stopped || this.wakeTimer !== null) {
      return;
    }
    this.wakeTimer = setTimeout(() => {
      this.wakeTimer = null;
      if (this.waking !== null) {
        this.wokenAgain = true;
        return;
      }
      this.waking = this.runWoken().finally(() => {
        this.waking = null;
      });
    }, this.options.wakeDebounceMs ?? 25);
  }

  private async runWoken(): Promise<void> {
    do {
      this.wokenAgain = false;
      // One pass at a time: after the one under way (scheduled or not), this one.
      while (this.running !== null) {
        await this.running.catch(() => null);
      }
      if (this.stopped) {
        return;
      }
      this.running = this.run("transactions").finally(() => {
        this.running = null;
      });
      try {
        if ((await this.running) !== null) {
          this.wokenRuns += 1;
        }
      } catch (error) {
        this.options.onError?.(error);
      }
    } while (this.wokenAgain && !this.stopped);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unwatchGenesis?.();
    this.unwatchGenesis = null;
    this.watch?.stop();
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.wakeTimer !== null) {
      clearTimeout(this.wakeTimer);
      this.wakeTimer = null;
    }
    await this.waking;
    await this.fullRun?.catch(() => null);
    await this.running?.catch(() => null);
    if (this.leader) {
      this.leader = false;
      this.options.onLeadership?.(false);
    }
    await this.options.lock.release();
  }

  /**
   * One full run if this instance is (or becomes) the leader; null when another instance leads. A pass
   * under way is let finish first: a woken pass does not stand in for a full one (a busy chain would
   * otherwise keep the snapshots from ever being taken).
   */
  runOnce(): Promise<IndexerRun | null> {
    this.fullRun ??= (async () => {
      while (this.running !== null) {
        await this.running.catch(() => null);
      }
      this.running = this.run("full").finally(() => {
        this.running = null;
      });
      return this.running;
    })().finally(() => {
      this.fullRun = null;
    });
    return this.fullRun;
  }

  /** full: accounts, snapshots, holders and new transactions; transactions: the new transactions only. */
  private async run(kind: "full" | "transactions"): Promise<IndexerRun | null> {
    const was = this.leader;
    let failure: unknown = null;
    // An unreachable database is no lock: a leader that cannot ask stops leading.
    this.leader = await this.options.lock.tryAcquire().catch((error: unknown) => {
      failure = error;
      return false;
    });
    if (this.leader !== was) {
      this.options.onLeadership?.(this.leader);
    }
    if (failure !== null) {
      throw failure;
    }
    if (!this.leader) {
      return null;
    }
    const { rpc, store, programId, protocolId } = this.options;
    const genesis = await this.options.genesis.check();
    const previous = await store.startChain(genesis);
    if (previous !== null) {
      this.options.onNewChain?.({ previous, current: genesis });
    }
    const { slot, vaults: decoded } = await readProtocolVaults(rpc, programId, protocolId);
    const result: IndexerRun = { vaults: decoded.length, transactions: 0, events: 0 };
    if (kind === "transactions") {
      for (const vault of decoded) {
        const indexed = await this.indexEvents(vault, this.outboxOf(vault));
        result.transactions += indexed.transactions;
        result.events += indexed.events;
      }
      return result;
    }
    const reserves = await readTokenBalances(
      rpc,
      decoded.map((vault) => vault.state.reserve),
    );
    const takenAt = new Date((this.options.now ?? Date.now)());
    for (const [index, vault] of decoded.entries()) {
      const address = vault.address.toBase58();
      const reserveBalance = reserves[index] ?? 0n;
      const holders = await countHolders(rpc, vault.state.shareMint, vault.state.escrow);
      await store.upsertVault({ vault: address, slot, accountData: vault.data, reserveBalance, holders });
      await store.addSnapshot({
        vault: address,
        source: "schedule",
        slot,
        takenAt,
        navSequence: vault.state.navSequence,
        navUpdatedAt:
          vault.state.navUpdatedAt > 0n ? new Date(Number(vault.state.navUpdatedAt) * 1000) : null,
        totalAssets: vault.state.totalAssets,
        totalShares: vault.state.totalShares,
        queueTail: vault.state.queueTail,
        queueFunded: vault.state.queueFunded,
        queueClaimed: vault.state.queueClaimed,
        reserveBalance,
      });
      const backfilled = await this.indexEvents(vault, this.outboxOf(vault));
      result.transactions += backfilled.transactions;
      result.events += backfilled.events;
    }
    this.runs += 1;
    this.options.onRun?.({
      slot,
      vaults: decoded.map((vault) => ({
        address: vault.address.toBase58(),
        navUpdatedAt: vault.state.navUpdatedAt,
        unfundedShares: vault.state.queueTail - vault.state.queueFunded,
      })),
    });
    return result;
  }

  private outboxOf(vault: ReadVault): VaultOutboxContext | null {
    const settings = this.options.partnerEvents;
    return settings === undefined
      ? null
      : vaultOutboxContext(vault.address, vault.data, vault.state, settings);
  }

  /** Stores the events of every transaction of `vault` after its cursor, oldest first. */
  private async indexEvents(
    vault: ReadVault,
    outbox: VaultOutboxContext | null,
  ): Promise<{ transactions: number; events: number }> {
    const { rpc, chain, store } = this.options;
    const address = vault.address.toBase58();
    const cursor = await store.cursor(address);
    const signatures = await signaturesSince(rpc, vault.address, cursor?.signature ?? null);
    let events = 0;
    let transactions = 0;
    for (const entry of signatures) {
      let stored: StoredEvent[] = [];
      let history: NewActivityRecord[] = [];
      let signers: string[] = [];
      if (!entry.failed) {
        const transaction = await chain.getTransaction(entry.signature);
        if (transaction === null) {
          // Listed but not yet served (a lagging node): stop here and take it up on the next run.
          break;
        }
        if (transaction.err === null) {
          const decoded = decodeVaultEvents(transaction.logMessages ?? []);
          stored = storedEvents(address, entry.signature, transaction.slot, transaction.blockTime, decoded);
          const delivered = await this.deliveredHistory(vault, entry.signature, transaction, decoded);
          if (delivered === null) {
            // A request's transaction is not served yet either: the same.
            break;
          }
          history = delivered;
          signers = transaction.accountKeys.slice(0, transaction.numRequiredSignatures);
        }
      }
      const queued = await store.recordTransaction(
        address,
        { signature: entry.signature, slot: entry.slot },
        stored,
        history,
        outbox === null
          ? undefined
          : (tx) => writePartnerEvents(tx, address, entry.signature, stored, signers, outbox),
      );
      if (queued !== undefined && queued > 0) {
        this.options.onDeliveriesQueued?.(queued);
      }
      if (stored.length > 0) {
        this.options.onEventsRecorded?.();
      }
      events += stored.length;
      transactions += 1;
    }
    return { transactions, events };
  }

  /**
   * The history rows of the claims in `transaction` that their owners did not sign (deliveries), each
   * after the rows of its request's transaction when no one posted those, so an owner's feed never shows
   * a withdrawal ending that it did not show starting; null when such a transaction is not served yet.
   */
  private async deliveredHistory(
    vault: ReadVault,
    signature: string,
    transaction: ConfirmedTransaction,
    events: readonly VaultEvent[],
  ): Promise<NewActivityRecord[] | null> {
    const { chain, store } = this.options;
    const tokens: HistoryTokens = {
      assetMint: vault.state.assetMint,
      shareMint: vault.state.shareMint,
      decimals: vault.state.assetDecimals,
    };
    const delivered = deliveredActivity(signature, transaction, events, vault.address, tokens);
    const requests: NewActivityRecord[] = [];
    for (const claim of delivered) {
      const requestSignature =
        claim.requestId === null
          ? null
          : await store.unrecordedRequest(claim.vault, claim.wallet, claim.requestId);
      if (requestSignature === null) {
        continue;
      }
      const request = await chain.getTransaction(requestSignature);
      if (request === null) {
        return null;
      }
      try {
        requests.push(
          ...classifyVaultTransaction(
            request,
            { wallet: new PublicKey(claim.wallet), vault: vault.address, signature: requestSignature },
            tokens,
          ),
        );
      } catch (error) {
        // An owner that signs through a program (a PDA) signs no transaction: its request cannot be
        // recorded as its own, and the claim is recorded alone.
        if (!(error instanceof DomainError)) {
          throw error;
        }
      }
    }
    return [...requests, ...delivered];
  }
}

// Account reads: getMultipleAccounts in one round trip, and a cache of recent reads that serves fresh
// entries without a call, serves stale ones while refreshing them in the background, and reads
// missing or expired ones in one batched call (concurrent reads of the same address share it). Fresh
// reads may be shared too: callers asking for the same accounts in one turn, or while a read of them
// is on the wire, get the next read, sent after all of them asked (never one sent before).
import { PublicKey } from "@solana/web3.js";
import { z } from "zod";

import { base58Of } from "./base58";
import { ChainUnavailableError, type RpcClient } from "./rpc";

export interface ChainAccount {
  owner: PublicKey;
  lamports: bigint;
  data: Buffer;
}

/** Most addresses one getMultipleAccounts call takes. */
const MAX_ADDRESSES_PER_CALL = 100;

const accountSchema = z
  .object({
    lamports: z.number(),
    owner: z.string(),
    data: z.tuple([z.string(), z.literal("base64")]),
  })
  .nullable();

const multipleAccountsSchema = z.object({
  context: z.object({ slot: z.number() }),
  value: z.array(accountSchema),
});

export interface AccountsAtSlot {
  slot: number;
  accounts: (ChainAccount | null)[];
}

export async function getMultipleAccounts(
  rpc: RpcClient,
  addresses: readonly PublicKey[],
  options: { background?: boolean } = {},
): Promise<AccountsAtSlot> {
  if (addresses.length > MAX_ADDRESSES_PER_CALL) {
    throw new Error(`getMultipleAccounts takes at most ${MAX_ADDRESSES_PER_CALL} addresses`);
  }
  const raw = await rpc.call<unknown>(
    "getMultipleAccounts",
    [addresses.map((address) => address.toBase58()), { encoding: "base64", commitment: "confirmed" }],
    options,
  );
  const parsed = multipleAccountsSchema.safeParse(raw);
  if (!parsed.success || parsed.data.value.length !== addresses.length) {
    throw new ChainUnavailableError("getMultipleAccounts returned an unexpected shape");
  }
  return {
    slot: parsed.data.context.slot,
    accounts: parsed.data.value.map((account) =>
      account === null
        ? null
        : {
            owner: new PublicKey(account.owner),
            lamports: BigInt(account.lamports),
            data: Buffer.from(account.data[0], "base64"),
          },
    ),
  };
}

interface CacheEntry {
  account: ChainAccount | null;
  fetchedAt: number;
}

export interface AccountCacheOptions {
  /** Younger entries are served without a call. */
  freshMs: number;
  /** Entries up to this age are served while a background read refreshes them. */
  staleMs: number;
  now?: () => number;
}

export interface AccountReadOptions {
  /** Read from the chain now, whatever the cache holds (used before refusing on cached data). */
  fresh?: boolean;
  /**
   * With `fresh`: share the read with every caller asking for the same accounts in this turn of the
   * event loop or while a read of them is on the wire. The shared read is sent after each of them
   * asked, so the answer is as fresh as a read of one's own; concurrent identical reads make one call
   * per round trip instead of one each.
   */
  shared?: boolean;
}

type Accounts = (ChainAccount | null)[];

/** Fresh reads of one address list: the one on the wire, and the one callers since then wait for. */
interface SharedReads {
  sent: Promise<Accounts> | null;
  next: Promise<Accounts> | null;
}

const settled = (): void => undefined;

export class AccountCache {
  private readonly entries = new Map<string, CacheEntry>();
  private readonly inFlight = new Map<string, Promise<ChainAccount | null>>();
  /** Shared fresh reads by their address list. */
  private readonly shared = new Map<string, SharedReads>();
  private readonly now: () => number;
  /** Bumped by clear(): a read started before it is not kept. */
  private generation = 0;

  constructor(
    private readonly rpc: RpcClient,
    private readonly options: AccountCacheOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  /** The accounts in order; one batched call at most for the ones the cache cannot serve. */
  async get(
    addresses: readonly PublicKey[],
    options: AccountReadOptions = {},
  ): Promise<(ChainAccount | null)[]> {
    if (options.fresh === true && options.shared === true) {
      return this.readShared(addresses);
    }
    const now = this.now();
    const results = new Array<Promise<ChainAccount | null> | ChainAccount | null>(addresses.length);
    const toRead: { index: number; key: string; address: PublicKey }[] = [];
    const toRefresh: PublicKey[] = [];
    addresses.forEach((address, index) => {
      const key = base58Of(address);
      const entry = this.entries.get(key);
      const age = entry === undefined ? Infinity : now - entry.fetchedAt;
      if (entry !== undefined && options.fresh !== true && age <= this.options.staleMs) {
        results[index] = entry.account;
        if (age > this.options.freshMs) {
          toRefresh.push(address);
        }
        return;
      }
      const pending = options.fresh === true ? undefined : this.inFlight.get(key);
      if (pending !== undefined) {
        results[index] = pending;
      } else {
        toRead.push({ index, key, address });
      }
    });
    if (toRead.length > 0) {
      const batch = this.read(toRead.map((item) => item.address));
      toRead.forEach((item, position) => {
        const single = batch.then((accounts) => accounts[position] ?? null);
        this.inFlight.set(item.key, single);
        void single.then(
          () => this.clearInFlight(item.key, single),
          () => this.clearInFlight(item.key, single),
        );
        results[item.index] = single;
      });
    }
    const unique = toRefresh.filter((address) => !this.inFlight.has(base58Of(address)));
    if (unique.length > 0) {
      this.refreshInBackground(unique);
    }
    return Promise.all(results);
  }

  /** Drops cached entries so the next read goes to the chain. */
  invalidate(addresses: readonly PublicKey[]): void {
    for (const address of addresses) {
      this.entries.delete(address.toBase58());
    }
  }

  /** Drops every entry and pending read (another chain's accounts). */
  clear(): void {
    this.generation += 1;
    this.entries.clear();
    this.inFlight.clear();
    this.shared.clear();
  }

  /**
   * The next fresh read of `addresses`, sent once this turn's callers have asked and the read of them
   * on the wire (which may predate a caller) has answered: every caller gets a read sent after it asked.
   */
  private readShared(addresses: readonly PublicKey[]): Promise<Accounts> {
    const key = addresses.map((address) => base58Of(address)).join(",");
    let reads = this.shared.get(key);
    if (reads === undefined) {
      reads = { sent: null, next: null };
      this.shared.set(key, reads);
    }
    if (reads.next !== null) {
      return reads.next;
    }
    const own = reads;
    const onTheWire = own.sent ?? Promise.resolve([]);
    const next = onTheWire
      .then(settled, settled)
      .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
      .then(() => {
        own.next = null;
        const sent = this.get(addresses, { fresh: true });
        own.sent = sent;
        const done = (): void => {
          if (own.sent === sent) {
            own.sent = null;
            if (own.next === null && this.shared.get(key) === own) {
              this.shared.delete(key);
            }
          }
        };
        sent.then(done, done);
        return sent;
      });
    own.next = next;
    return next;
  }

  private clearInFlight(key: string, promise: Promise<ChainAccount | null>): void {
    if (this.inFlight.get(key) === promise) {
      this.inFlight.delete(key);
    }
  }

  private async read(addresses: PublicKey[], background = false): Promise<(ChainAccount | null)[]> {
    const generation = this.generation;
    const { accounts } = await getMultipleAccounts(this.rpc, addresses, { background });
    if (generation !== this.generation) {
      return accounts;
    }
    const fetchedAt = this.now();
    addresses.forEach((address, index) => {
      this.entries.set(base58Of(address), { account: accounts[index] ?? null, fetchedAt });
    });
    return accounts;
  }

  private refreshInBackground(addresses: PublicKey[]): void {
    const batch = this.read(addresses, true);
    for (const [position, address] of addresses.entries()) {
      const key = base58Of(address);
      const single = batch.then((accounts) => accounts[position] ?? null);
      this.inFlight.set(key, single);
      void single.then(
        () => this.clearInFlight(key, single),
        () => this.clearInFlight(key, single),
      );
    }
    // A failed refresh leaves the stale entry to expire; the next read past staleMs reports the error.
    batch.catch(() => undefined);
  }
}

// Solana PubSub over WebSocket, as a validator serves it on :8900: account, program, signature, logs,
// slot and root subscriptions with their unsubscribes. Notifications are sent when the change reaches
// the subscription's commitment; a signature subscription fires once and ends.
import type { Server } from "node:http";

import bs58 from "bs58";
import { WebSocketServer, type WebSocket } from "ws";
import { z } from "zod";

import type { Commitment } from "../chain-types";
import { stringifyJson } from "../json";
import type { TransactionRecord } from "../ledger";
import { decodeTokenAccount } from "../../lib/chain/spl-token";
import { encodeAccount } from "./encoding";
import { RpcError, internalError, invalidParams, invalidRequest, methodNotFound, parseError } from "./errors";
import {
  accountEncoding,
  accountReadConfig,
  commitmentSchema,
  dataSlice,
  parseParams,
  parsePubkey,
  parseSignature,
  programAccountsFilter,
} from "./params";
import type { RpcContext } from "./methods";

const SYSTEM_PROGRAM = "11111111111111111111111111111111";

/** How an account or program subscription's notifications read its accounts. */
const accountFormatConfig = accountReadConfig.omit({ minContextSlot: true });
const accountSubscribeConfig = accountFormatConfig.nullish();
const programSubscribeConfig = accountFormatConfig
  .extend({ filters: z.array(programAccountsFilter).nullish() })
  .nullish();
const signatureSubscribeConfig = z
  .object({ commitment: commitmentSchema.nullish(), enableReceivedNotification: z.boolean().nullish() })
  .nullish();
const logsFilter = z.union([z.enum(["all", "allWithVotes"]), z.object({ mentions: z.array(z.string()) })]);
const logsSubscribeConfig = z.object({ commitment: commitmentSchema.nullish() }).nullish();

interface AccountFormat {
  commitment: Commitment;
  encoding: z.infer<typeof accountEncoding>;
  slice: z.infer<typeof dataSlice> | null;
}

/** The format a subscription asked for; unsaid: finalized, binary, the whole data. */
function accountFormat(config: z.infer<typeof accountFormatConfig> | null | undefined): AccountFormat {
  return {
    commitment: config?.commitment ?? "finalized",
    encoding: config?.encoding ?? "binary",
    slice: config?.dataSlice ?? null,
  };
}

type Subscription =
  | ({ kind: "account"; address: string; lastSlot: bigint | null } & AccountFormat)
  | ({ kind: "program"; programId: string; filters: z.infer<typeof programAccountsFilter>[] } & AccountFormat)
  | { kind: "signature"; signature: string; commitment: Commitment; notifyReceived: boolean }
  | { kind: "logs"; mentions: string | null; commitment: Commitment }
  | { kind: "slot" }
  | { kind: "root"; lastRoot: bigint | null };

const NOTIFICATION_METHOD: Record<Subscription["kind"], string> = {
  account: "accountNotification",
  program: "programNotification",
  signature: "signatureNotification",
  logs: "logsNotification",
  slot: "slotNotification",
  root: "rootNotification",
};

const UNSUBSCRIBE_KIND: Record<string, Subscription["kind"]> = {
  accountUnsubscribe: "account",
  programUnsubscribe: "program",
  signatureUnsubscribe: "signature",
  logsUnsubscribe: "logs",
  slotUnsubscribe: "slot",
  rootUnsubscribe: "root",
};

interface Connection {
  socket: WebSocket;
  subscriptions: Map<number, Subscription>;
}

export interface PubsubServer {
  close(): Promise<void>;
  readonly connectionCount: number;
}

function matchesFilters(
  filters: z.infer<typeof programAccountsFilter>[],
  data: Uint8Array,
  isTokenAccount: boolean,
): boolean {
  return filters.every((filter) => {
    if (filter === "tokenAccountState") {
      return isTokenAccount;
    }
    if ("dataSize" in filter) {
      return data.length === filter.dataSize;
    }
    const bytes =
      filter.memcmp.encoding === "base64"
        ? Buffer.from(filter.memcmp.bytes, "base64")
        : Buffer.from(safeBase58(filter.memcmp.bytes));
    const offset = filter.memcmp.offset;
    return (
      offset + bytes.length <= data.length && bytes.every((byte, index) => data[offset + index] === byte)
    );
  });
}

function safeBase58(text: string): Uint8Array {
  try {
    return bs58.decode(text);
  } catch {
    return new Uint8Array([0xff, 0xff, 0xff]);
  }
}

/** Serves PubSub on an HTTP server's upgrade requests (its own port, like a validator's :8900). */
export function attachPubsub(server: Server, context: RpcContext): PubsubServer {
  const { chain } = context;
  const wss = new WebSocketServer({ server, maxPayload: 64 * 1024 });
  const connections = new Set<Connection>();
  let nextSubscriptionId = 0;

  function sendJson(connection: Connection, payload: unknown): void {
    if (connection.socket.readyState === connection.socket.OPEN) {
      connection.socket.send(stringifyJson(payload));
    }
  }

  function notify(connection: Connection, id: number, subscription: Subscription, result: unknown): void {
    sendJson(connection, {
      jsonrpc: "2.0",
      method: NOTIFICATION_METHOD[subscription.kind],
      params: { result, subscription: id },
    });
  }

  function accountValue(
    address: string,
    encoding: z.infer<typeof accountEncoding>,
    slice: z.infer<typeof dataSlice> | null,
  ) {
    const account = chain.getAccount(address) ?? {
      lamports: 0n,
      data: new Uint8Array(0),
      owner: SYSTEM_PROGRAM,
      executable: false,
      rentEpoch: 0n,
    };
    return encodeAccount(chain, account, encoding, slice, true);
  }

  function withContext(slot: bigint, value: unknown): unknown {
    return { context: { slot }, value };
  }

  function onTransaction(record: TransactionRecord, commitment: Commitment): void {
    const writable = record.accountKeys.filter((_key, index) => record.writable[index] === true);
    for (const connection of connections) {
      for (const [id, subscription] of connection.subscriptions) {
        try {
          deliver(connection, id, subscription, record, commitment, writable);
        } catch (error) {
          console.error("localnet: a pubsub notification failed", error);
        }
      }
    }
  }

  function deliver(
    connection: Connection,
    id: number,
    subscription: Subscription,
    record: TransactionRecord,
    commitment: Commitment,
    writable: string[],
  ): void {
    switch (subscription.kind) {
      case "signature":
        if (subscription.signature !== record.signature) {
          return;
        }
        if (subscription.commitment === commitment) {
          notify(connection, id, subscription, withContext(record.slot, { err: record.err }));
          connection.subscriptions.delete(id);
        } else if (commitment === "processed" && subscription.notifyReceived) {
          // The leader has it; the subscription's own level comes later.
          notify(connection, id, subscription, withContext(record.slot, "receivedSignature"));
        }
        return;
      case "logs":
        if (
          subscription.commitment === commitment &&
          (subscription.mentions === null || record.accountKeys.includes(subscription.mentions))
        ) {
          notify(
            connection,
            id,
            subscription,
            withContext(record.slot, { signature: record.signature, err: record.err, logs: record.logs }),
          );
        }
        return;
      case "account":
        // One notification per slot and commitment, with the account as it is now.
        if (
          subscription.commitment === commitment &&
          writable.includes(subscription.address) &&
          (commitment === "processed" || subscription.lastSlot !== record.slot)
        ) {
          subscription.lastSlot = record.slot;
          notify(
            connection,
            id,
            subscription,
            withContext(
              record.slot,
              accountValue(subscription.address, subscription.encoding, subscription.slice),
            ),
          );
        }
        return;
      case "program":
        if (subscription.commitment !== commitment) {
          return;
        }
        for (const address of writable) {
          const account = chain.getAccount(address);
          if (
            account !== null &&
            account.owner === subscription.programId &&
            matchesFilters(
              subscription.filters,
              account.data,
              decodeTokenAccount(account.owner, account.data) !== null,
            )
          ) {
            notify(
              connection,
              id,
              subscription,
              withContext(record.slot, {
                pubkey: address,
                account: encodeAccount(chain, account, subscription.encoding, subscription.slice, true),
              }),
            );
          }
        }
        return;
      case "slot":
      case "root":
        return;
    }
  }

  const stopTransactions = chain.onTransaction(onTransaction);
  const stopSlots = chain.onSlot((info) => {
    for (const connection of connections) {
      for (const [id, subscription] of connection.subscriptions) {
        if (subscription.kind === "slot") {
          notify(connection, id, subscription, info);
        } else if (subscription.kind === "root" && subscription.lastRoot !== info.root) {
          subscription.lastRoot = info.root;
          notify(connection, id, subscription, info.root);
        }
      }
    }
  });

  function subscribe(connection: Connection, subscription: Subscription): number {
    nextSubscriptionId += 1;
    connection.subscriptions.set(nextSubscriptionId, subscription);
    return nextSubscriptionId;
  }

  function call(connection: Connection, method: string, params: unknown): unknown {
    switch (method) {
      case "accountSubscribe": {
        const [address, config] = parseParams(z.tuple([z.string(), accountSubscribeConfig]), params);
        parsePubkey(address);
        return subscribe(connection, { kind: "account", address, ...accountFormat(config), lastSlot: null });
      }
      case "programSubscribe": {
        const [programId, config] = parseParams(z.tuple([z.string(), programSubscribeConfig]), params);
        parsePubkey(programId);
        return subscribe(connection, {
          kind: "program",
          programId,
          ...accountFormat(config),
          filters: config?.filters ?? [],
        });
      }
      case "signatureSubscribe": {
        const [signature, config] = parseParams(z.tuple([z.string(), signatureSubscribeConfig]), params);
        parseSignature(signature);
        const subscription: Subscription = {
          kind: "signature",
          signature,
          commitment: config?.commitment ?? "finalized",
          notifyReceived: config?.enableReceivedNotification === true,
        };
        const id = subscribe(connection, subscription);
        const status = chain.statusOf(signature);
        // Already there: answer first, then notify, as a validator checks on subscribe.
        queueMicrotask(() => {
          if (
            status !== null &&
            chain.hasReached(status, subscription.commitment) &&
            connection.subscriptions.has(id)
          ) {
            notify(connection, id, subscription, withContext(status.record.slot, { err: status.record.err }));
            connection.subscriptions.delete(id);
          } else if (subscription.notifyReceived && status !== null) {
            notify(connection, id, subscription, withContext(status.record.slot, "receivedSignature"));
          }
        });
        return id;
      }
      case "logsSubscribe": {
        const [filter, config] = parseParams(z.tuple([logsFilter, logsSubscribeConfig]), params);
        let mentions: string | null = null;
        if (typeof filter !== "string") {
          if (filter.mentions.length !== 1) {
            throw invalidParams("Invalid Request: Only 1 address supported");
          }
          mentions = parsePubkey(filter.mentions[0] ?? "");
        }
        return subscribe(connection, {
          kind: "logs",
          mentions,
          commitment: config?.commitment ?? "finalized",
        });
      }
      case "slotSubscribe":
        parseParams(z.tuple([]), params);
        return subscribe(connection, { kind: "slot" });
      case "rootSubscribe":
        parseParams(z.tuple([]), params);
        return subscribe(connection, { kind: "root", lastRoot: null });
      default: {
        const kind = Object.hasOwn(UNSUBSCRIBE_KIND, method) ? UNSUBSCRIBE_KIND[method] : undefined;
        if (kind === undefined) {
          throw methodNotFound();
        }
        const [id] = parseParams(z.tuple([z.number().int()]), params);
        if (connection.subscriptions.get(id)?.kind !== kind) {
          throw invalidParams("Invalid subscription id.");
        }
        connection.subscriptions.delete(id);
        return true;
      }
    }
  }

  function answer(connection: Connection, message: unknown): unknown {
    if (typeof message !== "object" || message === null || Array.isArray(message)) {
      return { jsonrpc: "2.0", error: invalidRequest().toJSON(), id: null };
    }
    const request = message as Record<string, unknown>;
    const hasId = Object.hasOwn(request, "id");
    const id = typeof request.id === "number" || typeof request.id === "string" ? request.id : null;
    if (request.jsonrpc !== "2.0" || typeof request.method !== "string") {
      return { jsonrpc: "2.0", error: invalidRequest().toJSON(), id };
    }
    let response: unknown;
    try {
      response = { jsonrpc: "2.0", result: call(connection, request.method, request.params), id };
    } catch (error) {
      if (!(error instanceof RpcError)) {
        console.error(`localnet: pubsub ${request.method} failed`, error);
      }
      response = {
        jsonrpc: "2.0",
        error: (error instanceof RpcError ? error : internalError()).toJSON(),
        id,
      };
    }
    return hasId ? response : null;
  }

  wss.on("connection", (socket) => {
    const connection: Connection = { socket, subscriptions: new Map() };
    connections.add(connection);
    socket.on("message", (data) => {
      let payload: unknown;
      try {
        payload = JSON.parse(String(data));
      } catch {
        sendJson(connection, { jsonrpc: "2.0", error: parseError().toJSON(), id: null });
        return;
      }
      if (Array.isArray(payload)) {
        const responses = payload.map((item) => answer(connection, item)).filter((item) => item !== null);
        if (responses.length > 0) {
          sendJson(connection, responses);
        }
        return;
      }
      const response = answer(connection, payload);
      if (response !== null) {
        sendJson(connection, response);
      }
    });
    socket.on("close", () => connections.delete(connection));
    socket.on("error", () => connections.delete(connection));
  });

  return {
    get connectionCount() {
      return connections.size;
    },
    close: () =>
      new Promise<void>((resolve) => {
        stopTransactions();
        stopSlots();
        for (const connection of connections) {
          connection.socket.terminate();
        }
        wss.close(() => resolve());
      }),
  };
}

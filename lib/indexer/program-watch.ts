// The indexer's fast path: a PubSub subscription (logsSubscribe, mentions the program, at
// "confirmed") over the RPC node's WebSocket. Each successful transaction of the program makes the
// indexer run a pass at once instead of at its next interval, so a partner hears of a withdrawal
// turning claimable within a second or two of the chain. The interval stays the fallback: a dropped
// socket is reconnected with backoff, and a pass runs when the subscription is back, for what the
// socket missed meanwhile. A socket that stops answering pings is treated as dropped.
import type { PublicKey } from "@solana/web3.js";
import WebSocket from "ws";
import { z } from "zod";

export interface ProgramWatchOptions {
  /** ws:// or wss:// PubSub endpoint. */
  wsUrl: string;
  programId: PublicKey;
  /** A transaction of the program was confirmed, or the subscription came back after a drop. */
  onActivity(): void;
  onError?: (error: unknown) => void;
  /** Backoff between reconnections, doubling from `min` to `max` milliseconds. */
  reconnectMs?: { min: number; max: number };
  /** A ping this often; no pong by the next one drops the socket. */
  pingMs?: number;
}

const subscribed = z.object({ id: z.literal(1), result: z.number() });
const failed = z.object({ id: z.literal(1), error: z.object({ message: z.string() }) });
const notification = z.object({
  method: z.literal("logsNotification"),
  params: z.object({ result: z.object({ value: z.object({ err: z.unknown() }) }) }),
});

export class ProgramWatch {
  private socket: WebSocket | null = null;
  private stopped = true;
  private attempts = 0;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private pingTimer: NodeJS.Timeout | null = null;
  private everSubscribed = false;
  /** Subscriptions confirmed by the node since start (tests: a reconnect shows as a second one). */
  subscriptions = 0;

  constructor(private readonly options: ProgramWatchOptions) {}

  get subscribed(): boolean {
    return this.socket !== null && this.subscriptions > 0 && this.socket.readyState === WebSocket.OPEN;
  }

  start(): void {
    if (!this.stopped) {
      return;
    }
    this.stopped = false;
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    if (this.reconnectTimer !== null) {
      clearTimeout(this.reconnectTimer);
      this.reconnectTimer = null;
    }
    this.stopPing();
    this.socket?.terminate();
    this.socket = null;
  }

  private connect(): void {
    const socket = new WebSocket(this.options.wsUrl, { handshakeTimeout: 10_000 });
    this.socket = socket;
    let alive = true;
    socket.on("open", () => {
      socket.send(
        JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "logsSubscribe",
          params: [{ mentions: [this.options.programId.toBase58()] }, { commitment: "confirmed" }],
        }),
      );
      this.pingTimer = setInterval(() => {
        if (!alive) {
          socket.terminate();
          return;
        }
        alive = false;
        socket.ping();
      }, this.options.pingMs ?? 30_000);
      this.pingTimer.unref();
    });
    socket.on("pong", () => {
      alive = true;
    });
    socket.on("message", (data: WebSocket.RawData) => this.receive(socket, data));
    socket.on("error", (error) => this.options.onError?.(error));
    socket.on("close", () => {
      if (this.socket !== socket) {
        return;
      }
      this.socket = null;
      this.stopPing();
      if (!this.stopped) {
        this.scheduleReconnect();
      }
    });
  }

  private receive(socket: WebSocket, data: WebSocket.RawData): void {
    let message: unknown;
    try {
      message = JSON.parse(data.toString());
    } catch {
      return;
    }
    const event = notification.safeParse(message);
    if (event.success) {
      this.attempts = 0;
      if (event.data.params.result.value.err === null) {
        this.options.onActivity();
      }
      return;
    }
    if (subscribed.safeParse(message).success) {
      this.attempts = 0;
      this.subscriptions += 1;
      // After a drop: a pass for whatever the socket missed.
      if (this.everSubscribed) {
        this.options.onActivity();
      }
      this.everSubscribed = true;
      return;
    }
    const refused = failed.safeParse(message);
    if (refused.success) {
      this.options.onError?.(new Error(`logsSubscribe refused: ${refused.data.error.message}`));
      socket.close();
    }
  }

  private scheduleReconnect(): void {
    const { min, max } = this.options.reconnectMs ?? { min: 500, max: 30_000 };
    const delay = Math.min(max, min * 2 ** this.attempts);
    this.attempts += 1;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      if (!this.stopped) {
        this.connect();
      }
    }, delay);
    this.reconnectTimer.unref();
  }

  private stopPing(): void {
    if (this.pingTimer !== null) {
      clearInterval(this.pingTimer);
      this.pingTimer = null;
    }
  }
}

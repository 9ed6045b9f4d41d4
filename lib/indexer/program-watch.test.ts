// The indexer's WebSocket wake-up against a PubSub server on a local port that speaks the node's
// protocol: it subscribes to the program's logs at "confirmed", reports successful transactions (not
// failed ones), and after the server drops it, reconnects, subscribes again and reports activity for
// what it may have missed.
import type { AddressInfo } from "node:net";

import { Keypair } from "@solana/web3.js";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocketServer, type WebSocket } from "ws";

import { waitFor } from "../../localnet/testing";
import { ProgramWatch } from "./program-watch";

interface PubsubServer {
  url: string;
  sockets: WebSocket[];
  requests: unknown[];
  close(): Promise<void>;
}

async function startPubsub(): Promise<PubsubServer> {
  const server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const sockets: WebSocket[] = [];
  const requests: unknown[] = [];
  server.on("connection", (socket) => {
    sockets.push(socket);
    socket.on("message", (data: Buffer) => {
      const request = JSON.parse(data.toString()) as { id: number };
      requests.push(request);
      socket.send(JSON.stringify({ jsonrpc: "2.0", result: 7, id: request.id }));
    });
  });
  return {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`,
    sockets,
    requests,
    close: () => {
      sockets.forEach((socket) => socket.terminate());
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

function logs(socket: WebSocket | undefined, err: unknown): void {
  socket?.send(
    JSON.stringify({
      jsonrpc: "2.0",
      method: "logsNotification",
      params: {
        result: { context: { slot: 5 }, value: { signature: "sig", err, logs: [] } },
        subscription: 7,
      },
    }),
  );
}

let watch: ProgramWatch | null = null;
let pubsub: PubsubServer | null = null;

afterEach(async () => {
  watch?.stop();
  await pubsub?.close();
});

describe("ProgramWatch", () => {
  it("subscribes to the program's confirmed logs, reports successes, and resubscribes after a drop", async () => {
    pubsub = await startPubsub();
    const programId = Keypair.generate().publicKey;
    let activity = 0;
    watch = new ProgramWatch({
      wsUrl: pubsub.url,
      programId,
      onActivity: () => {
        activity += 1;
      },
      reconnectMs: { min: 20, max: 100 },
    });
    watch.start();
    await waitFor(() => (watch?.subscribed === true ? true : undefined));
    expect(pubsub.requests).toEqual([
      {
        jsonrpc: "2.0",
        id: 1,
        method: "logsSubscribe",
        params: [{ mentions: [programId.toBase58()] }, { commitment: "confirmed" }],
      },
    ]);
    expect(activity).toBe(0);

    logs(pubsub.sockets[0], { InstructionError: [0, "Custom"] });
    logs(pubsub.sockets[0], null);
    await waitFor(() => (activity === 1 ? true : undefined));

    pubsub.sockets[0]?.terminate();
    await waitFor(() => (watch?.subscriptions === 2 && watch.subscribed ? true : undefined));
    // The pass for what the socket may have missed while it was down.
    await waitFor(() => (activity === 2 ? true : undefined));
    logs(pubsub.sockets[1], null);
    await waitFor(() => (activity === 3 ? true : undefined));
    expect(pubsub.sockets).toHaveLength(2);
  });

  it("keeps trying a node that is down, and subscribes once it is up", async () => {
    const errors: unknown[] = [];
    const probe = await startPubsub();
    const url = probe.url;
    await probe.close();
    watch = new ProgramWatch({
      wsUrl: url,
      programId: Keypair.generate().publicKey,
      onActivity: () => undefined,
      onError: (error) => errors.push(error),
      reconnectMs: { min: 20, max: 50 },
    });
    watch.start();
    await waitFor(() => (errors.length >= 2 ? true : undefined));
    expect(watch.subscribed).toBe(false);
    const port = Number(new URL(url).port);
    const server = new WebSocketServer({ host: "127.0.0.1", port });
    try {
      server.on("connection", (socket) =>
        socket.on("message", () => socket.send(JSON.stringify({ jsonrpc: "2.0", result: 1, id: 1 }))),
      );
      await waitFor(() => (watch?.subscribed === true ? true : undefined));
    } finally {
      watch.stop();
      server.clients.forEach((client) => client.terminate());
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

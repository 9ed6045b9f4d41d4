// A TCP proxy for fault tests: forwards to a target, or refuses connections, or accepts and never
// answers (a blackhole). Changing the mode cuts every open connection, as an outage would.
import { createConnection, createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";

export type ProxyMode = "forward" | "refuse" | "blackhole";

export interface TcpProxy {
  port: number;
  setMode(mode: ProxyMode): void;
  close(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  let mode: ProxyMode = "forward";
  const open = new Set<Socket>();
  const track = (socket: Socket): void => {
    open.add(socket);
    socket.on("close", () => open.delete(socket));
    socket.on("error", () => socket.destroy());
  };
  const server: Server = createServer((client) => {
    track(client);
    if (mode === "refuse") {
      client.destroy();
      return;
    }
    if (mode === "blackhole") {
      return;
    }
    const upstream = createConnection(targetPort, targetHost);
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    upstream.on("close", () => client.destroy());
    client.on("close", () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return {
    port: (server.address() as AddressInfo).port,
    setMode(next) {
      mode = next;
      for (const socket of open) {
        socket.destroy();
      }
    },
    close() {
      for (const socket of open) {
        socket.destroy();
      }
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

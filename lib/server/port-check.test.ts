// The ports check names a taken port with the setting that moves it, and passes free ones.
import { createServer, type Server } from "node:net";

import { afterEach, describe, expect, it } from "vitest";

import { ConfigError } from "../env-schema";
import { assertPortsFree, isPortFree } from "./port-check";

let held: Server | null = null;

afterEach(async () => {
  await new Promise<void>((resolve) => (held === null ? resolve() : held.close(() => resolve())));
  held = null;
});

/** Another program's server on a free port of 127.0.0.1. */
async function holdPort(): Promise<number> {
  const server = createServer();
  held = server;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const address = server.address();
  if (address === null || typeof address === "string") {
    throw new Error("no port");
  }
  return address.port;
}

describe("assertPortsFree", () => {
  it("names each taken port and its setting, and only those", async () => {
    const port = await holdPort();
    expect(await isPortFree("127.0.0.1", port)).toBe(false);
    const checked = assertPortsFree([
      { host: "127.0.0.1", port, setting: "APP_PORT" },
      { host: "127.0.0.1", port: 0, setting: "--rpc-port" },
    ]);
    await expect(checked).rejects.toBeInstanceOf(ConfigError);
    await expect(checked).rejects.toThrow(
      `Port ${port} on 127.0.0.1 is already in use by another program; stop it, or set APP_PORT to a free port`,
    );
    await expect(checked).rejects.not.toThrow("--rpc-port");
  });

  it("passes once the port is released", async () => {
    const port = await holdPort();
    await new Promise<void>((resolve) => held?.close(() => resolve()));
    held = null;
    expect(await isPortFree("127.0.0.1", port)).toBe(true);
    await expect(assertPortsFree([{ host: "127.0.0.1", port, setting: "PORT" }])).resolves.toBeUndefined();
  });
});

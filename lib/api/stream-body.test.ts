// Streamed bodies (server-sent events) through both hosts, with a stub route: the node:http host
// writes chunks as they come and aborts the body's signal when the client leaves or the host shuts
// down; the WHATWG Response (Next.js route files) streams the same chunks and aborts on cancel; a HEAD
// discards the stream without running it.
import { describe, expect, it } from "vitest";

import { waitFor } from "../../localnet/testing";
import type { ApiContext } from "./context";
import type { ApiResponse, StreamBody } from "./handler";
import { createLogger } from "./logger";
import { startNodeHost } from "./node-host";
import { toWebResponse } from "./responses";
import { createApiHandler, type RouteDefinition } from "./router";

function stubContext(): ApiContext {
  // The router only logs through the context (at the configured request level) and starts its genesis
  // watch; the stub route uses nothing else.
  return {
    log: createLogger("silent", () => undefined),
    config: { requestLogLevel: "info" },
    genesis: { watch: () => undefined },
  } as unknown as ApiContext;
}

/** A stream that writes "one", then "two" once `next` is called, then waits for its signal. */
function tracedStream() {
  const trace = { ran: 0, discarded: 0, aborted: 0, ended: 0 };
  let next: () => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    next = resolve;
  });
  const body: StreamBody = {
    kind: "stream",
    discard: () => {
      trace.discarded += 1;
    },
    async run(write, signal) {
      trace.ran += 1;
      await write("one\n");
      await released;
      await write("two\n");
      await new Promise<void>((resolve) => {
        if (signal.aborted) {
          resolve();
        }
        signal.addEventListener("abort", () => resolve());
      });
      trace.aborted += 1;
      trace.ended += 1;
    },
  };
  return { body, trace, next: () => next() };
}

function streamRoute(make: () => StreamBody): RouteDefinition {
  return {
    pattern: "/api/stream",
    audience: "partner",
    methods: {
      GET: async (): Promise<ApiResponse> => ({
        status: 200,
        headers: { "Content-Type": "text/event-stream" },
        body: make(),
      }),
    },
  };
}

async function readUntil(reader: ReadableStreamDefaultReader<Uint8Array>, text: string): Promise<string> {
  const decoder = new TextDecoder();
  let received = "";
  while (!received.includes(text)) {
    const { value, done } = await reader.read();
    if (done) {
      break;
    }
    received += decoder.decode(value, { stream: true });
  }
  return received;
}

describe("streamed bodies", () => {
  it("are written chunk by chunk by the node:http host, which aborts them when the client leaves", async () => {
    const stream = tracedStream();
    const host = await startNodeHost(createApiHandler([streamRoute(() => stream.body)], stubContext()), {
      host: "127.0.0.1",
      port: 0,
    });
    try {
      const controller = new AbortController();
      const response = await fetch(`${host.url}/api/stream`, { signal: controller.signal });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-length")).toBeNull();
      expect(response.headers.get("x-request-id")).toMatch(/^req_/);
      const reader = response.body?.getReader();
      if (reader === undefined) {
        throw new Error("no body");
      }
      // The first chunk arrives before the body goes on: nothing is buffered to the end.
      expect(await readUntil(reader, "one\n")).toBe("one\n");
      stream.next();
      expect(await readUntil(reader, "two\n")).toBe("two\n");
      expect(stream.trace.aborted).toBe(0);
      controller.abort();
      await waitFor(() => (stream.trace.aborted === 1 ? true : undefined));
    } finally {
      await host.close(1_000);
    }
  });

  it("are ended by the host's shutdown instead of holding it for its whole grace period", async () => {
    const stream = tracedStream();
    stream.next();
    const host = await startNodeHost(createApiHandler([streamRoute(() => stream.body)], stubContext()), {
      host: "127.0.0.1",
      port: 0,
    });
    const response = await fetch(`${host.url}/api/stream`);
    const reader = response.body?.getReader();
    if (reader === undefined) {
      throw new Error("no body");
    }
    await readUntil(reader, "two\n");
    // A grace period longer than the test's timeout: only ending the stream lets close() resolve.
    await host.close(600_000);
    expect(stream.trace.ended).toBe(1);
    const rest = await reader.read().catch(() => ({ done: true }));
    expect(rest.done).toBe(true);
  });

  it("stream as a WHATWG Response, aborted when its reader cancels", async () => {
    const stream = tracedStream();
    const response = toWebResponse({ status: 200, headers: {}, body: stream.body });
    const reader = response.body?.getReader();
    if (reader === undefined) {
      throw new Error("no body");
    }
    expect(await readUntil(reader, "one\n")).toBe("one\n");
    stream.next();
    expect(await readUntil(reader, "two\n")).toBe("two\n");
    await reader.cancel();
    await waitFor(() => (stream.trace.aborted === 1 ? true : undefined));
  });

  it("are discarded, never run, for HEAD", async () => {
    const stream = tracedStream();
    const handle = createApiHandler([streamRoute(() => stream.body)], stubContext());
    const response = await handle({
      method: "HEAD",
      url: "http://localhost/api/stream",
      headers: new Headers(),
      body: null,
    });
    expect(response.status).toBe(200);
    expect(response.body).toBeNull();
    expect(stream.trace).toEqual({ ran: 0, discarded: 1, aborted: 0, ended: 0 });
  });
});

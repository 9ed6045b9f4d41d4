// GET /api/events/stream?vault=&wallet= — the pages' live partner events as server-sent events: the
// events of one vault that are vault-wide or of the wallet, as the indexer writes them (ids are the
// events' cursors, so a reconnecting EventSource resumes after Last-Event-ID). First-party only: the
// app's page session authorizes it, a partner's bearer key is refused (partners have webhooks and
// GET /api/events), so it is not in the OpenAPI document. Open streams are limited per session and
// client address and per process; each ends after a while so the session is checked again.
import { z } from "zod";

import { base58Of } from "../../chain/base58";
import type { StoredPartnerEvent } from "../../store/partner-events";
import type { ApiContext } from "../context";
import type { EventStreamLimits, OpenStreams } from "./open-streams";
import { authenticate, type Principal } from "../credentials";
import { ApiError, answerFor } from "../errors";
import type { ApiHandler, ApiResponse, StreamBody } from "../handler";
import { rateLimitHeaders } from "../rate-limit";
import { parseInput, readQuery } from "../request-input";
import { envelopeError } from "../responses";
import type { RouteDefinition } from "../router";
import { addressInput, walletInput } from "../schemas/common";

export { DEFAULT_EVENT_STREAM_LIMITS, type EventStreamLimits } from "./open-streams";

export const EVENT_STREAM_PATH = "/api/events/stream";

/** The browser's wait before reconnecting, sent as the stream's `retry:`. */
const RECONNECT_MS = 2_000;

const streamQuery = z.strictObject({ vault: addressInput, wallet: walletInput.optional() });

const LAST_EVENT_ID = /^\d{1,19}$/;

/** Sets a context's stream limits (tests) before its first stream. */
export function configureEventStream(context: ApiContext, limits: Partial<EventStreamLimits>): void {
  const streams = context.eventStreams;
  streams.limits = { ...streams.limits, ...limits };
}

/** How many streams `context` has open (tests, shutdown). */
export function openEventStreams(context: ApiContext): number {
  return context.eventStreams.total;
}

function held(counts: Map<string, number>, key: string): number {
  return counts.get(key) ?? 0;
}

function decrement(counts: Map<string, number>, key: string): void {
  const left = held(counts, key) - 1;
  if (left <= 0) {
    counts.delete(key);
  } else {
    counts.set(key, left);
  }
}

/**
 * Takes a slot for a session at a client address, or says which limit is reached; the returned release
 * is idempotent.
 */
function takeSlot(
  streams: OpenStreams,
  owner: { session: string; address: string },
): (() => void) | "session" | "address" | "process" {
  if (held(streams.bySession, owner.session) >= streams.limits.perSession) {
    return "session";
  }
  if (held(streams.byAddress, owner.address) >= streams.limits.perAddress) {
    return "address";
  }
  if (streams.total >= streams.limits.perProcess) {
    return "process";
  }
  streams.bySession.set(owner.session, held(streams.bySession, owner.session) + 1);
  streams.byAddress.set(owner.address, held(streams.byAddress, owner.address) + 1);
  streams.total += 1;
  let released = false;
  return () => {
    if (released) {
      return;
    }
    released = true;
    streams.total -= 1;
    decrement(streams.bySession, owner.session);
    decrement(streams.byAddress, owner.address);
  };
}

function requireFirstParty(principal: Principal): void {
  if (principal.source !== "first-party") {
    throw new ApiError(
      "FORBIDDEN",
      "The event stream serves the app's own pages; partners receive webhooks or read GET /api/events",
    );
  }
}

function requireVisible(principal: Principal, vault: string, wallet: string | null): void {
  if (principal.vaults !== null && !principal.vaults.includes(vault)) {
    throw new ApiError("FORBIDDEN", `This session may not follow vault ${vault}`);
  }
  if (principal.wallet !== null && wallet !== principal.wallet) {
    throw new ApiError("FORBIDDEN", `This session may only follow wallet ${principal.wallet}`);
  }
}

function lastEventIdOf(header: string | null): bigint | null {
  if (header === null || header === "") {
    return null;
  }
  if (!LAST_EVENT_ID.test(header)) {
    throw new ApiError("INVALID_REQUEST", "Last-Event-ID: must be an event id this stream sent");
  }
  return BigInt(header);
}

/** One event as the text/event-stream format frames it: its cursor as id, its type as event name. */
export function eventFrame(entry: StoredPartnerEvent): string {
  return `id: ${entry.seq}\nevent: ${entry.event.type}\ndata: ${JSON.stringify(entry.event)}\n\n`;
}

function eventStreamBody(
  context: ApiContext,
  filter: { vault: string; wallet: string | null },
  after: bigint | null,
  release: () => void,
): StreamBody {
  const { limits } = context.eventStreams;
  return {
    kind: "stream",
    discard: release,
    async run(write, signal) {
      const queue: StoredPartnerEvent[] = [];
      let wakeUp: (() => void) | null = null;
      const unsubscribe = context.liveEvents.subscribe(filter, after, (entry) => {
        queue.push(entry);
        wakeUp?.();
      });
      const endsAt = Date.now() + limits.lifetimeMs;
      try {
        await write(`retry: ${RECONNECT_MS}\n: connected\n\n`);
        while (!signal.aborted && queue.length <= limits.maxQueued && Date.now() < endsAt) {
          const entry = queue.shift();
          if (entry !== undefined) {
            await write(eventFrame(entry));
            continue;
          }
          const woken = await new Promise<boolean>((resolve) => {
            const done = (byEvent: boolean): void => {
              clearTimeout(timer);
              signal.removeEventListener("abort", onAbort);
              wakeUp = null;
              resolve(byEvent);
            };
            const onAbort = (): void => done(true);
            const timer = setTimeout(
              () => done(false),
              Math.max(0, Math.min(limits.heartbeatMs, endsAt - Date.now())),
            );
            signal.addEventListener("abort", onAbort);
            wakeUp = () => done(true);
          });
          if (!woken && !signal.aborted && Date.now() < endsAt) {
            await write(": keep-alive\n\n");
          }
        }
      } finally {
        unsubscribe();
        release();
      }
    },
  };
}

const handleEventStream: ApiHandler = async (request, context, meta): Promise<ApiResponse> => {
  let limitHeaders: Record<string, string> = {};
  try {
    const principal = await authenticate(request, context);
    meta.keyId = principal.keyId;
    requireFirstParty(principal);
    const decision = await context.limiter.consume(
      { bucket: "partner", limit: principal.rpm, windowSeconds: 60 },
      principal.keyId,
    );
    limitHeaders = rateLimitHeaders(decision);
    if (!decision.allowed) {
      throw new ApiError(
        "RATE_LIMITED",
        `Rate limit exceeded: ${decision.limit} requests per minute for this session; retry after ${decision.retryAfter} s`,
      );
    }
    const query = parseInput(streamQuery, readQuery(request, meta.url));
    const vault = base58Of(query.vault);
    const wallet = query.wallet === undefined ? null : base58Of(query.wallet);
    requireVisible(principal, vault, wallet);
    const after = lastEventIdOf(request.headers.get("last-event-id"));
    // The first-party principal's key id is per client address; its session is its own.
    const slot = takeSlot(context.eventStreams, {
      session: principal.sessionLimit?.id ?? principal.keyId,
      address: principal.keyId,
    });
    if (typeof slot === "string") {
      const { limits } = context.eventStreams;
      limitHeaders = { ...limitHeaders, "Retry-After": String(RECONNECT_MS / 1000) };
      throw new ApiError(
        "RATE_LIMITED",
        slot === "session"
          ? `Too many open event streams: at most ${limits.perSession} per session`
          : slot === "address"
            ? `Too many open event streams from this network address: at most ${limits.perAddress}`
            : "Too many open event streams on this server; retry shortly",
      );
    }
    return {
      status: 200,
      headers: {
        "Content-Type": "text/event-stream; charset=utf-8",
        "Cache-Control": "no-store",
        // Proxies that buffer responses (nginx) would hold events back.
        "X-Accel-Buffering": "no",
        ...limitHeaders,
      },
      body: eventStreamBody(context, { vault, wallet }, after, slot),
    };
  } catch (thrown) {
    const error = answerFor(thrown, context, meta);
    return envelopeError(error, meta.requestId, limitHeaders);
  }
};

/** The route: first-party, so outside ENDPOINTS (the OpenAPI document and the partner security suite). */
export const EVENT_STREAM_ROUTE: RouteDefinition = {
  pattern: EVENT_STREAM_PATH,
  audience: "partner",
  methods: { GET: handleEventStream },
};

// The event streams an API context has open, and the limits they are held to: a member of the context
// (context.eventStreams), counted per page session, per client address and per process.
export interface EventStreamLimits {
  /** Open streams per page session (a browser's tabs share one). */
  perSession: number;
  /**
   * Open streams per client address (an IPv6 /64 is one): sized for the office of thirty behind one
   * address that the session issue limit is sized for (docs/web-app.md), each with a few tabs open.
   */
  perAddress: number;
  /** Open streams in this process. */
  perProcess: number;
  /** A comment line this often keeps proxies from closing an idle stream. */
  heartbeatMs: number;
  /** A stream ends after this; the browser reconnects (and the session is checked again). */
  lifetimeMs: number;
  /** Events waiting for a slow client past this end its stream (it resumes from its last id). */
  maxQueued: number;
}

export const DEFAULT_EVENT_STREAM_LIMITS: EventStreamLimits = {
  perSession: 4,
  perAddress: 120,
  perProcess: 1_000,
  heartbeatMs: 15_000,
  lifetimeMs: 5 * 60_000,
  maxQueued: 1_000,
};

export interface OpenStreams {
  limits: EventStreamLimits;
  total: number;
  bySession: Map<string, number>;
  byAddress: Map<string, number>;
}

export function noOpenStreams(limits: EventStreamLimits = DEFAULT_EVENT_STREAM_LIMITS): OpenStreams {
  return { limits, total: 0, bySession: new Map(), byAddress: new Map() };
}

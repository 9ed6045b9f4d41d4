"use client";
// The page's one notice that the chain is not answering (lib/web/chain-stall.ts keeps the account):
// every read of the page that failed for want of the chain is counted here instead of on its own
// card, the figures shown are said to be as of the chain's last answer, and the stalled reads are
// asked again every few seconds (those without an interval of their own too), so every card is itself
// again soon after the chain answers.
import { useQueryClient, type Query } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";

import { noteRead, stalledSince, type StalledReads } from "@/lib/web/chain-stall";
import { LocalTime } from "./local-time";
import { Alert, Button } from "./primitives";

/** How often the stalled reads are asked again while the chain is silent. */
const STALL_RETRY_MS = 5_000;

function stateOf(query: Query) {
  // A read no card shows any more (another page's) is no reason to say the chain is down.
  return query.isActive() ? query.state : null;
}

export function ChainStallNotice() {
  const queryClient = useQueryClient();
  const [reads, setReads] = useState<StalledReads>(() => new Map());
  const current = useRef(reads);
  current.current = reads;

  useEffect(() => {
    const cache = queryClient.getQueryCache();
    setReads((seen) =>
      cache.getAll().reduce((next, query) => noteRead(next, query.queryHash, stateOf(query)), seen),
    );
    return cache.subscribe((event) => {
      const state = event.type === "removed" ? null : stateOf(event.query);
      setReads((seen) => noteRead(seen, event.query.queryHash, state));
    });
  }, [queryClient]);

  const askAgain = useCallback(() => {
    void queryClient.refetchQueries(
      {
        type: "active",
        predicate: (query) => current.current.has(query.queryHash) && query.state.fetchStatus === "idle",
      },
      { cancelRefetch: false },
    );
  }, [queryClient]);

  const stalled = reads.size > 0;
  useEffect(() => {
    if (!stalled) {
      return;
    }
    const timer = setInterval(askAgain, STALL_RETRY_MS);
    return () => clearInterval(timer);
  }, [stalled, askAgain]);

  // One stalled read answered: the chain is back, so the others are asked at once.
  const count = useRef(reads.size);
  useEffect(() => {
    if (reads.size > 0 && reads.size < count.current) {
      askAgain();
    }
    count.current = reads.size;
  }, [reads, askAgain]);

  if (!stalled) {
    return null;
  }
  const since = stalledSince(reads);
  return (
    <div className="mb-4">
      <Alert tone="error" title="The chain is unreachable" testId="chain-stall">
        <p>
          The Solana network can&apos;t be reached right now
          {since === null ? (
            ""
          ) : (
            <>
              ; the figures shown are as of <LocalTime time={since} />, when it last answered
            </>
          )}
          . The page keeps asking and updates them as soon as it answers.
        </p>
        <Button variant="secondary" className="mt-2" onClick={askAgain}>
          Try again now
        </Button>
      </Alert>
    </div>
  );
}

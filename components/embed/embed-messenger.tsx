"use client";
// In a partner's iframe: tells the host page the content's height as it changes, each confirmed
// transaction and a withdrawal that became claimable (lib/web/embed-messages.ts has the shapes). Any
// origin may receive them: they carry only public facts, and the frame cannot know its host's origin.
import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";

import { EMBED_MESSAGE_SOURCE, transactionOfKey, type EmbedMessage } from "@/lib/web/embed-messages";

function post(message: EmbedMessage): void {
  if (window.parent !== window) {
    window.parent.postMessage(message, "*");
  }
}

export function EmbedMessenger({ vault }: { vault: string }) {
  const queryClient = useQueryClient();

  useEffect(() => {
    // The content's height (the page's main element and the padding below it), not the document's: the
    // page fills at least the frame, so the document never reports a shrinking content.
    const main = document.getElementById("main");
    if (main === null) {
      return;
    }
    let last = 0;
    const report = () => {
      const below = Number.parseFloat(getComputedStyle(main.parentElement ?? main).paddingBottom) || 0;
      const height = Math.ceil(main.getBoundingClientRect().bottom + window.scrollY + below);
      if (height !== last) {
        last = height;
        post({ source: EMBED_MESSAGE_SOURCE, type: "resize", height });
      }
    };
    const observer = new ResizeObserver(report);
    observer.observe(main);
    report();
    return () => observer.disconnect();
  }, []);

  useEffect(
    () =>
      queryClient.getMutationCache().subscribe((event) => {
        if (event.type !== "updated" || event.action.type !== "success") {
          return;
        }
        const transaction = transactionOfKey(event.mutation.options.mutationKey);
        const data: unknown = event.action.data;
        if (transaction !== null && typeof data === "object" && data !== null && "signature" in data) {
          const { signature } = data;
          if (typeof signature === "string") {
            post({ source: EMBED_MESSAGE_SOURCE, type: "transaction", ...transaction, signature });
          }
        }
      }),
    [queryClient],
  );

  useEffect(() => {
    // Claimable: a withdrawal status of this vault that turns canClaimNow from false to true.
    const seen = new Map<string, boolean>();
    return queryClient.getQueryCache().subscribe((event) => {
      const [tag] = event.query.queryKey;
      if (event.type !== "updated" || tag !== "withdrawal-status" || !event.query.queryKey.includes(vault)) {
        return;
      }
      const data: unknown = event.query.state.data;
      const claimable =
        typeof data === "object" && data !== null && "canClaimNow" in data && data.canClaimNow === true;
      const before = seen.get(event.query.queryHash);
      seen.set(event.query.queryHash, claimable);
      if (claimable && before === false) {
        post({ source: EMBED_MESSAGE_SOURCE, type: "claimable", vault });
      }
    });
  }, [queryClient, vault]);

  return null;
}

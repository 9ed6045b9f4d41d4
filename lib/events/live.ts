// The live event feed of an API context (one per context, made on first use): the pages' event stream
// subscribes to it and the context's indexer wakes it when it commits partner events.
import type { ApiContext } from "../api/context";
import { PartnerEventFeed } from "./feed";

const feeds = new WeakMap<ApiContext, PartnerEventFeed>();

export function liveEventsOf(context: ApiContext): PartnerEventFeed {
  let feed = feeds.get(context);
  if (feed === undefined) {
    feed = new PartnerEventFeed(context.store, {
      onError: (error) =>
        context.log.log("warn", "live event feed read failed", {
          error: error instanceof Error ? error.message : String(error),
        }),
    });
    feeds.set(context, feed);
  }
  return feed;
}

"use client";
// A time of day in the reader's own time zone. The server does not know that zone, so it renders
// nothing and the browser fills the time in once hydrated (no hydration mismatch).
import { useSyncExternalStore } from "react";

import { formatClock, formatDateTime } from "@/lib/web/time";

const subscribe = () => () => undefined;

export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}

export function LocalTime({
  time,
  format = "clock",
}: {
  time: number | string;
  format?: "clock" | "date-time";
}) {
  const hydrated = useHydrated();
  const iso = new Date(time).toISOString();
  return (
    <time dateTime={iso}>
      {hydrated ? (format === "clock" ? formatClock(time) : formatDateTime(time)) : ""}
    </time>
  );
}

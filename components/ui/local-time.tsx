"use client";
// A time in the reader's own time zone and locale. The server does not know that zone, so it renders
// nothing and the browser fills the time in once hydrated (no hydration mismatch).
import { useSyncExternalStore } from "react";

import { formatClock, formatDateTime, formatWhen } from "@/lib/web/time";
import { useReaderLocale } from "../providers/config-context";

const subscribe = () => () => undefined;

export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}

/**
 * `format`: "clock" (a time of day today), "date-time", or "when" (the clock alone within today, with
 * its date otherwise, against `nowMs`); `zone` adds the zone's name where a reader may need it.
 */
export function LocalTime({
  time,
  format = "clock",
  nowMs,
  zone = false,
}: {
  time: number | string;
  format?: "clock" | "date-time" | "when";
  nowMs?: number;
  zone?: boolean;
}) {
  const hydrated = useHydrated();
  const locale = useReaderLocale();
  const iso = new Date(time).toISOString();
  const timeMs = new Date(time).getTime();
  const options = { locale, zone };
  const text =
    format === "clock"
      ? formatClock(timeMs, options)
      : format === "date-time"
        ? formatDateTime(timeMs, options)
        : formatWhen(timeMs, nowMs ?? Date.now(), options);
  return <time dateTime={iso}>{hydrated ? text : ""}</time>;
}

"use client";
// The current time, refreshed on an interval: for cap windows that roll over and "in 3 min" texts.
import { useEffect, useState } from "react";

export function useNow(intervalMs = 10_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

"use client";
// A read's error as the page should keep saying it: react-query clears a query's error while it asks
// again with no data to show (its status goes back to "pending"), which would blink the error away
// and a skeleton in every few seconds; this keeps the last error until the read answers.
import { useRef } from "react";

export function useReadError(read: { error: unknown; data: unknown }): unknown {
  const last = useRef<unknown>(null);
  if (read.error !== null && read.error !== undefined) {
    last.current = read.error;
  } else if (read.data !== undefined) {
    last.current = null;
  }
  return last.current;
}

"use client";
// A figure that does not fit a phone's tile: its short form ("60.91K USDC") there, the whole figure a
// tap away (and always from sm up, and to screen readers).
import { useState } from "react";

export function CompactFigure({ full, compact }: { full: string; compact: string }) {
  const [expanded, setExpanded] = useState(false);
  if (full === compact) {
    return <>{full}</>;
  }
  return (
    <>
      <span className="hidden sm:inline">{full}</span>
      <button
        type="button"
        className={`text-left sm:hidden ${expanded ? "text-base whitespace-normal" : ""}`}
        aria-label={full}
        aria-expanded={expanded}
        title={full}
        onClick={() => setExpanded(!expanded)}
        data-testid="compact-figure"
      >
        {expanded ? full : compact}
      </button>
    </>
  );
}

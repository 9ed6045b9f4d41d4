// The pages' security headers: a Content-Security-Policy with a per-request script nonce, the RPC
// endpoints the browser talks to, and frame-ancestors from config on the embeddable pages (site pages
// may only be framed by the app itself), plus nosniff and a strict referrer policy.

/** A frame-ancestors source: a keyword, `*`, or a scheme + host (+ port) with an optional `*.` label. */
const SOURCE_PATTERN = /^(?:'self'|'none'|\*|https?:\/\/(?:\*\.)?[a-z0-9.-]+(?::\d{1,5})?|https?:)$/i;

export type FrameAncestorsResult = { ok: true; sources: string[] } | { ok: false; reason: string };

/** "'self' https://partner.example" (spaces or commas): each source checked, so nothing can be injected. */
export function parseFrameAncestors(value: string): FrameAncestorsResult {
  const sources = value
    .split(/[\s,]+/)
    .map((source) => source.trim())
    .filter((source) => source !== "");
  if (sources.length === 0) {
    return { ok: false, reason: "must name at least one source, e.g. 'self' https://partner.example" };
  }
  // Bare keywords get their quotes; an origin may be written with a trailing slash.
  const normalized = sources.map((source) =>
    source === "self" || source === "none" ? `'${source}'` : source.replace(/(\/\/[^/]+)\/$/, "$1"),
  );
  for (const [index, source] of normalized.entries()) {
    if (!SOURCE_PATTERN.test(source)) {
      return {
        ok: false,
        reason: `has an invalid source ${JSON.stringify(sources[index])}: use 'self', 'none', * or origins like https://partner.example`,
      };
    }
  }
  if (normalized.includes("'none'") && normalized.length > 1) {
    return { ok: false, reason: "'none' cannot be combined with other sources" };
  }
  return { ok: true, sources: normalized };
}

export interface CspInput {
  nonce: string;
  /** Development servers need eval for React's error overlays and fast refresh. */
  development: boolean;
  /** Origins (or URLs) the page's scripts connect to: RPC, PubSub, faucet. */
  connectTo: readonly string[];
  frameAncestors: readonly string[];
  /** Served over https: upgrade any stray http subresource. */
  secure: boolean;
}

function origin(value: string): string | null {
  try {
    return new URL(value).origin;
  } catch {
    return null;
  }
}

export function buildContentSecurityPolicy(input: CspInput): string {
  const connect = new Set(["'self'"]);
  for (const target of input.connectTo) {
    const found = origin(target);
    if (found !== null) {
      connect.add(found);
    }
  }
  if (input.development) {
    // The dev server's hot-reload socket.
    connect.add("ws:");
  }
  const directives = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${input.nonce}' 'strict-dynamic'${input.development ? " 'unsafe-eval'" : ""}`,
    // Style attributes from React (widths of bars) need inline styles; styles cannot run code.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src ${[...connect].join(" ")}`,
    "frame-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    `frame-ancestors ${input.frameAncestors.join(" ")}`,
  ];
  if (input.secure) {
    directives.push("upgrade-insecure-requests");
  }
  return directives.join("; ");
}

/** Headers every response carries (static files and /api included). */
export const BASELINE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "same-origin",
};

/** The frame-ancestors of a page: the configured list for /embed/…, only the app itself elsewhere. */
export function frameAncestorsFor(pathname: string, configured: readonly string[]): readonly string[] {
  return pathname === "/embed" || pathname.startsWith("/embed/") ? configured : ["'self'"];
}

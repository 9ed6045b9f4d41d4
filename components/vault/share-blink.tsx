"use client";
// "Share as a blink": the vault page's own https URL, copied to the clipboard. Chat apps link it, and
// blink-aware clients find its deposit action through /actions.json (which maps /vault/* to it), where a
// `solana-action:` URL is linked by no chat app. The origin is read only when asked for, so the
// server's HTML and the first render agree.
import { useState } from "react";

import { Button } from "../ui/primitives";

export function ShareBlink({ vaultId }: { vaultId: string }) {
  const [url, setUrl] = useState<string | null>(null);
  const [copied, setCopied] = useState<boolean | null>(null);

  async function share(): Promise<void> {
    const link = `${window.location.origin}/vault/${vaultId}`;
    setUrl(link);
    try {
      await navigator.clipboard.writeText(link);
      setCopied(true);
    } catch {
      // No clipboard (an insecure origin, a refused permission): the field below is there to copy by hand.
      setCopied(false);
    }
  }

  // The confirmation opens over the page below the button, so the header beside it does not move.
  return (
    <div className="relative text-sm">
      <Button variant="secondary" onClick={() => void share()} data-testid="share-blink">
        Share as a blink
      </Button>
      {url === null ? null : (
        <div
          className="absolute top-full right-0 z-30 mt-1 w-[min(28rem,calc(100vw-2rem))] rounded-lg border border-line bg-card p-2 text-xs text-muted shadow-lg"
          data-testid="blink-confirmation"
        >
          <label className="flex flex-col gap-1">
            <span role="status">
              {copied === true
                ? "Copied. Paste it anywhere; Actions-aware wallets and apps show it as a blink."
                : "Copy this link:"}
            </span>
            <input
              readOnly
              value={url}
              onFocus={(event) => event.currentTarget.select()}
              className="w-full rounded border border-line bg-soft px-2 py-1 font-mono"
              data-testid="blink-url"
            />
          </label>
          <Button variant="ghost" className="mt-1 min-h-8 px-2 py-1" onClick={() => setUrl(null)}>
            Done
          </Button>
        </div>
      )}
    </div>
  );
}
